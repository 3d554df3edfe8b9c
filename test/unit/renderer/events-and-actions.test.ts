import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildActions } from '../../../renderer/src/commands/actions.js';
import { createAppStore } from '../../../renderer/src/store/app-store.js';
import { nodeId } from '../../../renderer/src/tree/tree-model.js';
import { createFakeClient, flush, message, queue } from './fake-client.js';

const ORDERS = '.\\private$\\orders';

async function started(init: Parameters<typeof createFakeClient>[0] = {}) {
  const client = createFakeClient(init);
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  return { client, store };
}

afterEach(() => vi.useRealTimers());

describe('live updates from events', () => {
  it('applies queue counts from queueChanged without asking the service', async () => {
    const { client, store } = await started({ queues: [queue(ORDERS)] });
    client.queueList.mockClear();
    client.emit({
      type: 'queueChanged',
      path: ORDERS.toUpperCase(),
      messageCount: 7,
      bytes: 70,
      journalMessageCount: 1,
      journalBytes: 3,
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(store.getState().queues['local']?.find((q) => q.path === ORDERS)).toMatchObject({
      messageCount: 7,
      journalMessageCount: 1,
    });
    expect(client.queueList).not.toHaveBeenCalled();
  });

  it('refreshes the open list once for a burst of arrivals, and not for other queues', async () => {
    const { client, store } = await started({
      queues: [queue(ORDERS), queue('.\\private$\\other')],
      messages: { [ORDERS]: [message(1)] },
    });
    store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
    await flush();
    client.browse.mockClear();
    for (let i = 0; i < 50; i += 1)
      client.emit({ type: 'messageArrived', path: ORDERS, lookupId: 100 + i, id: `{x}\\${i}`, classCode: 0 });
    client.emit({ type: 'messageArrived', path: '.\\private$\\other', lookupId: 1, id: '{x}\\1', classCode: 0 });
    await new Promise((r) => setTimeout(r, 250));
    expect(client.browse).toHaveBeenCalledTimes(1);
  });

  it('reloads queues when one is created elsewhere, and settings when one changes', async () => {
    const { client, store } = await started();
    client.queues.set('.\\private$\\new', queue('.\\private$\\new'));
    client.emit({ type: 'queueCreated', path: '.\\private$\\new' });
    client.emit({ type: 'settingChanged', name: 'RemoveDuplicateSize', value: 10000, pending: 5 });
    await new Promise((r) => setTimeout(r, 200));
    expect(store.getState().queues['local']?.some((q) => q.path === '.\\private$\\new')).toBe(true);
    expect(client.settingsList).toHaveBeenCalledTimes(2);
  });
});

describe('actions', () => {
  it('purge asks first, stating the exact count, and purges only on confirm', async () => {
    const { client, store } = await started({ queues: [queue(ORDERS, { messageCount: 1_204 })] });
    store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
    buildActions(store)
      .nodeActions.find((a) => a.id === 'purge')
      ?.run();
    const dialog = store.getState().dialog;
    expect(dialog).toMatchObject({
      kind: 'confirm',
      text: expect.stringContaining('Purge 1,204 messages from orders › Queue messages?'),
    });
    expect(client.queuePurge).not.toHaveBeenCalled();
    if (dialog?.kind === 'confirm') dialog.onConfirm();
    await flush();
    expect(client.queuePurge).toHaveBeenCalledWith({ path: ORDERS });
  });

  it('lists node actions then selection actions, as the MMC Actions pane does', async () => {
    const { store } = await started({
      queues: [queue('.\\DEADLETTER$', { messageCount: 2 })],
      messages: { '.\\DEADLETTER$': [message(1, { classCode: 0x8003 }), message(2)] },
    });
    store.getState().revealNode(nodeId('local', 'systemQueue', '.\\DEADLETTER$'));
    await flush();
    store.getState().selectIndex(0, 'replace');
    const model = buildActions(store);
    expect(model.nodeTitle).toBe('Dead-letter messages');
    expect(model.nodeActions.map((a) => a.id)).toEqual(['purge', 'resendAll', 'import', 'refresh']);
    expect(model.selectionActions.map((a) => a.id)).toEqual([
      'messageProperties',
      'deleteMessages',
      'moveMessages',
      'resend',
      'export',
    ]);
  });

  it('resends dead letters grouped by destination and reports a destination that fails', async () => {
    const dl = [
      message(1, { destinationQueue: ORDERS }),
      message(2, { destinationQueue: '.\\private$\\gone' }),
      message(3, { destinationQueue: ORDERS }),
    ];
    const { client, store } = await started({ queues: [queue(ORDERS)], messages: { '.\\DEADLETTER$': dl } });
    store.getState().revealNode(nodeId('local', 'systemQueue', '.\\DEADLETTER$'));
    await flush();
    const job = await store.getState().resendDeadLetters();
    expect(client.messagesMove).toHaveBeenCalledWith({ path: '.\\DEADLETTER$', lookupIds: [1, 3], target: ORDERS });
    expect(job).toMatchObject({
      state: 'done',
      done: 3,
      total: 3,
      summary: 'Resent 2 messages to 2 destinations; 1 message failed again.',
    });
    expect(job?.failures).toEqual([
      { item: 'Lookup ID 2 → .\\private$\\gone', code: 'QUEUE_NOT_FOUND', message: expect.any(String) },
    ]);
  });

  it('deletes the selection in chunks and a cancelled job keeps the rest', async () => {
    const many = Array.from({ length: 1_200 }, (_, i) => message(i + 1));
    const { client, store } = await started({ queues: [queue(ORDERS)], messages: { [ORDERS]: many } });
    store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
    await flush();
    store.getState().selectAll();
    const original = client.messagesDelete.getMockImplementation();
    client.messagesDelete.mockImplementation(async (input) => {
      const result = await original?.(input);
      // Cancel after the first chunk: the service's chunk finished, nothing after it starts.
      store.getState().cancelJob(store.getState().jobs[0]?.id ?? 0);
      return result as { deleted: number };
    });
    const job = await store.getState().deleteSelected();
    expect(client.messagesDelete).toHaveBeenCalledTimes(1);
    expect(job).toMatchObject({ state: 'cancelled', summary: 'Deleted 500 messages before Cancel.' });
    expect(client.messages.get(ORDERS.toLowerCase())).toHaveLength(700);
  });

  it('a dead letter with a NACK class is an original: its acknowledgments are looked up, not its "original"', async () => {
    const original = message(5, { classCode: 0xc002, class: 'NACK_RECEIVE_TIMEOUT', id: '{g}\\5' });
    const nack = message(6, { classCode: 0xc002, correlationId: '{g}\\5' });
    const { client, store } = await started({
      queues: [queue('.\\private$\\admin')],
      messages: { '.\\DEADLETTER$': [original], '.\\private$\\admin': [nack] },
    });
    await store.getState().openMessageProperties('local', '.\\DEADLETTER$', 5);
    expect(client.acknowledgmentsFor).toHaveBeenCalledWith({ id: '{g}\\5' });
    expect(store.getState().details?.acknowledgments).toEqual([{ path: '.\\private$\\admin', message: nack }]);
    await store.getState().openMessageProperties('local', '.\\private$\\admin', 6);
    expect(client.messageFind).toHaveBeenCalledWith({ id: '{g}\\5' });
    expect(store.getState().details?.originals?.[0]?.path).toBe('.\\DEADLETTER$');
  });

  it('a setting waiting for restart is applied by Restart Message Queuing', async () => {
    const { store } = await started();
    await store.getState().changeSetting('local', 'RemoveDuplicateSize', 500);
    expect(store.getState().settings['local']?.find((s) => s.name === 'RemoveDuplicateSize')).toMatchObject({
      value: 10000,
      pending: 500,
    });
    await store.getState().restartService('local');
    expect(store.getState().settings['local']?.find((s) => s.name === 'RemoveDuplicateSize')).toMatchObject({
      value: 500,
      pending: null,
    });
  });

  it('errors reach the notices with their code', async () => {
    const { client, store } = await started();
    client.queueList.mockRejectedValueOnce(
      Object.assign(new Error('The queue manager is restarting.'), { code: 'SERVICE_NOT_AVAILABLE', name: 'ApiError' }),
    );
    await store.getState().refreshQueues('local');
    expect(store.getState().notices.at(-1)).toMatchObject({
      where: 'List queues',
      message: 'The queue manager is restarting.',
    });
  });
});
