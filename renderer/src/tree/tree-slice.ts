/** The tree: queues per computer with live counts, what is expanded, what is selected; queue admin actions. */
import type { QueueInfo } from '@qk/model';
import { browsePathOf, nodeId, parseNodeId, type NodeRef } from './tree-model.js';
import { samePath, type SliceCreator } from '../store/shared.js';
import type { TreeSlice } from '../store/types.js';

const EXPANDED_KEY = 'queuekeeper.tree.expanded';

/** The ancestors of a node, outermost first, so revealing it can expand them. */
export function ancestorsOf(ref: NodeRef, queues: readonly QueueInfo[]): string[] {
  const c = ref.computer;
  const base = [nodeId(c, 'computer'), nodeId(c, 'msmq')];
  switch (ref.kind) {
    case 'computer':
      return [];
    case 'msmq':
      return [nodeId(c, 'computer')];
    case 'outgoing':
    case 'public':
    case 'private':
    case 'system':
      return base;
    case 'systemQueue':
      return [...base, nodeId(c, 'system')];
    case 'queue':
    case 'queueMessages':
    case 'journalMessages':
    case 'subqueue': {
      // A subqueue's node hangs under its queue (`orders;poison` under `orders`).
      const queuePath = ref.kind === 'subqueue' ? ((ref.path ?? '').split(';')[0] ?? '') : (ref.path ?? '');
      const queue = queues.find((q) => samePath(q.path, queuePath));
      const folder = queue?.type === 'public' ? 'public' : queue?.type === 'outgoing' ? 'outgoing' : 'private';
      const chain = [...base, nodeId(c, folder)];
      return ref.kind === 'queue' ? chain : [...chain, nodeId(c, 'queue', queuePath)];
    }
    default:
      return base;
  }
}

export const createTreeSlice: SliceCreator<TreeSlice> = (set, get, ctx) => {
  const saved = ctx.storage?.getItem(EXPANDED_KEY);
  let expanded: Record<string, boolean>;
  try {
    expanded = saved ? (JSON.parse(saved) as Record<string, boolean>) : {};
  } catch {
    // A damaged saved tree is only a preference: start with every folder closed.
    expanded = {};
  }
  const persist = (value: Record<string, boolean>) => ctx.storage?.setItem(EXPANDED_KEY, JSON.stringify(value));

  return {
    queues: {},
    expanded,
    selectedNodeId: null,
    resultSelection: null,

    selectResultItem(nodeId) {
      set({ resultSelection: nodeId });
    },

    async refreshQueues(computer) {
      if (!ctx.hasClient(computer)) return;
      try {
        const list = await ctx.clientFor(computer).queueList({});
        set((s) => ({ queues: { ...s.queues, [computer]: list } }));
      } catch (error) {
        get().reportError('List queues', error);
      }
    },

    setExpanded(id, open) {
      const next = { ...get().expanded, [id]: open };
      set({ expanded: next });
      persist(next);
    },

    selectNode(id) {
      if (get().selectedNodeId === id) return;
      const ref = parseNodeId(id);
      const path = browsePathOf(ref);
      set({ selectedNodeId: id, resultSelection: null });
      get().setTarget(path === null ? null : { computer: ref.computer, path });
    },

    revealNode(id) {
      const ref = parseNodeId(id);
      const next = { ...get().expanded };
      for (const ancestor of ancestorsOf(ref, get().queues[ref.computer] ?? [])) next[ancestor] = true;
      set({ expanded: next });
      persist(next);
      get().selectNode(id);
    },

    applyCounts(computer, counts) {
      const list = get().queues[computer];
      if (!list) return;
      const index = list.findIndex((q) => samePath(q.path, counts.path));
      if (index < 0) return;
      const current = list[index] as QueueInfo;
      if (
        current.messageCount === counts.messageCount &&
        current.bytes === counts.bytes &&
        current.journalMessageCount === counts.journalMessageCount &&
        current.journalBytes === counts.journalBytes
      ) {
        return;
      }
      const next = list.slice();
      next[index] = {
        ...current,
        messageCount: counts.messageCount,
        bytes: counts.bytes,
        journalMessageCount: counts.journalMessageCount,
        journalBytes: counts.journalBytes,
      };
      set((s) => ({ queues: { ...s.queues, [computer]: next } }));
    },

    async createQueue(computer, input) {
      const queue = await ctx.clientFor(computer).queueCreate(input);
      await get().refreshQueues(computer);
      // The new queue is selected, as MMC selects it: in the folder's list when the folder is open, else in the tree.
      const folder = nodeId(computer, queue.type === 'public' ? 'public' : 'private');
      const queueNode = nodeId(computer, 'queue', queue.path);
      if (get().selectedNodeId === folder) {
        get().setExpanded(folder, true);
        get().selectResultItem(queueNode);
      } else get().revealNode(queueNode);
      return queue;
    },

    async updateQueue(computer, input) {
      const queue = await ctx.clientFor(computer).queueSet(input);
      set((s) => ({
        queues: {
          ...s.queues,
          [computer]: (s.queues[computer] ?? []).map((q) => (samePath(q.path, queue.path) ? queue : q)),
        },
      }));
      return queue;
    },

    async deleteQueue(computer, path) {
      await ctx.clientFor(computer).queueDelete({ path });
      const selected = get().selectedNodeId;
      if (selected && parseNodeId(selected).path !== null && samePath(parseNodeId(selected).path ?? '', path)) {
        get().selectNode(nodeId(computer, 'private'));
      }
      await get().refreshQueues(computer);
    },

    leaveDeletedQueue(computer, path) {
      const result = get().resultSelection;
      if (result && samePath(parseNodeId(result).path ?? '', path)) set({ resultSelection: null });
      const selected = get().selectedNodeId;
      if (!selected) return;
      const ref = parseNodeId(selected);
      if (ref.computer !== computer || ref.path === null || ref.kind === 'systemQueue') return;
      const queuePath = ref.kind === 'subqueue' ? (ref.path.split(';')[0] ?? '') : ref.path;
      // [computer, msmq, folder, queue]: a gone subqueue leaves to its queue, a gone queue to its folder.
      const chain = ancestorsOf(ref, get().queues[computer] ?? []);
      const to =
        ref.kind === 'subqueue' && samePath(ref.path, path)
          ? chain[chain.length - 1]
          : samePath(queuePath, path)
            ? chain[2]
            : undefined;
      if (to) get().selectNode(to);
    },

    async purgeQueue(computer, path) {
      const { purged } = await ctx.clientFor(computer).queuePurge({ path });
      await get().refreshQueues(computer);
      const target = get().target;
      if (target && target.computer === computer && samePath(target.path, path)) get().invalidateList();
      return purged;
    },
  };
};
