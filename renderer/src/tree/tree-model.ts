/**
 * The Computer Management tree as data: node identities, which queue goes under which folder, and the
 * flattened list of visible rows that both the tree view and its keyboard navigation walk.
 */
import type { QueueInfo } from '@qk/model';
import { queueWarnings } from '../format/quota-state.js';

/** What a tree node stands for. */
export type NodeKind =
  | 'computer'
  | 'msmq'
  | 'outgoing'
  | 'public'
  | 'private'
  | 'system'
  | 'systemQueue'
  | 'queue'
  | 'queueMessages'
  | 'journalMessages'
  | 'subqueue';

/** MSMQ's three system queues. */
export type SystemKind = 'JOURNAL' | 'DEADLETTER' | 'DEADXACT';

/** A parsed node id: `computer|kind|path`. */
export interface NodeRef {
  id: string;
  computer: string;
  kind: NodeKind;
  /** Queue path for queue-level nodes and system queues. */
  path: string | null;
}

/** Builds a node id; paths may contain `|`, so only the first two separators count when parsing. */
export function nodeId(computer: string, kind: NodeKind, path: string | null = null): string {
  return path === null ? `${computer}|${kind}` : `${computer}|${kind}|${path}`;
}

/** Parses a node id built by nodeId. */
export function parseNodeId(id: string): NodeRef {
  const first = id.indexOf('|');
  const second = first < 0 ? -1 : id.indexOf('|', first + 1);
  const computer = first < 0 ? id : id.slice(0, first);
  const kind = (first < 0 ? 'computer' : second < 0 ? id.slice(first + 1) : id.slice(first + 1, second)) as NodeKind;
  const path = second < 0 ? null : id.slice(second + 1);
  return { id, computer, kind, path };
}

/** The console captions of the system queues (MSMQ's snap-in wording). */
export const systemQueueCaptions: Record<SystemKind, string> = {
  JOURNAL: 'Journal messages',
  DEADLETTER: 'Dead-letter messages',
  DEADXACT: 'Transactional dead-letter messages',
};

/** Default paths of the system queues, used when a service does not list one. */
export const systemQueuePaths: Record<SystemKind, string> = {
  JOURNAL: '.\\JOURNAL$',
  DEADLETTER: '.\\DEADLETTER$',
  DEADXACT: '.\\XACTDEADLETTER$',
};

/** Where a queue of `queueList` belongs in the tree. */
export type QueueGroup =
  | { group: 'private' | 'public' | 'outgoing' }
  | { group: 'system'; kind: SystemKind }
  | { group: 'subqueue'; parent: string }
  | { group: 'hidden' };

/** Sorts a listed queue into its folder; queue journals are shown under their queue, not listed. */
export function classifyQueue(queue: QueueInfo): QueueGroup {
  const segments = queue.path.split('\\');
  const last = (segments[segments.length - 1] ?? '').toUpperCase();
  const format = queue.formatName.toUpperCase();
  if (last === 'XACTDEADLETTER$' || format.endsWith(';DEADXACT')) return { group: 'system', kind: 'DEADXACT' };
  if (last === 'DEADLETTER$' || format.endsWith(';DEADLETTER')) return { group: 'system', kind: 'DEADLETTER' };
  if (last === 'JOURNAL$' && segments.length === 2) return { group: 'system', kind: 'JOURNAL' };
  if (format.startsWith('MACHINE=') && format.endsWith(';JOURNAL')) return { group: 'system', kind: 'JOURNAL' };
  if (queue.type === 'journal' || last === 'JOURNAL$') return { group: 'hidden' };
  // R-S1: a subqueue (`orders;poison`) is shown under its queue.
  if (queue.type === 'subqueue') return { group: 'subqueue', parent: queue.parent ?? queue.path.split(';')[0] ?? '' };
  if (queue.type === 'private' || queue.type === 'public' || queue.type === 'outgoing') return { group: queue.type };
  return { group: 'hidden' };
}

/** The short name of a queue for the tree: `orders` for `.\private$\orders`, `orders;poison` for a subqueue. */
export function queueShortName(path: string): string {
  const segments = path.split('\\');
  return segments[segments.length - 1] ?? path;
}

/** The name of a subqueue within its queue: `poison` for `.\private$\orders;poison`. */
export function subqueueName(path: string): string {
  const at = path.lastIndexOf(';');
  return at < 0 ? path : path.slice(at + 1);
}

/** A queue as the console names it in titles: `orders`, or `orders › poison` for a subqueue. */
export function queueCaption(path: string): string {
  const at = path.lastIndexOf(';');
  return at < 0 ? queueShortName(path) : `${queueShortName(path.slice(0, at))} › ${path.slice(at + 1)}`;
}

/** Queues of one computer sorted into the tree's folders. */
export interface GroupedQueues {
  private: QueueInfo[];
  public: QueueInfo[];
  outgoing: QueueInfo[];
  system: Record<SystemKind, QueueInfo | null>;
  /** Subqueues by their queue's path (lower case), by name. */
  subqueues: Record<string, QueueInfo[]>;
}

/** Groups and sorts (by name, case-insensitively, as MMC does) one computer's queues. */
export function groupQueues(queues: readonly QueueInfo[]): GroupedQueues {
  const grouped: GroupedQueues = {
    private: [],
    public: [],
    outgoing: [],
    system: { JOURNAL: null, DEADLETTER: null, DEADXACT: null },
    subqueues: {},
  };
  for (const queue of queues) {
    const g = classifyQueue(queue);
    if (g.group === 'system') grouped.system[g.kind] = queue;
    else if (g.group === 'subqueue') (grouped.subqueues[g.parent.toLowerCase()] ??= []).push(queue);
    else if (g.group !== 'hidden') grouped[g.group].push(queue);
  }
  for (const list of Object.values(grouped.subqueues)) list.sort((a, b) => a.path.localeCompare(b.path));
  const byName = (a: QueueInfo, b: QueueInfo) => a.path.localeCompare(b.path, undefined, { sensitivity: 'base' });
  grouped.private.sort(byName);
  grouped.public.sort(byName);
  grouped.outgoing.sort(byName);
  return grouped;
}

/** One visible row of the tree. */
export interface TreeRow {
  id: string;
  kind: NodeKind;
  computer: string;
  path: string | null;
  label: string;
  level: number;
  /** Live count shown beside the label (messages, or queues for a folder); null shows nothing. */
  count: number | null;
  /** True when the count is messages waiting (shown bold, as MMC bolds non-empty nodes). */
  hasMessages: boolean;
  expandable: boolean;
  expanded: boolean;
  parentId: string | null;
  /** Position among siblings (1-based) and sibling count, for aria-posinset/setsize. */
  posInSet: number;
  setSize: number;
  /** A full (or nearly full) queue or journal, in one sentence; null when all is well. */
  warning: string | null;
  /** The warning is of a full queue or journal (not only nearly full): shown as an error, as the list does. */
  warningFull: boolean;
}

/** A computer root as the tree needs it. */
export interface TreeComputer {
  key: string;
  name: string;
  local: boolean;
  connected: boolean;
}

/** The rows that are visible given what is expanded, in display order. */
export function visibleTreeRows(
  computers: readonly TreeComputer[],
  queuesByComputer: Readonly<Record<string, readonly QueueInfo[]>>,
  expanded: Readonly<Record<string, boolean>>,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const push = (
    row: Omit<TreeRow, 'expanded' | 'warning' | 'warningFull'> & { warning?: string | null; warningFull?: boolean },
  ): boolean => {
    const isExpanded = row.expandable && expanded[row.id] === true;
    rows.push({ ...row, warning: row.warning ?? null, warningFull: row.warningFull ?? false, expanded: isExpanded });
    return isExpanded;
  };
  computers.forEach((computer, ci) => {
    const rootId = nodeId(computer.key, 'computer');
    const suffix = computer.local ? ' (this computer)' : computer.connected ? ' (connected)' : ' (not connected)';
    const rootOpen = push({
      id: rootId,
      kind: 'computer',
      computer: computer.key,
      path: null,
      label: `${computer.name}${suffix}`,
      level: 1,
      count: null,
      hasMessages: false,
      expandable: true,
      parentId: null,
      posInSet: ci + 1,
      setSize: computers.length,
    });
    if (!rootOpen) return;
    const msmqId = nodeId(computer.key, 'msmq');
    if (
      !push({
        id: msmqId,
        kind: 'msmq',
        computer: computer.key,
        path: null,
        label: 'Message Queuing',
        level: 2,
        count: null,
        hasMessages: false,
        expandable: true,
        parentId: rootId,
        posInSet: 1,
        setSize: 1,
      })
    )
      return;
    const grouped = groupQueues(queuesByComputer[computer.key] ?? []);
    const folders: Array<{ kind: 'outgoing' | 'public' | 'private'; label: string }> = [
      { kind: 'outgoing', label: 'Outgoing Queues' },
      { kind: 'public', label: 'Public Queues' },
      { kind: 'private', label: 'Private Queues' },
    ];
    folders.forEach((folder, fi) => {
      const folderId = nodeId(computer.key, folder.kind);
      const list = grouped[folder.kind];
      const open = push({
        id: folderId,
        kind: folder.kind,
        computer: computer.key,
        path: null,
        label: folder.label,
        level: 3,
        count: list.length > 0 ? list.length : null,
        hasMessages: false,
        expandable: list.length > 0,
        parentId: msmqId,
        posInSet: fi + 1,
        setSize: 4,
      });
      if (!open) return;
      list.forEach((queue, qi) => {
        const queueNode = nodeId(computer.key, 'queue', queue.path);
        const warnings = queueWarnings(queue);
        const subqueues = grouped.subqueues[queue.path.toLowerCase()] ?? [];
        const journalWarning = warnings.find((w) => w.part === 'journal');
        const queueWarning = warnings.find((w) => w.part === 'queue');
        const queueOpen = push({
          warning: warnings.length > 0 ? warnings.map((w) => w.text).join(' ') : null,
          warningFull: warnings.some((w) => w.state === 'full'),
          id: queueNode,
          kind: 'queue',
          computer: computer.key,
          path: queue.path,
          // MSMQ's console names an outgoing queue by its destination's format name.
          label: folder.kind === 'outgoing' ? queue.formatName : queueShortName(queue.path),
          level: 4,
          count: queue.messageCount,
          hasMessages: queue.messageCount > 0,
          expandable: true,
          parentId: folderId,
          posInSet: qi + 1,
          setSize: list.length,
        });
        if (!queueOpen) return;
        push({
          id: nodeId(computer.key, 'queueMessages', queue.path),
          kind: 'queueMessages',
          computer: computer.key,
          path: queue.path,
          label: 'Queue messages',
          warning: queueWarning?.text ?? null,
          warningFull: queueWarning?.state === 'full',
          level: 5,
          count: queue.messageCount,
          hasMessages: queue.messageCount > 0,
          expandable: false,
          parentId: queueNode,
          posInSet: 1,
          setSize: folder.kind === 'outgoing' ? 1 : 2 + subqueues.length,
        });
        // An outgoing queue has no journal of its own (the source journal is the computer's).
        if (folder.kind === 'outgoing') return;
        push({
          id: nodeId(computer.key, 'journalMessages', queue.path),
          kind: 'journalMessages',
          computer: computer.key,
          path: queue.path,
          label: 'Journal messages',
          warning: journalWarning?.text ?? null,
          warningFull: journalWarning?.state === 'full',
          level: 5,
          count: queue.journalMessageCount,
          hasMessages: queue.journalMessageCount > 0,
          expandable: false,
          parentId: queueNode,
          posInSet: 2,
          setSize: 2 + subqueues.length,
        });
        subqueues.forEach((sub, si) => {
          push({
            id: nodeId(computer.key, 'subqueue', sub.path),
            kind: 'subqueue',
            computer: computer.key,
            path: sub.path,
            label: subqueueName(sub.path),
            level: 5,
            count: sub.messageCount,
            hasMessages: sub.messageCount > 0,
            expandable: false,
            parentId: queueNode,
            posInSet: 3 + si,
            setSize: 2 + subqueues.length,
          });
        });
      });
    });
    const systemId = nodeId(computer.key, 'system');
    if (
      !push({
        id: systemId,
        kind: 'system',
        computer: computer.key,
        path: null,
        label: 'System Queues',
        level: 3,
        count: null,
        hasMessages: false,
        expandable: true,
        parentId: msmqId,
        posInSet: 4,
        setSize: 4,
      })
    )
      return;
    (['JOURNAL', 'DEADLETTER', 'DEADXACT'] as const).forEach((kind, si) => {
      const queue = grouped.system[kind];
      const path = queue?.path ?? systemQueuePaths[kind];
      const count = queue?.messageCount ?? 0;
      push({
        id: nodeId(computer.key, 'systemQueue', path),
        kind: 'systemQueue',
        computer: computer.key,
        path,
        label: systemQueueCaptions[kind],
        level: 4,
        count,
        hasMessages: count > 0,
        expandable: false,
        parentId: systemId,
        posInSet: si + 1,
        setSize: 3,
      });
    });
  });
  return rows;
}

/** The queue a message-list node browses: the queue, its journal, or the system queue. */
export function browsePathOf(ref: NodeRef): string | null {
  if (ref.path === null) return null;
  if (ref.kind === 'queueMessages' || ref.kind === 'systemQueue' || ref.kind === 'subqueue') return ref.path;
  if (ref.kind === 'journalMessages') return `${ref.path}\\JOURNAL$`;
  return null;
}

/** An outgoing queue is listed under its destination's format name, which is its caption too. */
function captionName(path: string): string {
  return /^DIRECT=/i.test(path) ? path : queueShortName(path);
}

/** The caption of the middle pane for a node. */
export function nodeCaption(ref: NodeRef, computerName: string): string {
  switch (ref.kind) {
    case 'computer':
      return computerName;
    case 'msmq':
      return 'Message Queuing';
    case 'outgoing':
      return 'Outgoing Queues';
    case 'public':
      return 'Public Queues';
    case 'private':
      return 'Private Queues';
    case 'system':
      return 'System Queues';
    case 'systemQueue': {
      const kind = classifyQueue({ path: ref.path ?? '', formatName: '', type: 'system' } as QueueInfo);
      return kind.group === 'system' ? systemQueueCaptions[kind.kind] : (ref.path ?? '');
    }
    case 'queue':
      return captionName(ref.path ?? '');
    case 'queueMessages':
      return `${captionName(ref.path ?? '')} › Queue messages`;
    case 'journalMessages':
      return `${queueShortName(ref.path ?? '')} › Journal messages`;
    case 'subqueue':
      return queueCaption(ref.path ?? '');
    default:
      return '';
  }
}
