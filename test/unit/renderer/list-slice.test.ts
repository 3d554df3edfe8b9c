import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/app-store.js';
import { PAGE_SIZE } from '../../../renderer/src/store/list-slice.js';
import { createFakeClient, flush, message, queue } from './fake-client.js';

const PATH = '.\\private$\\big';

function setup(count: number) {
  const client = createFakeClient({
    queues: [queue(PATH, { messageCount: count })],
    messages: { [PATH]: Array.from({ length: count }, (_, i) => message(i + 1)) },
  });
  const store = createAppStore(client, { storage: null });
  return { client, store };
}

describe('message list over the service paging', () => {
  it('loads the first page with the total when a queue is opened', async () => {
    const { client, store } = setup(1_000);
    store.getState().setTarget({ computer: 'local', path: PATH });
    await flush();
    expect(store.getState().total).toBe(1_000);
    expect(store.getState().pages[0]).toHaveLength(PAGE_SIZE);
    expect(client.browse).toHaveBeenCalledWith(
      expect.objectContaining({
        path: PATH,
        offset: 0,
        limit: PAGE_SIZE,
        sort: { column: 'queue', descending: false },
      }),
    );
    expect(store.getState().messageAt(5)?.lookupId).toBe(6);
  });

  it('fetches only the pages of the latest window, at most two at a time, during a fast scroll', async () => {
    const { client, store } = setup(100_000);
    store.getState().setTarget({ computer: 'local', path: PATH });
    await flush();
    client.holdBrowse = true;
    client.browse.mockClear();
    for (let start = 1_000; start < 90_000; start += 1_000) store.getState().ensureRange(start, start + 40);
    expect(client.browse.mock.calls.length).toBeLessThanOrEqual(2);
    client.holdBrowse = false;
    client.releaseBrowse();
    await flush(10);
    const offsets = client.browse.mock.calls.map((c) => (c[0] as { offset: number }).offset);
    expect(offsets).toContain(89_000 - (89_000 % PAGE_SIZE));
    expect(offsets.length).toBeLessThanOrEqual(4);
    expect(store.getState().messageAt(89_010)?.lookupId).toBe(89_011);
  });

  it('refreshes the visible pages in place when invalidated (live arrivals), keeping rows shown meanwhile', async () => {
    const { client, store } = setup(10);
    store.getState().setTarget({ computer: 'local', path: PATH });
    await flush();
    client.messages.set(PATH.toLowerCase(), [
      ...(client.messages.get(PATH.toLowerCase()) ?? []),
      message(11, { label: 'late' }),
    ]);
    client.holdBrowse = true;
    store.getState().invalidateList();
    expect(store.getState().pages[0]).toHaveLength(10);
    client.holdBrowse = false;
    client.releaseBrowse();
    await flush();
    expect(store.getState().total).toBe(11);
    expect(store.getState().messageAt(10)?.label).toBe('late');
  });

  it('passes the filter to the service and starts over', async () => {
    const { client, store } = setup(30);
    store.getState().setTarget({ computer: 'local', path: PATH });
    await flush();
    store.getState().setFilter({ label: 'm2', arrivedFrom: '2026-01-01T00:00' });
    await flush();
    const input = client.browse.mock.calls.at(-1)?.[0] as { filter: { label: string; arrivedFrom: string } };
    expect(input.filter.label).toBe('m2');
    expect(new Date(input.filter.arrivedFrom).getTime()).toBe(new Date('2026-01-01T00:00').getTime());
    expect(store.getState().total).toBe(11);
  });

  it('selects with click, Ctrl and Shift semantics, and Ctrl+A resolves every lookup ID through the service', async () => {
    const { store } = setup(2_500);
    store.getState().setTarget({ computer: 'local', path: PATH });
    await flush();
    const s = () => store.getState();
    s().selectIndex(2, 'replace');
    s().selectIndex(5, 'toggle');
    expect(Object.keys(s().selection).map(Number)).toEqual([3, 6]);
    s().selectIndex(8, 'range');
    expect(s().selectedCount()).toBe(4);
    s().selectAll();
    expect(s().selectedCount()).toBe(2_500);
    const ids = await s().resolveSelection();
    expect(ids).toHaveLength(2_500);
    expect(ids[2_499]).toBe(2_500);
  });

  it('shows the service error of a failed page with its code', async () => {
    const { store } = setup(5);
    store.getState().setTarget({ computer: 'local', path: '.\\private$\\missing' });
    await flush();
    expect(store.getState().listError).toMatch(/^QUEUE_NOT_FOUND: /);
  });
});

describe('keyboard selection ahead of the data', () => {
  it('selects a row whose page was not loaded yet as soon as it arrives (End in a long list)', async () => {
    const { client, store } = setup(5_000);
    store.getState().setTarget({ computer: 'local', path: PATH });
    await flush();
    client.holdBrowse = true;
    store.getState().selectIndex(4_999, 'replace');
    expect(store.getState().focusIndex).toBe(4_999);
    expect(store.getState().selectedCount()).toBe(0);
    store.getState().ensureRange(4_960, 4_999);
    client.holdBrowse = false;
    client.releaseBrowse();
    await flush();
    expect(Object.keys(store.getState().selection)).toEqual(['5000']);
  });
});
