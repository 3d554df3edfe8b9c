// @vitest-environment happy-dom
/**
 * The console's network parts (docs/network.md) on the real queue manager in process: the Outgoing Queues
 * folder with state, next hop and counts; Pause and Resume in the Actions pane; offline mode; the Network tab
 * of Message Queuing Properties with peers (fingerprints) and routes.
 */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildActions } from '../../../../renderer/src/commands/actions.js';
import { NetworkTab } from '../../../../renderer/src/network/NetworkTab.js';
import { OutgoingQueueList } from '../../../../renderer/src/network/OutgoingQueueList.js';
import { createAppStore, type AppStore } from '../../../../renderer/src/store/app-store.js';
import { nodeId, visibleTreeRows } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { mountInStore, setInput, unmountMounted } from '../support/mount.js';
import { flush } from '../support/timing.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const REMOTE = 'BETA\\private$\\orders';
const FORMAT = 'DIRECT=OS:BETA\\private$\\orders';
const FINGERPRINT = `sha256:${'ab'.repeat(32)}`;

afterEach(async () => {
  unmountMounted();
  await disposeEngineClients();
});

async function started() {
  const client = createEngineClient();
  await client.startNetwork();
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  return { client, store };
}

async function mount(store: AppStore, element: React.ReactNode): Promise<HTMLElement> {
  const container = await mountInStore(store, element);
  await act(() => flush(5));
  return container;
}

const ids = (store: AppStore) => buildActions(store).nodeActions.map((a) => a.id);

describe('the console: outgoing queues', () => {
  it('the Outgoing Queues folder lists each destination by format name with state, next hop and counts', async () => {
    const { client, store } = await started();
    await client.send({ path: REMOTE, message: { body: 'one' } });
    await client.send({ path: REMOTE, message: { body: 'two' } });
    await store.getState().refreshQueues('local');
    const container = await mount(store, <OutgoingQueueList computer="local" caption="Outgoing Queues" />);
    const row = container.querySelector(`[data-format-name="${CSS.escape(FORMAT)}"]`);
    expect(row).not.toBeNull();
    const cells = [...(row?.querySelectorAll('[role="gridcell"]') ?? [])].map((c) => c.textContent);
    // No peer BETA and no route: the queue waits with no next hop, and its last error says why.
    expect(cells.slice(0, 4)).toEqual([FORMAT, 'Waiting to connect', '', '2']);
    expect(row?.querySelector('[data-column="lastError"]')?.textContent).toMatch(/BETA/);
    // A route through RELAY makes RELAY its next hop.
    await client.routeSet({ destination: 'BETA', via: 'RELAY' });
    await act(() => store.getState().refreshOutgoing('local'));
    expect(row?.querySelector('[data-column="nextHop"]')?.textContent).toBe('RELAY');

    // The tree shows it under Outgoing Queues by format name, with its Queue messages (no journal).
    const rows = visibleTreeRows(store.getState().computers, store.getState().queues, {
      [nodeId('local', 'computer')]: true,
      [nodeId('local', 'msmq')]: true,
      [nodeId('local', 'outgoing')]: true,
      [nodeId('local', 'queue', FORMAT)]: true,
    });
    const node = rows.find((r) => r.id === nodeId('local', 'queue', FORMAT));
    expect(node).toMatchObject({ label: FORMAT, count: 2, parentId: nodeId('local', 'outgoing') });
    expect(rows.filter((r) => r.parentId === node?.id).map((r) => r.label)).toEqual(['Queue messages']);
  });

  it('Pause and Resume in the Actions pane hold and release the outgoing queue; messages stay', async () => {
    const { client, store } = await started();
    await client.send({ path: REMOTE, message: { body: 'held' } });
    await store.getState().refreshQueues('local');
    await store.getState().refreshOutgoing('local');
    store.getState().selectNode(nodeId('local', 'queue', FORMAT));
    expect(ids(store)).toEqual(['pauseOutgoing', 'purge', 'queueProperties', 'refresh']);

    buildActions(store)
      .nodeActions.find((a) => a.id === 'pauseOutgoing')
      ?.run();
    await flush(10);
    expect(client.outgoingPause).toHaveBeenCalledWith({ formatName: FORMAT });
    expect((await client.outgoingList({}))[0]).toMatchObject({ state: 'onHold', messageCount: 1 });
    expect(ids(store)[0]).toBe('resumeOutgoing');

    // The same actions apply to the queue selected in the Outgoing Queues list.
    store.getState().selectNode(nodeId('local', 'outgoing'));
    store.getState().selectResultItem(nodeId('local', 'queue', FORMAT));
    const selection = buildActions(store).selectionActions;
    expect(selection.map((a) => a.id)).toContain('resumeOutgoing');
    selection.find((a) => a.id === 'resumeOutgoing')?.run();
    await flush(10);
    expect((await client.outgoingList({}))[0]?.state).not.toBe('onHold');
    expect(store.getState().outgoing['local']?.[0]?.state).not.toBe('onHold');
  });

  it('an outgoingQueueChanged event updates the list in place', async () => {
    const { client, store } = await started();
    await client.send({ path: REMOTE, message: {} });
    await store.getState().refreshOutgoing('local');
    const [before] = store.getState().outgoing['local'] ?? [];
    if (!before) throw new Error('no outgoing queue');
    client.emit({ type: 'outgoingQueueChanged', outgoing: { ...before, state: 'connected', unconfirmedCount: 3 } });
    expect(store.getState().outgoing['local']?.[0]).toMatchObject({ state: 'connected', unconfirmedCount: 3 });
  });

  it('Take offline and Bring online on Message Queuing (offline mode)', async () => {
    const { client, store } = await started();
    store.getState().selectNode(nodeId('local', 'msmq'));
    expect(ids(store)).toContain('takeOffline');
    buildActions(store)
      .nodeActions.find((a) => a.id === 'takeOffline')
      ?.run();
    await flush(10);
    expect(client.serviceDisconnect).toHaveBeenCalled();
    expect((await client.serviceStatus({})).offline).toBe(true);
    expect(ids(store)).toContain('bringOnline');
    buildActions(store)
      .nodeActions.find((a) => a.id === 'bringOnline')
      ?.run();
    await flush(10);
    expect((await client.serviceStatus({})).offline).toBe(false);
  });
});

describe('the console: Network properties', () => {
  it('shows the peers with fingerprints and the routes; adds and removes them through the service', async () => {
    const { client, store } = await started();
    await client.peerAdd({ name: 'BETA', address: '127.0.0.1:7001', fingerprint: FINGERPRINT });
    await client.routeSet({ destination: 'GAMMA', via: 'BETA' });
    const container = await mount(store, <NetworkTab computer="local" />);
    const peerRow = container.querySelector('[data-peer="BETA"]');
    expect(peerRow?.textContent).toContain('127.0.0.1:7001');
    expect(peerRow?.textContent).toContain(FINGERPRINT);
    expect(peerRow?.textContent).toContain('Idle');
    expect(container.querySelector('[data-route="GAMMA"]')?.textContent).toContain('BETA');

    await act(async () => {
      (container.querySelector('[aria-label="Remove the route of GAMMA"]') as HTMLButtonElement).click();
      await flush(10);
    });
    expect(await client.routeList({})).toEqual([]);
    expect(container.querySelector('[data-route="GAMMA"]')).toBeNull();

    await act(async () => {
      await store
        .getState()
        .addPeer('local', { name: 'RELAY', address: '127.0.0.1:7002', fingerprint: `sha256:${'cd'.repeat(32)}` });
      await flush(5);
    });
    expect(container.querySelector('[data-peer="RELAY"]')).not.toBeNull();
    await act(async () => {
      (container.querySelector('[aria-label="Stop trusting BETA"]') as HTMLButtonElement).click();
      await flush(10);
    });
    expect((await client.peerList({})).map((p) => p.name)).toEqual(['RELAY']);
  });

  it('a refused change shows its error in the tab and changes nothing', async () => {
    const { client, store } = await started();
    const container = await mount(store, <NetworkTab computer="local" />);
    await act(async () => {
      await store
        .getState()
        .setRoute('local', 'GAMMA', 'GAMMA')
        .catch(() => undefined);
    });
    expect(await client.routeList({})).toEqual([]);
    // Through the form: a route through this computer itself is refused by the service.
    const status = await client.serviceStatus({});
    const input = (label: string) => container.querySelector(`[aria-label="${label}"]`) as HTMLInputElement;
    await act(async () => {
      setInput(input('Route destination'), 'GAMMA');
      setInput(input('Routing server'), status.name);
      await flush(2);
    });
    await act(async () => {
      (container.querySelector('form[aria-label="Set a route"]') as HTMLFormElement).requestSubmit();
      await flush(10);
    });
    expect(container.querySelector('[role="alert"]')?.textContent).toBeTruthy();
    expect(await client.routeList({})).toEqual([]);
  });
});
