import { describe, expect, it } from 'vitest';
import { chartData } from '../../../../renderer/src/traffic/chart-data.js';

describe('traffic chart data', () => {
  it('places each second of a reading on the time axis, the last at its end time', () => {
    const data = chartData({
      endTime: '2026-01-01T00:00:10.400Z',
      intervalSeconds: 1,
      incoming: [1, 2, 3],
      outgoing: [0, 1, 0],
      depth: [5, 6, 9],
    });
    const end = Date.parse('2026-01-01T00:00:10Z') / 1000;
    expect(data.x).toEqual([end - 2, end - 1, end]);
    expect(data.incoming).toEqual([1, 2, 3]);
    expect(data.depth).toEqual([5, 6, 9]);
  });
});
