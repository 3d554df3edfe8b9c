/** Outgoing queues, peers and routes of each computer, read and changed through its service. */
import type { OutgoingQueueInfo } from '@qk/model';
import { samePath, type SliceCreator } from '../store/shared.js';
import type { NetworkSlice } from './network-types.js';

/** Outgoing queues are named by format name; MSMQ names are case-insensitive. */
export function outgoingOf(
  list: readonly OutgoingQueueInfo[] | undefined,
  formatNameOrPath: string,
): OutgoingQueueInfo | undefined {
  const wanted = formatNameOrPath.toUpperCase().startsWith('DIRECT=OS:')
    ? formatNameOrPath
    : `DIRECT=OS:${formatNameOrPath}`;
  return list?.find((o) => samePath(o.formatName, wanted));
}

function replaceOutgoing(list: readonly OutgoingQueueInfo[], next: OutgoingQueueInfo): OutgoingQueueInfo[] {
  const at = list.findIndex((o) => samePath(o.formatName, next.formatName));
  if (at < 0) return [...list, next].sort((a, b) => a.formatName.localeCompare(b.formatName));
  return list.map((o, i) => (i === at ? next : o));
}

export const createNetworkSlice: SliceCreator<NetworkSlice> = (set, get, ctx) => {
  const noteOutgoing = (computer: string, outgoing: OutgoingQueueInfo) =>
    set((s) => ({ outgoing: { ...s.outgoing, [computer]: replaceOutgoing(s.outgoing[computer] ?? [], outgoing) } }));
  return {
    outgoing: {},
    networkDirectory: {},

    async refreshOutgoing(computer) {
      if (!ctx.hasClient(computer)) return;
      const list = await ctx.clientFor(computer).outgoingList({});
      set((s) => ({ outgoing: { ...s.outgoing, [computer]: list } }));
    },

    async refreshNetworkDirectory(computer) {
      if (!ctx.hasClient(computer)) return;
      const client = ctx.clientFor(computer);
      const [peers, routes] = await Promise.all([client.peerList({}), client.routeList({})]);
      set((s) => ({ networkDirectory: { ...s.networkDirectory, [computer]: { peers, routes } } }));
    },

    noteOutgoing,

    notePeer(computer, peer) {
      const current = get().networkDirectory[computer];
      if (!current) return; // not shown yet: read whole when the Network properties open
      const others = current.peers.filter((p) => p.name.toLowerCase() !== peer.name.toLowerCase());
      const peers = [...others, peer].sort((a, b) => a.name.localeCompare(b.name));
      set((s) => ({ networkDirectory: { ...s.networkDirectory, [computer]: { ...current, peers } } }));
    },

    async pauseOutgoing(computer, formatName) {
      noteOutgoing(computer, await ctx.clientFor(computer).outgoingPause({ formatName }));
    },

    async resumeOutgoing(computer, formatName) {
      noteOutgoing(computer, await ctx.clientFor(computer).outgoingResume({ formatName }));
    },

    async setOffline(computer, offline) {
      const client = ctx.clientFor(computer);
      if (offline) await client.serviceDisconnect({});
      else await client.serviceConnect({});
      await Promise.all([get().refreshStatus(computer), get().refreshOutgoing(computer)]);
    },

    async addPeer(computer, peer) {
      await ctx.clientFor(computer).peerAdd(peer);
      await get().refreshNetworkDirectory(computer);
    },

    async removePeer(computer, name) {
      await ctx.clientFor(computer).peerRemove({ name });
      await get().refreshNetworkDirectory(computer);
    },

    async setRoute(computer, destination, via) {
      await ctx.clientFor(computer).routeSet({ destination, via });
      await get().refreshNetworkDirectory(computer);
    },

    async removeRoute(computer, destination) {
      await ctx.clientFor(computer).routeRemove({ destination });
      await get().refreshNetworkDirectory(computer);
    },
  };
};
