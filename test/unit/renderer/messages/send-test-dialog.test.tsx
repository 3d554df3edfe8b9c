// @vitest-environment happy-dom
/**
 * Edit and resend on the real queue manager in process: the original is deleted only once the new message is
 * where it was sent. A local arrival that is refused (quota, transactional type) is no send error in MSMQ —
 * the send returns an ID and the refusal becomes a NACK or a dead letter — so the ID alone proves nothing.
 */
import { Acknowledgment } from '@qk/model';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SendTestDialog } from '../../../../renderer/src/messages/SendTestDialog.js';
import { createAppStore, type AppStore } from '../../../../renderer/src/store/app-store.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { mountInStore, unmountMounted } from '../support/mount.js';
import { eventually, flush } from '../support/timing.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORDERS = '.\\private$\\orders';
const SMALL = '.\\private$\\small';
const ADMIN = '.\\private$\\admin';

afterEach(async () => {
  unmountMounted();
  await disposeEngineClients();
});

/** orders holds one 3,000-character message; small takes 1 KB. */
async function started() {
  const client = createEngineClient();
  await client.queueCreate({ path: ORDERS });
  await client.queueCreate({ path: SMALL, quotaKB: 1 });
  await client.queueCreate({ path: ADMIN });
  await client.send({
    path: ORDERS,
    message: {
      label: 'big',
      body: 'x'.repeat(3_000),
      adminQueue: ADMIN,
      acknowledge: Acknowledgment.NACK_REACH_QUEUE,
    },
  });
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  await store.getState().refreshQueues('local');
  const [original] = (await client.browse({ path: ORDERS })).messages;
  return { client, store, lookupId: original?.lookupId ?? 0 };
}

/** The Edit and resend dialog of orders' message, loaded. */
async function editAndResend(store: AppStore, lookupId: number): Promise<HTMLElement> {
  const container = await mountInStore(
    store,
    <SendTestDialog computer="local" path={ORDERS} from={{ path: ORDERS, lookupId, mode: 'resend' }} />,
  );
  await eventually(() => expect(container.querySelector('.dialog-title')?.textContent).toBe('Edit and resend big'));
  return container;
}

async function openTab(container: HTMLElement, label: string): Promise<void> {
  const tab = [...container.querySelectorAll('[role="tab"]')].find((t) => t.textContent === label);
  await act(async () => {
    (tab as HTMLElement).click();
    await flush(2);
  });
}

async function sendTo(container: HTMLElement, destination: string): Promise<void> {
  const select = container.querySelector('[aria-label="Send to"]') as HTMLSelectElement;
  await act(async () => {
    select.value = destination;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await flush(2);
  });
  const send = [...container.querySelectorAll('.dialog-buttons button')].find((b) => b.textContent === 'Send');
  await act(async () => {
    (send as HTMLButtonElement).click();
    await flush(10);
  });
}

describe('Edit and resend', () => {
  it('keeps the original and says so when the target queue refuses the new message', async () => {
    const { client, store, lookupId } = await started();
    const container = await editAndResend(store, lookupId);
    await sendTo(container, SMALL);
    expect((await client.browse({ path: ORDERS })).messages.map((m) => m.lookupId)).toEqual([lookupId]);
    expect((await client.browse({ path: SMALL })).total).toBe(0);
    const error = container.querySelector('[role="alert"]')?.textContent;
    expect(error).toContain(`${SMALL} refused the new message {`);
    expect(error).toContain('so the original was kept');
    // The refusal was told as MSMQ tells it: the NACK the message asked for.
    expect((await client.browse({ path: ADMIN })).messages.map((m) => m.class)).toEqual(['NACK_Q_EXCEED_QUOTA']);
  });

  it('deletes the original once the new message is in the target queue', async () => {
    const { client, store, lookupId } = await started();
    await client.queueSet({ path: SMALL, quotaKB: null });
    await store.getState().refreshQueues('local');
    const container = await editAndResend(store, lookupId);
    await sendTo(container, SMALL);
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect((await client.browse({ path: ORDERS })).total).toBe(0);
    expect((await client.browse({ path: SMALL })).messages.map((m) => m.label)).toEqual(['big']);
  });

  it('§2.2 offers every acknowledgment level 0–15 and keeps one MSMQ gives no name (0x0F, both positive ones)', async () => {
    const { client, store, lookupId } = await started();
    await client.queueSet({ path: SMALL, quotaKB: null });
    await client.messagesDelete({ path: ORDERS, lookupIds: [lookupId] });
    await client.send({ path: ORDERS, message: { label: 'big', body: 'b', adminQueue: ADMIN, acknowledge: 0x0f } });
    const [both] = (await client.browse({ path: ORDERS })).messages;
    await store.getState().refreshQueues('local');
    const container = await editAndResend(store, both?.lookupId ?? 0);
    await openTab(container, 'Acknowledgment and timers');
    const ack = container.querySelector('[aria-label="Acknowledgment"]') as HTMLSelectElement;
    // Named levels keep their qk send --ack names as values (scripts select them so); the others their numbers.
    expect([...ack.options].map((o) => o.value)).toEqual([
      'none',
      'pos-arrival',
      'pos-receive',
      '3',
      'nack-reach-queue',
      'full-reach-queue',
      '6',
      '7',
      'neg-receive',
      '9',
      '10',
      '11',
      'nack-receive',
      '13',
      'full-receive',
      '15',
    ]);
    expect(ack.value).toBe('15');
    await openTab(container, 'Message');
    await sendTo(container, SMALL);
    expect((await client.browse({ path: SMALL })).messages.map((m) => m.acknowledge)).toEqual([0x0f]);
  });
});
