import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\traffic';
const OTHER = '.\\private$\\other';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
  h.qm.createQueue({ path: OTHER });
});
afterEach(async () => {
  await h.dispose();
});

describe('traffic (console charts)', () => {
  test('incoming, outgoing and depth per second of one queue, oldest first', async () => {
    h.clock.advance(1_000 - (h.clock.now() % 1_000)); // start of a second
    for (let i = 0; i < 3; i++) await h.qm.send(Q, { body: `a${i}` });
    h.clock.advance(1_000);
    await h.qm.receive({ path: Q });
    h.clock.advance(2_000);
    await h.qm.send(Q, { body: 'late' });
    const t = h.qm.traffic(Q, 5);
    expect(t.intervalSeconds).toBe(1);
    expect(t.incoming).toEqual([0, 3, 0, 0, 1]);
    expect(t.outgoing).toEqual([0, 0, 1, 0, 0]);
    expect(t.depth).toEqual([0, 3, 2, 2, 3]);
    expect(Date.parse(t.endTime)).toBe(Math.floor(h.clock.now() / 1000) * 1000);
  });

  test('the computer counts every queue, and a purge is outgoing traffic', async () => {
    await h.qm.send(Q, { body: 'q' });
    await h.qm.send(OTHER, { body: 'o' });
    await h.qm.send(OTHER, { body: 'o' });
    h.clock.advance(1_000);
    expect(await h.qm.purgeQueue(OTHER)).toBe(2);
    const computer = h.qm.traffic(undefined, 2);
    expect(computer.incoming).toEqual([3, 0]);
    expect(computer.outgoing).toEqual([0, 2]);
    expect(computer.depth).toEqual([3, 1]);
    expect(h.qm.traffic(Q, 2).depth).toEqual([1, 1]);
  });

  test('a queue without traffic in the window is flat at its depth; the window is at most 300 s', async () => {
    await h.qm.send(Q, { body: 'x' });
    h.clock.advance(400_000);
    const t = h.qm.traffic(Q, 1_000);
    expect(t.incoming).toHaveLength(300);
    expect(new Set(t.depth)).toEqual(new Set([1]));
    expect(t.incoming.every((n) => n === 0)).toBe(true);
  });

  test('a rolled-back arrival (a batch refused by a full computer) leaves no traffic', async () => {
    h.qm.setSetting('MachineQuota', 2);
    await expect(
      h.qm.sendBatch([
        { path: Q, message: { body: 'fits' } },
        { path: Q, message: { body: 'x'.repeat(3_000) } },
      ]),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_RESOURCES' });
    const t = h.qm.traffic(Q, 1);
    expect(t).toMatchObject({ incoming: [0], outgoing: [0], depth: [0] });
    expect(h.qm.traffic(undefined, 1)).toMatchObject({ incoming: [0], depth: [0] });
  });
});

describe('class counts (dead-letter view grouped by failure)', () => {
  test('counts per class, most frequent first', async () => {
    await h.qm.send(Q, { body: 'a', timeToBeReceived: 1, journal: 1 });
    await h.qm.send(Q, { body: 'b', timeToBeReceived: 1, journal: 1 });
    h.qm.setQueue({ path: OTHER, quotaKB: 0 });
    await h.qm.send(OTHER, { body: 'd', journal: 1, delivery: 'recoverable' });
    h.clock.advance(1_500);
    const counts = h.qm.classCounts('.\\DEADLETTER$');
    expect(counts).toEqual([
      { class: 'NACK_RECEIVE_TIMEOUT', classCode: 0xc002, count: 2 },
      { class: 'NACK_Q_EXCEED_QUOTA', classCode: 0x8003, count: 1 },
    ]);
  });
});
