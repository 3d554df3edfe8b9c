import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { nodeId } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { eventually, flush } from '../support/timing.js';

const ORDERS = '.\\private$\\orders';

async function started() {
  const client = createEngineClient();
  await client.queueCreate({ path: ORDERS });
  await client.queueCreate({ path: '.\\private$\\other' });
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  return { client, store };
}

const ordersIn = (store: Awaited<ReturnType<typeof started>>['store']) =>
  store.getState().queues['local']?.find((q) => q.path === ORDERS);

afterEach(disposeEngineClients);

describe('live updates from the service', () => {
  it('applies queue counts from queueChanged without listing the queues again', async () => {
    const { client, store } = await started();
    client.queueList.mockClear();
    await client.sendBatch({ messages: Array.from({ length: 7 }, () => ({ path: ORDERS, message: { body: 'x' } })) });
    await eventually(() => expect(ordersIn(store)?.messageCount).toBe(7));
    expect(ordersIn(store)?.bytes).toBeGreaterThan(0);
    expect(client.queueList).not.toHaveBeenCalled();
  });

  it('refreshes the open list once for a burst of arrivals, and not for arrivals elsewhere', async () => {
    const { client, store } = await started();
    store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
    await flush();
    client.browse.mockClear();
    for (let i = 0; i < 50; i += 1)
      client.emit({ type: 'messageArrived', path: ORDERS, lookupId: 100 + i, id: `{x}\\${i}`, classCode: 0 });
    client.emit({ type: 'messageArrived', path: '.\\private$\\other', lookupId: 1, id: '{x}\\1', classCode: 0 });
    await new Promise((r) => setTimeout(r, 250));
    expect(client.browse).toHaveBeenCalledTimes(1);
  });

  it('shows messages sent by another program while the list is open', async () => {
    const { client, store } = await started();
    store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
    await flush();
    expect(store.getState().total).toBe(0);
    await client.send({ path: ORDERS, message: { label: 'from a script' } });
    await eventually(() => expect(store.getState().messageAt(0)?.label).toBe('from a script'));
  });

  it('lists a queue created elsewhere, and reads settings again when one changes', async () => {
    const { client, store } = await started();
    client.settingsList.mockClear();
    await client.queueCreate({ path: '.\\private$\\new' });
    await client.settingsSet({ name: 'RemoveDuplicateSize', value: 5 });
    await eventually(() => {
      expect(store.getState().queues['local']?.some((q) => q.path === '.\\private$\\new')).toBe(true);
      expect(client.settingsList).toHaveBeenCalled();
    });
  });

  it('errors reach the notices with their code', async () => {
    const { client, store } = await started();
    await client.queueDelete({ path: ORDERS });
    store.getState().setTarget({ computer: 'local', path: ORDERS });
    await store
      .getState()
      .purgeQueue('local', ORDERS)
      .catch((e: unknown) => store.getState().reportError('Purge', e));
    expect(store.getState().notices.at(-1)).toMatchObject({ where: 'Purge', code: 'QUEUE_NOT_FOUND' });
  });
});
