/** What applies to a tree node (the first section of MMC's Actions pane, and the node's context menu). */
import type { QueueInfo } from '@qk/model';
import type { AppStore } from '../store/app-store.js';
import { samePath } from '../store/shared.js';
import type { AppState } from '../store/types.js';
import { classifyQueue, nodeCaption, queueShortName, type NodeRef } from '../tree/tree-model.js';
import { attempt, type ActionItem } from './action-item.js';
import { downloadText } from './download.js';
import { confirmDeleteQueue, confirmPurge, confirmResend, confirmRestart } from './confirmations.js';
import { offlineAction, pauseResumeActions } from '../network/network-actions.js';

function queueOf(state: AppState, computer: string, path: string | null): QueueInfo | undefined {
  if (path === null) return undefined;
  return state.queues[computer]?.find((q) => samePath(q.path, path));
}

/** The dead-letter queues (resend applies there), not the computer journal. */
export function isDeadLetterPath(path: string): boolean {
  const kind = classifyQueue({ path, formatName: '', type: 'system' } as QueueInfo);
  return kind.group === 'system' && kind.kind !== 'JOURNAL';
}

/** Refresh (F5), at the end of every node's list. */
export function refreshAction(store: AppStore): ActionItem {
  return {
    id: 'refresh',
    label: 'Refresh',
    shortcut: 'F5',
    run: () => attempt(store, 'Refresh', () => store.getState().refreshAll()),
  };
}

/** Export every message of a queue, a journal or a system queue to a message file. */
function exportAll(store: AppStore, computer: string, path: string): ActionItem {
  return {
    id: 'exportAll',
    label: 'Export all messages…',
    run: () =>
      attempt(store, `Export ${path}`, async () => {
        const file = await store.getState().exportMessages(computer, path, 'all');
        if (file) downloadText(file.fileName, file.text, 'application/x-ndjson');
      }),
  };
}

/** Paste (Ctrl+V): copies of the clipboard's messages into this queue; only when something was copied here. */
function paste(store: AppStore, state: AppState, computer: string, path: string): ActionItem[] {
  const clipboard = state.clipboard;
  if (!clipboard || clipboard.computer !== computer || samePath(clipboard.path, path)) return [];
  return [
    {
      id: 'paste',
      label: `Paste ${clipboard.caption}`,
      shortcut: 'Ctrl+V',
      run: () => attempt(store, 'Paste messages', () => store.getState().pasteInto(computer, path)),
    },
  ];
}

/** Walk with a cursor (R-C2): peek, next, receive, as an application walks a queue. */
function walkCursor(store: AppStore, computer: string, path: string): ActionItem {
  return {
    id: 'walkCursor',
    label: 'Walk with a cursor…',
    run: () => store.getState().openDialog({ kind: 'cursor', computer, path }),
  };
}

/** The actions of a tree node. */
export function nodeActions(store: AppStore, state: AppState, ref: NodeRef): ActionItem[] {
  const s = store.getState;
  const refresh = refreshAction(store);
  const computer = ref.computer;
  const remote = state.computers.find((c) => c.key === computer && !c.local);
  const search: ActionItem = {
    id: 'search',
    label: 'Search all queues…',
    shortcut: 'Ctrl+Shift+F',
    run: () => s().openDialog({ kind: 'search', computer }),
  };
  switch (ref.kind) {
    case 'computer':
    case 'msmq':
      return [
        {
          id: 'computerProperties',
          label: 'Properties',
          shortcut: 'Alt+Enter',
          run: () => s().openDialog({ kind: 'computerProperties', computer }),
        },
        search,
        { id: 'restart', label: 'Restart Message Queuing…', run: () => confirmRestart(store, computer) },
        ...offlineAction(store, state, computer),
        { id: 'connect', label: 'Connect to another computer…', run: () => s().openDialog({ kind: 'connect' }) },
        ...(remote ? [{ id: 'disconnect', label: 'Disconnect', run: () => s().disconnectComputer(computer) }] : []),
        refresh,
      ];
    case 'private':
    case 'public':
      return [
        {
          id: ref.kind === 'private' ? 'newPrivateQueue' : 'newPublicQueue',
          label: `New ${ref.kind} queue…`,
          run: () =>
            s().openDialog({ kind: 'newQueue', computer, queueType: ref.kind === 'private' ? 'private' : 'public' }),
        },
        search,
        refresh,
      ];
    case 'outgoing':
    case 'system':
      return [search, refresh];
    case 'systemQueue': {
      const path = ref.path ?? '';
      const count = queueOf(state, computer, path)?.messageCount ?? 0;
      const caption = nodeCaption(ref, '');
      return [
        { id: 'purge', label: 'Purge…', run: () => confirmPurge(store, computer, path, count, caption) },
        ...(isDeadLetterPath(path)
          ? [{ id: 'resendAll', label: 'Resend all to destination…', run: () => confirmResend(store, count) }]
          : []),
        { id: 'import', label: 'Import messages…', run: () => s().openDialog({ kind: 'import', computer, path }) },
        exportAll(store, computer, path),
        walkCursor(store, computer, path),
        {
          id: 'queueProperties',
          label: 'Properties',
          shortcut: 'Alt+Enter',
          run: () => s().openDialog({ kind: 'queueProperties', computer, path }),
        },
        refresh,
      ];
    }
    case 'queue':
    case 'queueMessages':
    case 'journalMessages': {
      const path = ref.path ?? '';
      const queue = queueOf(state, computer, path);
      if (queue?.type === 'outgoing') return outgoingQueueActions(store, state, computer, queue, refresh);
      const name = queueShortName(path);
      const items: ActionItem[] = [];
      if (ref.kind !== 'journalMessages') {
        items.push({
          id: 'sendTest',
          label: 'Send test message…',
          run: () => s().openDialog({ kind: 'sendTest', computer, path }),
        });
        items.push({
          id: 'purge',
          label: 'Purge queue messages…',
          run: () => confirmPurge(store, computer, path, queue?.messageCount ?? 0, `${name} › Queue messages`),
        });
      }
      if (ref.kind !== 'queueMessages') {
        items.push({
          id: 'purgeJournal',
          label: 'Purge journal messages…',
          run: () =>
            confirmPurge(
              store,
              computer,
              `${path}\\JOURNAL$`,
              queue?.journalMessageCount ?? 0,
              `${name} › Journal messages`,
            ),
        });
      }
      if (ref.kind !== 'journalMessages') {
        items.push(...paste(store, state, computer, path));
        items.push({
          id: 'import',
          label: 'Import messages…',
          run: () => s().openDialog({ kind: 'import', computer, path }),
        });
      }
      if (ref.kind !== 'queue')
        items.push(exportAll(store, computer, ref.kind === 'journalMessages' ? `${path}\\JOURNAL$` : path));
      if (ref.kind === 'queueMessages') items.push(walkCursor(store, computer, path));
      items.push({
        id: 'queueProperties',
        label: 'Properties',
        shortcut: 'Alt+Enter',
        run: () => s().openDialog({ kind: 'queueProperties', computer, path }),
      });
      if (ref.kind === 'queue')
        items.push({
          id: 'deleteQueue',
          label: 'Delete…',
          shortcut: 'Del',
          run: () => confirmDeleteQueue(store, computer, path),
        });
      items.push(refresh);
      return items;
    }
    case 'subqueue': {
      // R-S*: a subqueue is browsed, purged and walked like its queue; messages enter it by MoveMessage only.
      const path = ref.path ?? '';
      const count = queueOf(state, computer, path)?.messageCount ?? 0;
      return [
        { id: 'purge', label: 'Purge…', run: () => confirmPurge(store, computer, path, count, nodeCaption(ref, '')) },
        walkCursor(store, computer, path),
        exportAll(store, computer, path),
        refresh,
      ];
    }
    default:
      return [refresh];
  }
}

/** An outgoing queue (MSMQ's snap-in): Pause or Resume, Purge, Properties. */
function outgoingQueueActions(
  store: AppStore,
  state: AppState,
  computer: string,
  queue: QueueInfo,
  refresh: ActionItem,
): ActionItem[] {
  return [
    ...pauseResumeActions(store, state, computer, queue.path),
    {
      id: 'purge',
      label: 'Purge queue messages…',
      run: () => confirmPurge(store, computer, queue.path, queue.messageCount, queue.path),
    },
    {
      id: 'queueProperties',
      label: 'Properties',
      shortcut: 'Alt+Enter',
      run: () => store.getState().openDialog({ kind: 'queueProperties', computer, path: queue.path }),
    },
    refresh,
  ];
}
