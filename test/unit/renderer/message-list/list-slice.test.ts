import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../../renderer/src/message-list/page-cache.js';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { flush } from '../support/timing.js';

const PATH = '.\\private$\\big';

async function setup(count: number) {
  const client = createEngineClient();
  await client.queueCreate({ path: PATH });
  for (let start = 0; start < count; start += 5_000)
    await client.sendBatch({
      messages: Array.from({ length: Math.min(5_000, count - start) }, (_, i) => ({
        path: PATH,
        message: { label: `m${start + i + 1}`, body: 'hello' },
      })),
    });
  const store = createAppStore(client, { storage: null });
  store.getState().setTarget({ computer: 'local', path: PATH });
  await flush();
  return { client, store };
}

afterEach(disposeEngineClients);

describe('message list in the store', () => {
  it('opens a queue on its first page, in receive order, with the total', async () => {
    const { client, store } = await setup(1_000);
    expect(store.getState().total).toBe(1_000);
    expect(store.getState().pages[0]).toHaveLength(PAGE_SIZE);
    expect(client.browse).toHaveBeenCalledWith({
      path: PATH,
      offset: 0,
      limit: PAGE_SIZE,
      sort: { column: 'queue', descending: false },
    });
    expect(store.getState().messageAt(5)?.label).toBe('m6');
  });

  it('passes the filter to the service and starts over unselected', async () => {
    const { client, store } = await setup(30);
    store.getState().selectIndex(0, 'replace');
    store.getState().setFilter({ label: 'm2' });
    expect(store.getState().selectedCount()).toBe(0);
    await flush();
    expect(client.browse.mock.calls.at(-1)?.[0]).toMatchObject({ filter: { label: 'm2' } });
    // m2, m20…m29 (the service's substring match).
    expect(store.getState().total).toBe(11);
  });

  it('a filter belongs to its queue: the next queue opens unfiltered', async () => {
    const { client, store } = await setup(3);
    await client.queueCreate({ path: '.\\private$\\other' });
    await client.send({ path: '.\\private$\\other', message: { label: 'x' } });
    store.getState().setFilter({ label: 'nothing like this' });
    await flush();
    expect(store.getState().total).toBe(0);
    store.getState().setTarget({ computer: 'local', path: '.\\private$\\other' });
    await flush();
    expect(store.getState().filter.label).toBe('');
    expect(store.getState().total).toBe(1);
  });

  it('Ctrl+A stands for every message, and acting on it lists every lookup ID through the service', async () => {
    const { store } = await setup(2_500);
    const s = () => store.getState();
    s().selectAll();
    expect(s().selectedCount()).toBe(2_500);
    const ids = await s().resolveSelection();
    expect(new Set(ids).size).toBe(2_500);
    expect(ids[0]).toBe(s().messageAt(0)?.lookupId);
  });

  it('selects a row whose page is not loaded yet as soon as it arrives (End in a long list)', async () => {
    const { client, store } = await setup(1_000);
    client.holdBrowse = true;
    store.getState().selectIndex(999, 'replace');
    expect(store.getState().focusIndex).toBe(999);
    expect(store.getState().selectedCount()).toBe(0);
    store.getState().ensureRange(960, 999);
    client.holdBrowse = false;
    client.releaseBrowse();
    await flush();
    expect(store.getState().selectedCount()).toBe(1);
    expect(store.getState().selection[store.getState().messageAt(999)?.lookupId ?? -1]).toBe(true);
  });

  it('a message received by another program leaves the selection when the page refreshes', async () => {
    const { client, store } = await setup(3);
    store.getState().selectIndex(0, 'replace');
    store.getState().selectIndex(1, 'toggle');
    await client.receive({ path: PATH });
    store.getState().invalidateList();
    await flush();
    expect(store.getState().total).toBe(2);
    expect(store.getState().selectedCount()).toBe(1);
  });

  it('a click selects the message its row showed, even when the pages moved on before it was handled', async () => {
    const { client, store } = await setup(2);
    const shown = store.getState().messageAt(1);
    // A message of higher priority arrives and the refreshed page puts it at index 1 before the row re-renders.
    await client.send({ path: PATH, message: { label: 'urgent', priority: 7 } });
    store.getState().invalidateList();
    await flush();
    expect(store.getState().messageAt(1)?.label).not.toBe(shown?.label);
    store.getState().selectIndex(1, 'replace', shown);
    expect(Object.keys(store.getState().selection)).toEqual([String(shown?.lookupId)]);
  });

  it('shows the service error of a failed page with its code', async () => {
    const { store } = await setup(0);
    store.getState().setTarget({ computer: 'local', path: '.\\private$\\missing' });
    await flush();
    expect(store.getState().listError).toMatch(/^QUEUE_NOT_FOUND: /);
  });
});
