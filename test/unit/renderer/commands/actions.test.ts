import { afterEach, describe, expect, it } from 'vitest';
import { buildActions, findAction } from '../../../../renderer/src/commands/actions.js';
import { confirmPurge } from '../../../../renderer/src/commands/confirmations.js';
import { createAppStore, type AppStore } from '../../../../renderer/src/store/app-store.js';
import { nodeId } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { deadLetterFor } from '../support/scenes.js';
import { eventually, flush } from '../support/timing.js';

const ORDERS = '.\\private$\\orders';
const BULK = '.\\private$\\bulk';

async function started() {
  const client = createEngineClient();
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  return { client, store };
}

afterEach(disposeEngineClients);

describe('the action model', () => {
  it('purge asks first, stating the exact count, and purges only on confirm', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS });
    await client.sendBatch({ messages: Array.from({ length: 1_204 }, () => ({ path: ORDERS, message: {} })) });
    await store.getState().refreshQueues('local');
    store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
    buildActions(store)
      .nodeActions.find((a) => a.id === 'purge')
      ?.run();
    const dialog = store.getState().dialog;
    expect(dialog).toMatchObject({
      kind: 'confirm',
      text: expect.stringContaining('Purge 1,204 messages from orders › Queue messages?'),
      details: expect.arrayContaining([expect.stringContaining('NACK_Q_PURGED (0xC001)')]),
    });
    expect(client.queuePurge).not.toHaveBeenCalled();
    if (dialog?.kind === 'confirm') dialog.onConfirm();
    await flush(10);
    expect(client.queuePurge).toHaveBeenCalledWith({ path: ORDERS });
    expect((await client.queueShow({ path: ORDERS })).messageCount).toBe(0);
  });

  it('R-P6 purging an outgoing queue says its senders hear NACK_PURGED (0x8001), not the queue class', async () => {
    const { client, store } = await started();
    await client.send({ path: 'BETA\\private$\\remote', message: { label: 'away' } });
    await store.getState().refreshQueues('local');
    const outgoing = store.getState().queues['local']?.find((q) => q.type === 'outgoing');
    expect(outgoing?.path).toMatch(/^DIRECT=OS:BETA/i);
    confirmPurge(store, 'local', outgoing?.path ?? '', 1, outgoing?.path ?? '');
    const dialog = store.getState().dialog;
    expect(dialog?.kind === 'confirm' ? dialog.details : []).toEqual([
      'Purged messages cannot be recovered.',
      expect.stringContaining('NACK_PURGED (0x8001)'),
    ]);
    expect(JSON.stringify(dialog)).not.toContain('0xC001');
  });

  it('deleting a queue names the messages of its subqueues, which go with it (R-S1)', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS });
    await client.sendBatch({ messages: ['a', 'b', 'c'].map((label) => ({ path: ORDERS, message: { label } })) });
    const [first, second] = (await client.browse({ path: ORDERS })).messages;
    await client.messageMove({ path: ORDERS, lookupId: first?.lookupId ?? 0, target: `${ORDERS};poison` });
    await client.messageMove({ path: ORDERS, lookupId: second?.lookupId ?? 0, target: `${ORDERS};retry` });
    await store.getState().refreshQueues('local');
    store.getState().revealNode(nodeId('local', 'queue', ORDERS));
    findAction(buildActions(store), 'deleteQueue')?.run();
    expect(store.getState().dialog).toMatchObject({
      kind: 'confirm',
      text: `Delete the queue ${ORDERS} with its 1 message and the 2 messages in its subqueues poison, retry?`,
      details: [
        'Deleted messages cannot be recovered.',
        'Senders that asked for negative acknowledgments get NACK_Q_DELETED (0xC000).',
      ],
    });
  });

  it('lists node actions, then selection actions, as the MMC Actions pane does', async () => {
    const { client, store } = await started();
    await deadLetterFor(client, '.\\private$\\gone');
    store.getState().revealNode(nodeId('local', 'systemQueue', '.\\DEADLETTER$'));
    await flush();
    store.getState().selectIndex(0, 'replace');
    const model = buildActions(store);
    expect(model.nodeTitle).toBe('Dead-letter messages');
    expect(model.nodeActions.map((a) => a.id)).toEqual([
      'purge',
      'resendAll',
      'import',
      'exportAll',
      'walkCursor',
      'queueProperties',
      'refresh',
    ]);
    expect(model.selectionTitle).toBe('dead letter');
    expect(model.selectionActions.map((a) => a.id)).toEqual([
      'messageProperties',
      'editResend',
      'sendCopy',
      'copyId',
      'copyBody',
      'saveBody',
      'deleteMessages',
      'moveMessages',
      'resend',
      'copyMessages',
      'export',
    ]);
  });

  it('MMC selection model: the queue selected in a folder list is what Properties, Purge and Delete act on', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS, journal: true });
    await client.queueCreate({ path: '.\\private$\\other' });
    await store.getState().refreshQueues('local');
    store.getState().revealNode(nodeId('local', 'private'));
    expect(findAction(buildActions(store), 'queueProperties', 'deleteQueue')).toBeUndefined();
    store.getState().selectResultItem(nodeId('local', 'queue', ORDERS));
    const model = buildActions(store);
    expect(model.selectionTitle).toBe('orders');
    expect(model.selectionActions.map((a) => a.id)).toEqual([
      'open',
      'sendTest',
      'purge',
      'purgeJournal',
      'import',
      'queueProperties',
      'deleteQueue',
    ]);
    findAction(model, 'queueProperties')?.run();
    expect(store.getState().dialog).toEqual({ kind: 'queueProperties', computer: 'local', path: ORDERS });
    store.getState().closeDialog();
    // Another tree node clears the result pane's selection.
    store.getState().selectNode(nodeId('local', 'system'));
    expect(buildActions(store).selectionActions).toEqual([]);
  });
});

describe('confirmations of what loses data', () => {
  it('restart asks with the express messages it would lose per queue, Cancel being the default', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS });
    await client.queueCreate({ path: '.\\private$\\safe' });
    await client.sendBatch({ messages: Array.from({ length: 3 }, () => ({ path: ORDERS, message: {} })) });
    await client.send({ path: '.\\private$\\safe', message: { delivery: 'recoverable' } });
    store.getState().revealNode(nodeId('local', 'msmq'));
    findAction(buildActions(store), 'restart')?.run();
    await eventually(() => expect(store.getState().dialog?.kind).toBe('confirm'));
    const dialog = store.getState().dialog;
    expect(dialog).toMatchObject({
      title: 'Restart Message Queuing',
      text: 'Restart Message Queuing on ALPHA? 3 express messages in 1 queue will be lost.',
      destructive: true,
      confirmLabel: 'Restart',
    });
    expect(dialog?.kind === 'confirm' && dialog.details?.[0]).toBe(
      'Express messages are kept in memory only: orders 3.',
    );
    expect(client.serviceRestart).not.toHaveBeenCalled();
  });

  /** Ctrl+A then Del: the confirmation once it is open (it counts the selection first). */
  async function askToDeleteAll(store: AppStore) {
    store.getState().selectAll();
    findAction(buildActions(store), 'deleteMessages')?.run();
    await eventually(() => expect(store.getState().dialog?.kind).toBe('confirm'));
    const dialog = store.getState().dialog;
    if (dialog?.kind !== 'confirm') throw new Error('no confirmation');
    return dialog;
  }

  it('a Ctrl+A delete deletes the messages its confirmation counted, not those that arrived while it was open', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: BULK });
    await client.sendBatch({ messages: Array.from({ length: 5 }, () => ({ path: BULK, message: { label: 'seen' } })) });
    store.getState().revealNode(nodeId('local', 'queueMessages', BULK));
    await eventually(() => expect(store.getState().total).toBe(5));
    const dialog = await askToDeleteAll(store);
    expect(dialog.text).toBe(`Delete 5 messages from ${BULK}?`);
    await client.sendBatch({ messages: ['late-1', 'late-2'].map((label) => ({ path: BULK, message: { label } })) });
    dialog.onConfirm();
    await eventually(() => expect(store.getState().jobs[0]?.state).toBe('done'));
    expect(store.getState().jobs[0]?.summary).toBe('Deleted 5 messages.');
    expect((await client.browse({ path: BULK })).messages.map((m) => m.label)).toEqual(['late-1', 'late-2']);
  });

  it('a Ctrl+A delete over a filter keeps a matching message that arrived while it was open', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: BULK });
    await client.sendBatch({
      messages: ['order 1', 'note', 'order 2'].map((label) => ({ path: BULK, message: { label } })),
    });
    store.getState().revealNode(nodeId('local', 'queueMessages', BULK));
    store.getState().setFilter({ label: 'order' });
    await eventually(() => expect(store.getState().total).toBe(2));
    const dialog = await askToDeleteAll(store);
    expect(dialog.text).toBe(`Delete 2 messages from ${BULK}?`);
    await client.send({ path: BULK, message: { label: 'order 3' } });
    dialog.onConfirm();
    await eventually(() => expect(store.getState().jobs[0]?.state).toBe('done'));
    expect((await client.browse({ path: BULK })).messages.map((m) => m.label)).toEqual(['note', 'order 3']);
  });

  it('deleting a queue names its messages and its journal messages', async () => {
    const { client, store } = await started();
    await client.queueCreate({ path: ORDERS, journal: true });
    await client.sendBatch({ messages: Array.from({ length: 5 }, () => ({ path: ORDERS, message: {} })) });
    await client.receiveBatch({ path: ORDERS, max: 2 });
    await store.getState().refreshQueues('local');
    store.getState().revealNode(nodeId('local', 'queue', ORDERS));
    findAction(buildActions(store), 'deleteQueue')?.run();
    expect(store.getState().dialog).toMatchObject({
      text: `Delete the queue ${ORDERS} with its 3 messages and the 2 messages in its journal?`,
      destructive: true,
    });
  });
});
