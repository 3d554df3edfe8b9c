import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { nodeId } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { flush } from '../support/timing.js';

const ORDERS = '.\\private$\\orders';
const ARCHIVE = '.\\private$\\archive';

async function started() {
  const client = createEngineClient();
  await client.queueCreate({ path: ORDERS });
  await client.queueCreate({ path: ARCHIVE });
  await client.sendBatch({ messages: ['x', 'y', 'z'].map((label) => ({ path: ORDERS, message: { label } })) });
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
  await flush();
  return { client, store };
}

afterEach(disposeEngineClients);

describe('copy and paste, move', () => {
  it('Ctrl+C then Ctrl+V into another queue copies the messages; the originals stay', async () => {
    const { client, store } = await started();
    store.getState().selectAll();
    await store.getState().copyToClipboard();
    expect(store.getState().clipboard).toMatchObject({ path: ORDERS, caption: '3 messages from orders' });
    store.getState().revealNode(nodeId('local', 'queueMessages', ARCHIVE));
    const job = await store.getState().pasteInto('local', ARCHIVE);
    expect(job?.summary).toBe('Copied 3 messages to .\\private$\\archive.');
    const copies = (await client.browse({ path: ARCHIVE })).messages;
    const originals = (await client.browse({ path: ORDERS })).messages;
    expect(copies.map((m) => m.label)).toEqual(['x', 'y', 'z']);
    expect(originals.map((m) => m.label)).toEqual(['x', 'y', 'z']);
    expect(copies.some((c) => originals.some((o) => o.id === c.id))).toBe(false);
  });

  it('a paste the target refuses says how many and why, and leaves nothing there', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: '.\\private$\\xact', transactional: true, quotaKB: 1 });
    await client.send({ path: ORDERS, message: { label: 'big', body: 'b'.repeat(3_000) } });
    store.getState().invalidateList();
    await flush();
    store.getState().selectAll();
    await store.getState().copyToClipboard();
    const job = await store.getState().pasteInto('local', '.\\private$\\xact');
    expect(job?.summary).toBe('Copied 3 messages to .\\private$\\xact; 1 message refused (QUOTA_EXCEEDED 1).');
    expect(job?.failures).toHaveLength(1);
  });

  it('Move sends the selection through the arrival path and clears the selection', async () => {
    const { client, store } = await started();
    store.getState().selectIndex(0, 'replace');
    store.getState().selectIndex(2, 'toggle');
    const job = await store.getState().moveSelected(ARCHIVE);
    expect(job?.summary).toBe('Moved 2 messages to .\\private$\\archive.');
    expect((await client.browse({ path: ARCHIVE })).messages.map((m) => m.label)).toEqual(['x', 'z']);
    expect(store.getState().selectedCount()).toBe(0);
  });
});
