// @vitest-environment happy-dom
/**
 * The queue property sheet on the real queue manager in process: OK writes only what was changed in the
 * sheet, so a change another administrator made meanwhile (`qk queue set`) is not silently undone.
 */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { QueuePropertiesDialog } from '../../../../renderer/src/queues/QueuePropertiesDialog.js';
import { createAppStore, type AppStore } from '../../../../renderer/src/store/app-store.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { mountInStore, setInput, unmountMounted } from '../support/mount.js';
import { flush } from '../support/timing.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORDERS = '.\\private$\\orders';

afterEach(async () => {
  unmountMounted();
  await disposeEngineClients();
});

async function started() {
  const client = createEngineClient();
  await client.queueCreate({ path: ORDERS, journal: true, quotaKB: 1_000, label: 'orders' });
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  await store.getState().refreshQueues('local');
  return { client, store };
}

function mount(store: AppStore): Promise<HTMLElement> {
  return mountInStore(store, <QueuePropertiesDialog computer="local" path={ORDERS} />);
}

const button = (container: HTMLElement, text: string) =>
  [...container.querySelectorAll('.dialog-buttons button')].find((b) => b.textContent === text) as HTMLButtonElement;

describe('queue properties', () => {
  it('OK writes only the label changed in the sheet, not the journal and quota someone else changed meanwhile', async () => {
    const { client, store } = await started();
    const container = await mount(store);
    // Another administrator, while the sheet is open: qk queue set orders --journal off --quota 5000.
    await client.queueSet({ path: ORDERS, journal: false, quotaKB: 5_000 });
    await act(async () => {
      await store.getState().refreshQueues('local');
      await flush(2);
    });
    expect(store.getState().queues['local']?.find((q) => q.path === ORDERS)?.quotaKB).toBe(5_000);
    const label = container.querySelector('.dialog-body input:not([type])') as HTMLInputElement;
    expect(label.value).toBe('orders');
    await act(async () => {
      setInput(label, 'orders (EU)');
      await flush(2);
    });
    await act(async () => {
      button(container, 'OK').click();
      await flush(10);
    });
    expect(client.queueSet).toHaveBeenLastCalledWith({ path: ORDERS, label: 'orders (EU)' });
    expect(await client.queueShow({ path: ORDERS })).toMatchObject({
      label: 'orders (EU)',
      journal: false,
      quotaKB: 5_000,
    });
  });

  it('OK after Apply writes nothing Apply already wrote', async () => {
    const { client, store } = await started();
    const container = await mount(store);
    const label = container.querySelector('.dialog-body input:not([type])') as HTMLInputElement;
    await act(async () => {
      setInput(label, 'orders (EU)');
      await flush(2);
    });
    await act(async () => {
      button(container, 'Apply').click();
      await flush(10);
    });
    expect(client.queueSet).toHaveBeenCalledTimes(1);
    await client.queueSet({ path: ORDERS, label: 'renamed elsewhere' });
    await act(async () => {
      await store.getState().refreshQueues('local');
      await flush(2);
    });
    await act(async () => {
      button(container, 'OK').click();
      await flush(10);
    });
    expect(client.queueSet).toHaveBeenCalledTimes(2);
    expect((await client.queueShow({ path: ORDERS })).label).toBe('renamed elsewhere');
  });
});
