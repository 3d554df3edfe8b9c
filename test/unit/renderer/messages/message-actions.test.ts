import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { nodeId } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { deadLetterFor } from '../support/scenes.js';
import { eventually, flush } from '../support/timing.js';

const ORDERS = '.\\private$\\orders';
const DEADLETTER = '.\\DEADLETTER$';

async function started() {
  const client = createEngineClient();
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  return { client, store };
}

afterEach(disposeEngineClients);

describe('bulk message actions', () => {
  it('resends dead letters grouped by destination and lists those that fail again', async () => {
    const { client, store } = await started();
    await deadLetterFor(client, ORDERS, { label: 'a' });
    await deadLetterFor(client, '.\\private$\\gone', { label: 'b' });
    await deadLetterFor(client, ORDERS, { label: 'c' });
    await client.queueCreate({ path: ORDERS });
    store.getState().revealNode(nodeId('local', 'systemQueue', DEADLETTER));
    await flush();
    const job = await store.getState().resendDeadLetters();
    expect(job).toMatchObject({ state: 'done', done: 3, total: 3 });
    expect(job?.summary).toBe(
      'Resent 2 of 3 messages. .\\private$\\orders: 2 sent. .\\private$\\gone: 1 failed (QUEUE_NOT_FOUND 1).',
    );
    expect(job?.failures).toEqual([
      { item: expect.stringContaining('.\\private$\\gone'), code: 'QUEUE_NOT_FOUND', message: expect.any(String) },
    ]);
    const resent = await client.browse({ path: ORDERS });
    expect(resent.messages.map((m) => m.label).sort()).toEqual(['a', 'c']);
    // Out of a system queue the message is the original again: class NORMAL (the engine's rule).
    expect(resent.messages.every((m) => m.classCode === 0)).toBe(true);
    expect((await client.browse({ path: DEADLETTER })).messages.map((m) => m.label)).toEqual(['b']);
  });

  it('deletes the selection in chunks, and a cancelled job keeps the rest', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS });
    await client.sendBatch({ messages: Array.from({ length: 1_200 }, () => ({ path: ORDERS, message: {} })) });
    store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
    await flush();
    store.getState().selectAll();
    const real = client.messagesDelete.getMockImplementation();
    client.messagesDelete.mockImplementation(async (input) => {
      const result = await real!(input);
      // Cancel after the first chunk: that chunk finished on the service, nothing after it starts.
      store.getState().cancelJob(store.getState().jobs[0]?.id ?? 0);
      return result;
    });
    const job = await store.getState().deleteSelected(await store.getState().resolveSelection());
    expect(client.messagesDelete).toHaveBeenCalledTimes(1);
    expect(job).toMatchObject({ state: 'cancelled', summary: 'Deleted 500 messages before Cancel.' });
    expect((await client.queueShow({ path: ORDERS })).messageCount).toBe(700);
  });
});

describe('message properties', () => {
  it('a dead letter with a NACK class is an original: its acknowledgments are looked up, not its "original"', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: '.\\private$\\admin' });
    const id = await deadLetterFor(client, ORDERS, { adminQueue: '.\\private$\\admin' });
    const [dead] = (await client.browse({ path: DEADLETTER })).messages;
    const [nack] = (await client.browse({ path: '.\\private$\\admin' })).messages;
    expect(dead?.classCode).toBe(nack?.classCode);
    await store.getState().openMessageProperties('local', DEADLETTER, dead?.lookupId ?? 0);
    expect(client.acknowledgmentsFor).toHaveBeenCalledWith({ id });
    expect(store.getState().details?.acknowledgments?.map((l) => l.path)).toEqual(['.\\private$\\admin']);
    await store.getState().openMessageProperties('local', '.\\private$\\admin', nack?.lookupId ?? 0);
    expect(client.messageFind).toHaveBeenCalledWith({ id });
    expect(store.getState().details?.originals?.map((l) => l.path)).toEqual([DEADLETTER]);
  });
});

describe('an open properties sheet follows its message', () => {
  it('is flagged when another program receives the message', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS });
    await client.send({ path: ORDERS, message: { label: 'watch me' } });
    const [m] = (await client.browse({ path: ORDERS })).messages;
    await store.getState().openMessageProperties('local', ORDERS, m?.lookupId ?? 0);
    expect(store.getState().details?.gone).toBeNull();
    await client.receive({ path: ORDERS });
    await eventually(() => expect(store.getState().details?.gone).toBe('It was received by an application.'));
    expect(store.getState().details?.message?.label).toBe('watch me');
  });

  it('edit and resend: the new message is sent, then the original deleted', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS });
    await client.send({ path: ORDERS, message: { label: 'typo', body: 'qty: 1O' } });
    const [m] = (await client.browse({ path: ORDERS })).messages;
    const original = await store.getState().fetchMessage('local', ORDERS, m?.lookupId ?? 0);
    await store
      .getState()
      .sendTestMessage('local', ORDERS, { label: 'fixed', body: original.body?.replace('1O', '10') }, false);
    await store.getState().deleteMessages('local', ORDERS, [original.lookupId]);
    const after = await client.browse({ path: ORDERS, includeBody: true });
    expect(after.messages.map((x) => [x.label, x.body])).toEqual([['fixed', 'qty: 10']]);
  });
});
