import { afterEach, describe, expect, it } from 'vitest';
import { buildActions } from '../../../../renderer/src/commands/actions.js';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { nodeId } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { deadLetterFor } from '../support/scenes.js';
import { flush } from '../support/timing.js';

const ORDERS = '.\\private$\\orders';

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
    });
    expect(client.queuePurge).not.toHaveBeenCalled();
    if (dialog?.kind === 'confirm') dialog.onConfirm();
    await flush(10);
    expect(client.queuePurge).toHaveBeenCalledWith({ path: ORDERS });
    expect((await client.queueShow({ path: ORDERS })).messageCount).toBe(0);
  });

  it('lists node actions, then selection actions, as the MMC Actions pane does', async () => {
    const { client, store } = await started();
    await deadLetterFor(client, '.\\private$\\gone');
    store.getState().revealNode(nodeId('local', 'systemQueue', '.\\DEADLETTER$'));
    await flush();
    store.getState().selectIndex(0, 'replace');
    const model = buildActions(store);
    expect(model.nodeTitle).toBe('Dead-letter messages');
    expect(model.nodeActions.map((a) => a.id)).toEqual(['purge', 'resendAll', 'import', 'refresh']);
    expect(model.selectionTitle).toBe('dead letter');
    expect(model.selectionActions.map((a) => a.id)).toEqual([
      'messageProperties',
      'deleteMessages',
      'moveMessages',
      'resend',
      'export',
    ]);
  });
});
