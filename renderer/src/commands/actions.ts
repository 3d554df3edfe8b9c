/**
 * What can be done now, as MMC's Actions pane lists it: first for the selected node, then for the
 * selected message(s). The Actions pane, the context menus, the Action menu and the keyboard all use
 * this one model, so they never disagree.
 */
import type { QueueInfo } from '@qk/model';
import { formatCount } from '../format/format.js';
import type { AppStore } from '../store/app-store.js';
import { inBackground, samePath } from '../store/shared.js';
import type { AppState } from '../store/types.js';
import { classifyQueue, nodeCaption, parseNodeId, queueShortName, type NodeRef } from '../tree/tree-model.js';
import { downloadText } from './download.js';

/** One entry of the Actions pane or a context menu. */
export interface ActionItem {
  id: string;
  label: string;
  shortcut?: string;
  run: () => void;
}

/** The two sections of the Actions pane. */
export interface ActionsModel {
  nodeTitle: string;
  nodeActions: ActionItem[];
  selectionTitle: string | null;
  selectionActions: ActionItem[];
}

/** Runs an action, reporting any failure with its code where the user will see it. */
export function attempt(store: AppStore, where: string, work: () => Promise<unknown>): void {
  work().catch((error: unknown) => store.getState().reportError(where, error));
}

function queueOf(state: AppState, computer: string, path: string | null): QueueInfo | undefined {
  if (path === null) return undefined;
  return state.queues[computer]?.find((q) => samePath(q.path, path));
}

const messagesWord = (n: number) => `${formatCount(n)} ${n === 1 ? 'message' : 'messages'}`;

/** Asks before purging, stating the exact count (CONSOLE.md). */
function confirmPurge(store: AppStore, computer: string, path: string, count: number, caption: string): void {
  store.getState().openDialog({
    kind: 'confirm',
    title: 'Purge',
    text: `Purge ${messagesWord(count)} from ${caption}? Purged messages cannot be recovered.`,
    confirmLabel: 'Purge',
    onConfirm: () => attempt(store, `Purge ${path}`, () => store.getState().purgeQueue(computer, path)),
  });
}

function isDeadLetterPath(path: string): boolean {
  const kind = classifyQueue({ path, formatName: '', type: 'system' } as QueueInfo);
  return kind.group === 'system' && kind.kind !== 'JOURNAL';
}

function nodeActions(store: AppStore, state: AppState, ref: NodeRef): ActionItem[] {
  const s = store.getState;
  const refresh: ActionItem = {
    id: 'refresh',
    label: 'Refresh',
    shortcut: 'F5',
    run: () => attempt(store, 'Refresh', () => s().refreshAll()),
  };
  const computer = ref.computer;
  const remote = state.computers.find((c) => c.key === computer && !c.local);
  const computerItems: ActionItem[] = [
    {
      id: 'computerProperties',
      label: 'Properties',
      shortcut: 'Alt+Enter',
      run: () => s().openDialog({ kind: 'computerProperties', computer }),
    },
    { id: 'restart', label: 'Restart Message Queuing', run: () => restart(store, computer) },
    { id: 'connect', label: 'Connect to another computer…', run: () => s().openDialog({ kind: 'connect' }) },
    ...(remote ? [{ id: 'disconnect', label: 'Disconnect', run: () => s().disconnectComputer(computer) }] : []),
  ];
  switch (ref.kind) {
    case 'computer':
    case 'msmq':
      return [...computerItems, refresh];
    case 'private':
      return [
        {
          id: 'newPrivateQueue',
          label: 'New private queue…',
          run: () => s().openDialog({ kind: 'newQueue', computer, queueType: 'private' }),
        },
        refresh,
      ];
    case 'public':
      return [
        {
          id: 'newPublicQueue',
          label: 'New public queue…',
          run: () => s().openDialog({ kind: 'newQueue', computer, queueType: 'public' }),
        },
        refresh,
      ];
    case 'outgoing':
    case 'system':
      return [refresh];
    case 'systemQueue': {
      const path = ref.path ?? '';
      const count = queueOf(state, computer, path)?.messageCount ?? state.total ?? 0;
      const caption = nodeCaption(ref, '');
      return [
        { id: 'purge', label: 'Purge…', run: () => confirmPurge(store, computer, path, count, caption) },
        ...(isDeadLetterPath(path)
          ? [{ id: 'resendAll', label: 'Resend all to destination…', run: () => confirmResend(store, count) }]
          : []),
        { id: 'import', label: 'Import messages…', run: () => s().openDialog({ kind: 'import', computer, path }) },
        refresh,
      ];
    }
    case 'queue':
    case 'queueMessages':
    case 'journalMessages': {
      const path = ref.path ?? '';
      const queue = queueOf(state, computer, path);
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
      if (ref.kind === 'queueMessages')
        items.push({
          id: 'import',
          label: 'Import messages…',
          run: () => s().openDialog({ kind: 'import', computer, path }),
        });
      items.push({
        id: 'queueProperties',
        label: 'Properties',
        shortcut: 'Alt+Enter',
        run: () => s().openDialog({ kind: 'queueProperties', computer, path }),
      });
      if (ref.kind === 'queue') {
        items.push({
          id: 'deleteQueue',
          label: 'Delete',
          shortcut: 'Del',
          run: () =>
            s().openDialog({
              kind: 'confirm',
              title: 'Delete queue',
              text: `Delete the queue ${path}${queue && queue.messageCount > 0 ? ` and its ${messagesWord(queue.messageCount)}` : ''}?`,
              confirmLabel: 'Delete',
              onConfirm: () => attempt(store, `Delete ${path}`, () => s().deleteQueue(computer, path)),
            }),
        });
      }
      items.push(refresh);
      return items;
    }
    default:
      return [refresh];
  }
}

function restart(store: AppStore, computer: string): void {
  store.getState().openDialog({
    kind: 'confirm',
    title: 'Restart Message Queuing',
    text: 'Restart Message Queuing? Settings waiting for a restart take effect, express messages are lost and the duplicate cache starts empty.',
    confirmLabel: 'Restart',
    onConfirm: () => attempt(store, 'Restart Message Queuing', () => store.getState().restartService(computer)),
  });
}

function confirmResend(store: AppStore, count: number): void {
  store.getState().openDialog({
    kind: 'confirm',
    title: 'Resend dead letters',
    text: `Resend ${messagesWord(count)} to their original destination queues? Messages that fail again stay here and are listed.`,
    confirmLabel: 'Resend',
    onConfirm: () => attempt(store, 'Resend dead letters', () => store.getState().resendDeadLetters()),
  });
}

/** Deletes the selection after confirming the exact count. */
export function confirmDeleteSelected(store: AppStore): void {
  const state = store.getState();
  const count = state.selectedCount();
  if (count === 0 || !state.target) return;
  state.openDialog({
    kind: 'confirm',
    title: 'Delete messages',
    text: `Delete ${messagesWord(count)} from ${state.target.path}? Deleted messages cannot be recovered.`,
    confirmLabel: 'Delete',
    onConfirm: () => attempt(store, 'Delete messages', () => store.getState().deleteSelected()),
  });
}

/** Opens the properties of the one selected (or focused) message. */
export function openSelectedProperties(store: AppStore): void {
  const state = store.getState();
  const target = state.target;
  if (!target) return;
  const focused = state.focusIndex === null ? undefined : state.messageAt(state.focusIndex);
  const ids = Object.keys(state.selection).map(Number);
  const lookupId = focused && state.selection[focused.lookupId] ? focused.lookupId : ids[0];
  if (lookupId === undefined) return;
  inBackground(state, 'Message properties', state.openMessageProperties(target.computer, target.path, lookupId));
}

function selectionActions(store: AppStore, state: AppState): ActionItem[] {
  const target = state.target;
  const count = state.selectedCount();
  if (!target || count === 0) return [];
  const items: ActionItem[] = [];
  if (count === 1)
    items.push({
      id: 'messageProperties',
      label: 'Properties',
      shortcut: 'Enter',
      run: () => openSelectedProperties(store),
    });
  items.push({ id: 'deleteMessages', label: 'Delete', shortcut: 'Del', run: () => confirmDeleteSelected(store) });
  items.push({
    id: 'moveMessages',
    label: 'Move to another queue…',
    run: () => store.getState().openDialog({ kind: 'move', computer: target.computer, path: target.path }),
  });
  if (isDeadLetterPath(target.path))
    items.push({ id: 'resend', label: 'Resend to destination…', run: () => confirmResend(store, count) });
  items.push({
    id: 'export',
    label: 'Export…',
    run: () =>
      attempt(store, 'Export messages', async () => {
        const file = await store.getState().exportSelected();
        if (file) downloadText(file.fileName, file.json);
      }),
  });
  return items;
}

/** The Actions pane model for the current state. */
export function buildActions(store: AppStore): ActionsModel {
  const state = store.getState();
  const selected = state.selectedNodeId;
  if (!selected) return { nodeTitle: '', nodeActions: [], selectionTitle: null, selectionActions: [] };
  const ref = parseNodeId(selected);
  const computerName = state.computers.find((c) => c.key === ref.computer)?.name ?? '';
  const count = state.selectedCount();
  const single =
    count === 1
      ? state.pages &&
        Object.values(state.pages)
          .flat()
          .find((m) => state.selection[m.lookupId])
      : undefined;
  return {
    nodeTitle: nodeCaption(ref, computerName),
    nodeActions: nodeActions(store, state, ref),
    selectionTitle:
      count === 0
        ? null
        : count === 1
          ? single?.label || 'Selected message'
          : `${formatCount(count)} selected messages`,
    selectionActions: selectionActions(store, state),
  };
}
