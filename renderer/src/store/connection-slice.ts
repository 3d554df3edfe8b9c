/** Computers (this one and connected ones), their status, their event streams, and error notices. */
import type { QkEvent } from '@qk/api';
import { describeError } from '../client/console-client.js';
import { nodeId } from '../tree/tree-model.js';
import { inBackground, LOCAL_COMPUTER, type SliceCreator, type StoreContext, type GetState } from './shared.js';
import type { ConnectionSlice } from './types.js';
import { routeEvent } from './event-router.js';

let noticeSeq = 1;
let remoteSeq = 1;

/** Keeps the event subscriptions per computer so a disconnect can drop them. */
const subscriptions = new WeakMap<StoreContext, Map<string, () => void>>();

function subscribe(ctx: StoreContext, get: GetState, computer: string): void {
  let subs = subscriptions.get(ctx);
  if (!subs) {
    subs = new Map();
    subscriptions.set(ctx, subs);
  }
  subs.get(computer)?.();
  const client = ctx.clientFor(computer);
  const offEvents = client.subscribe((event: QkEvent) => routeEvent(get, computer, event));
  let dropped = false;
  let opened = false;
  const offConnection = client.onConnectionChange?.((connected) => {
    get().markConnected(computer, connected);
    // Events were lost while the stream was down: reload what they would have told us. The first opening
    // counts too: the first load runs beside the socket's opening, and what changed before the socket
    // subscribed (a queue created by a script right after the page opened) was told to nobody.
    if (connected && (dropped || !opened)) inBackground(get, 'Reconnect', get().refreshComputer(computer));
    if (connected) opened = true;
    dropped = !connected;
  });
  subs.set(computer, () => {
    offEvents();
    offConnection?.();
  });
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set, get, ctx) => ({
  computers: [],
  notices: [],

  async start() {
    set({
      computers: [
        { key: LOCAL_COMPUTER, name: 'This computer', id: '', url: null, local: true, connected: false, status: null },
      ],
      expanded: {
        ...get().expanded,
        [nodeId(LOCAL_COMPUTER, 'computer')]: true,
        [nodeId(LOCAL_COMPUTER, 'msmq')]: true,
      },
    });
    subscribe(ctx, get, LOCAL_COMPUTER);
    await loadComputer(get, LOCAL_COMPUTER);
    if (get().selectedNodeId === null) get().selectNode(nodeId(LOCAL_COMPUTER, 'msmq'));
  },

  async connectComputer(url, token) {
    const client = ctx.createRemoteClient(url, token);
    let status;
    try {
      status = await client.serviceStatus({});
    } catch (error) {
      client.close();
      throw error;
    }
    const existing = get().computers.find((c) => c.id === status.id);
    if (existing) {
      client.close();
      throw new Error(`${status.name} is already in the tree.`);
    }
    const key = `remote-${remoteSeq++}`;
    ctx.addClient(key, client);
    set((s) => ({
      computers: [
        ...s.computers,
        { key, name: status.name, id: status.id, url, local: false, connected: true, status },
      ],
      expanded: { ...s.expanded, [nodeId(key, 'computer')]: true, [nodeId(key, 'msmq')]: true },
    }));
    subscribe(ctx, get, key);
    await Promise.all([get().refreshQueues(key), get().refreshSettings(key)]);
  },

  disconnectComputer(key) {
    if (key === LOCAL_COMPUTER) return;
    subscriptions.get(ctx)?.get(key)?.();
    subscriptions.get(ctx)?.delete(key);
    ctx.clientFor(key).close();
    ctx.removeClient(key);
    const { [key]: _gone, ...queues } = get().queues;
    const { [key]: _goneSettings, ...settings } = get().settings;
    const selected = get().selectedNodeId;
    set((s) => ({ computers: s.computers.filter((c) => c.key !== key), queues, settings }));
    if (selected?.startsWith(`${key}|`) || selected === key) get().selectNode(nodeId(LOCAL_COMPUTER, 'msmq'));
  },

  async refreshStatus(key) {
    if (!ctx.hasClient(key)) return;
    try {
      const status = await ctx.clientFor(key).serviceStatus({});
      set((s) => ({
        computers: s.computers.map((c) =>
          c.key === key ? { ...c, status, name: status.name, id: status.id, connected: true } : c,
        ),
      }));
    } catch (error) {
      set((s) => ({ computers: s.computers.map((c) => (c.key === key ? { ...c, connected: false } : c)) }));
      get().reportError(`Connect to ${get().computers.find((c) => c.key === key)?.name ?? key}`, error);
    }
  },

  markConnected(key, connected) {
    if (get().computers.find((c) => c.key === key)?.connected === connected) return;
    set((s) => ({ computers: s.computers.map((c) => (c.key === key ? { ...c, connected } : c)) }));
  },

  async refreshComputer(key) {
    await loadComputer(get, key);
    if (get().target?.computer === key) get().invalidateList();
  },

  async refreshAll() {
    await Promise.all(get().computers.map((c) => loadComputer(get, c.key)));
    get().invalidateList();
  },

  reportError(where, error) {
    const { code, message } = describeError(error);
    const notice = { id: noticeSeq++, code, message, where };
    // Keep the last few; a burst of identical failures should not bury the screen.
    set((s) => ({ notices: [...s.notices.filter((n) => !(n.code === code && n.where === where)), notice].slice(-5) }));
  },

  dismissNotice(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
});

async function loadComputer(get: GetState, key: string): Promise<void> {
  await Promise.all([get().refreshStatus(key), get().refreshQueues(key), get().refreshSettings(key)]);
}
