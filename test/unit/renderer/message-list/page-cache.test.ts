import { describe, expect, it } from 'vitest';
import type { MessageInfo } from '@qk/model';
import { PageCache, type PageFetcher } from '../../../../renderer/src/message-list/page-cache.js';
import { message } from '../support/messages.js';
import { flush } from '../support/timing.js';

/** A service stand-in: `rows` is the queue; answers can be held to see what is in flight. */
function source(count: number) {
  let rows: MessageInfo[] = Array.from({ length: count }, (_, i) => message(i + 1));
  const calls: Array<{ offset: number; limit: number }> = [];
  const held: Array<() => void> = [];
  let hold = false;
  let failWith: Error | null = null;
  const fetcher: PageFetcher = async (offset, limit) => {
    calls.push({ offset, limit });
    if (hold) await new Promise<void>((resolve) => held.push(resolve));
    if (failWith) throw failWith;
    return { total: rows.length, messages: rows.slice(offset, offset + limit) };
  };
  return {
    fetcher,
    calls,
    setRows: (next: MessageInfo[]) => (rows = next),
    rows: () => rows,
    hold: (on: boolean) => (hold = on),
    release: () => held.splice(0).forEach((r) => r()),
    fail: (error: Error | null) => (failWith = error),
  };
}

function cache(options: ConstructorParameters<typeof PageCache>[1] = {}) {
  const loaded: Array<{ page: number; previous: readonly MessageInfo[] | undefined }> = [];
  const failed: unknown[] = [];
  const c = new PageCache(
    { pageLoaded: (page, previous) => loaded.push({ page, previous }), pageFailed: (e) => failed.push(e) },
    { pageSize: 100, ...options },
  );
  return { c, loaded, failed };
}

describe('page cache', () => {
  it('loads the first page and the total when a view starts', async () => {
    const s = source(1_000);
    const { c, loaded } = cache();
    c.reset(s.fetcher);
    expect(c.total).toBeNull();
    await flush();
    expect(c.total).toBe(1_000);
    expect(s.calls).toEqual([{ offset: 0, limit: 100 }]);
    expect(c.rowAt(5)?.lookupId).toBe(6);
    expect(c.rowAt(150)).toBeUndefined();
    expect(loaded).toEqual([{ page: 0, previous: undefined }]);
  });

  it('fetches only pages of the latest window, at most two at a time, during a fast scroll', async () => {
    const s = source(100_000);
    const { c } = cache();
    c.reset(s.fetcher);
    await flush();
    s.hold(true);
    s.calls.length = 0;
    for (let start = 1_000; start < 90_000; start += 1_000) c.ensureRange(start, start + 40);
    expect(s.calls.length).toBe(2);
    expect(c.inFlight).toBe(2);
    s.hold(false);
    s.release();
    await flush(10);
    // The two early pages land; then only the page of the last window is asked for.
    expect(s.calls.map((x) => x.offset)).toEqual([1_000, 2_000, 89_000]);
    expect(c.rowAt(89_010)?.lookupId).toBe(89_011);
  });

  it('keeps the rows on screen while an invalidated page is refetched, then shows the new ones', async () => {
    const s = source(10);
    const { c, loaded } = cache();
    c.reset(s.fetcher);
    await flush();
    const before = c.pages[0];
    s.setRows([...s.rows(), message(11, { label: 'late' })]);
    s.hold(true);
    c.invalidate();
    expect(c.pages[0]).toBe(before);
    s.hold(false);
    s.release();
    await flush();
    expect(c.total).toBe(11);
    expect(c.rowAt(10)?.label).toBe('late');
    expect(loaded.at(-1)).toEqual({ page: 0, previous: before });
  });

  it('drops an answer that was asked before an invalidation and asks again', async () => {
    const s = source(10);
    const { c } = cache();
    c.reset(s.fetcher);
    await flush();
    s.hold(true);
    c.invalidate(); // request A for page 0, on its way
    s.setRows([message(1, { label: 'changed' })]);
    c.invalidate(); // A now answers for before the change
    expect(c.inFlight).toBe(1);
    s.hold(false);
    s.release(); // A answers (after the change, but it was asked before the second invalidation)
    await flush();
    expect(s.calls.length).toBe(3);
    expect(c.rowAt(0)?.label).toBe('changed');
    expect(c.total).toBe(1);
  });

  it('forgets everything of the previous view on reset, including answers still on their way', async () => {
    const a = source(500);
    const b = source(3);
    const { c } = cache();
    a.hold(true);
    c.reset(a.fetcher);
    c.reset(b.fetcher);
    a.release();
    await flush();
    expect(c.total).toBe(3);
    expect(c.rowAt(0)?.lookupId).toBe(1);
    expect(c.rowAt(200)).toBeUndefined();
  });

  it('drops pages past the end when the queue shrinks, and pages far from the window beyond its bound', async () => {
    const s = source(1_000);
    const { c } = cache({ maxCachedPages: 3 });
    c.reset(s.fetcher);
    await flush();
    for (const start of [100, 200, 300, 400]) {
      c.ensureRange(start, start + 10);
      await flush();
    }
    expect(Object.keys(c.pages).map(Number)).toEqual([2, 3, 4]);
    s.setRows(s.rows().slice(0, 250));
    c.ensureRange(200, 210);
    c.invalidate();
    await flush();
    expect(c.total).toBe(250);
    expect(Object.keys(c.pages).map(Number)).toEqual([2]);
  });

  it('reports a failed page once, with the error, and does not retry in a loop', async () => {
    const s = source(10);
    const { c, failed } = cache();
    s.fail(Object.assign(new Error('gone'), { code: 'QUEUE_NOT_FOUND' }));
    c.reset(s.fetcher);
    await flush();
    expect(failed).toHaveLength(1);
    expect((failed[0] as { code: string }).code).toBe('QUEUE_NOT_FOUND');
    expect(s.calls).toHaveLength(1);
  });
});
