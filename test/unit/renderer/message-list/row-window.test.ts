import { describe, expect, it } from 'vitest';
import { computeWindow, MAX_CONTENT_PX, scrollTopFor } from '../../../../renderer/src/message-list/use-row-window.js';

describe('row window', () => {
  it('renders only the rows in view plus overscan', () => {
    const w = computeWindow(1_000, 20, 400, 2_000, 5);
    expect(w.first).toBe(95);
    expect(w.last).toBe(125);
    expect(w.scale).toBe(1);
    expect(w.rows[5]).toEqual({ index: 100, top: 2_000 });
  });

  it('compresses a million rows (20 M px) below the browser limit and still reaches the last row exactly', () => {
    const count = 1_000_000;
    const viewport = 600;
    const w0 = computeWindow(count, 20, viewport, 0, 0);
    expect(w0.contentHeight).toBe(MAX_CONTENT_PX);
    expect(w0.scale).toBeGreaterThan(1);
    const end = computeWindow(count, 20, viewport, MAX_CONTENT_PX - viewport, 0);
    const last = end.rows[end.rows.length - 1];
    expect(last?.index).toBe(count - 1);
    // Real position = the block's top + the row's offset in the block.
    expect(end.blockTop + (last?.top ?? 0) + 20).toBeCloseTo(MAX_CONTENT_PX, 5);
    // A row keeps its offset in the block while the window moves (so it need not re-render).
    const a = computeWindow(count, 20, viewport, 1_000_000, 0);
    const b = computeWindow(count, 20, viewport, 1_000_040, 0);
    const shared = b.rows.find((r) => r.index === a.rows[3]?.index);
    expect(shared?.top).toBe(a.rows[3]?.top);
    const middle = computeWindow(count, 20, viewport, (MAX_CONTENT_PX - viewport) / 2, 0);
    expect(Math.abs(middle.first - (count - viewport / 20) / 2)).toBeLessThan(2);
  });

  it('scrolls the least to show a row, in compressed coordinates too', () => {
    expect(scrollTopFor(50, 'auto', 1_000, 20, 400, 0)).toBe(50 * 20 + 20 - 400);
    expect(scrollTopFor(5, 'auto', 1_000, 20, 400, 0)).toBe(0);
    const count = 1_000_000;
    const top = scrollTopFor(count - 1, 'auto', count, 20, 600, 0);
    expect(top).toBeCloseTo(MAX_CONTENT_PX - 600, 3);
    const w = computeWindow(count, 20, 600, top, 0);
    expect(w.last).toBe(count - 1);
  });
});
