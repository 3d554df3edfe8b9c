/**
 * What applies to the items selected in the result pane (the second section of MMC's Actions pane, the
 * Action menu's lower part, the toolbar and the selection's context menu): the selected messages of a
 * message list, or the queue selected in a folder's list.
 */
import type { AppStore } from '../store/app-store.js';
import type { AppState } from '../store/types.js';
import { samePath } from '../store/shared.js';
import { parseNodeId, queueShortName } from '../tree/tree-model.js';
import { attempt, type ActionItem } from './action-item.js';
import { confirmDeleteSelected, confirmReject, confirmResend } from './confirmations.js';
import { downloadBytes, downloadText } from './download.js';
import { isDeadLetterPath, nodeActions } from './node-actions.js';

/** The one selected message (or the focused one when it is selected), when exactly one is. */
export function singleSelected(state: AppState) {
  if (state.selectedCount() !== 1 || state.allSelected) return undefined;
  const focused = state.focusIndex === null ? undefined : state.messageAt(state.focusIndex);
  if (focused && state.selection[focused.lookupId]) return focused;
  const id = Number(Object.keys(state.selection)[0]);
  for (const rows of Object.values(state.pages)) for (const row of rows) if (row.lookupId === id) return row;
  return { lookupId: id };
}

/** Opens the properties of the one selected (or focused) message. */
export function openSelectedProperties(store: AppStore): void {
  const state = store.getState();
  const target = state.target;
  const one = singleSelected(state) ?? (state.focusIndex === null ? undefined : state.messageAt(state.focusIndex));
  if (!target || !one) return;
  attempt(store, 'Open message properties', () =>
    state.openMessageProperties(target.computer, target.path, one.lookupId),
  );
}

async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}

/** Actions on the selected messages of the message list. */
export function messageSelectionActions(store: AppStore, state: AppState): ActionItem[] {
  const target = state.target;
  const count = state.selectedCount();
  if (!target || count === 0) return [];
  const s = store.getState;
  const items: ActionItem[] = [];
  const one = singleSelected(state);
  if (one) {
    const lookupId = one.lookupId;
    const full = () => s().fetchMessage(target.computer, target.path, lookupId);
    items.push(
      { id: 'messageProperties', label: 'Properties', shortcut: 'Enter', run: () => openSelectedProperties(store) },
      {
        id: 'editResend',
        label: 'Edit and resend…',
        run: () =>
          s().openDialog({
            kind: 'sendTest',
            computer: target.computer,
            path: target.path,
            from: { path: target.path, lookupId, mode: 'resend' },
          }),
      },
      {
        id: 'sendCopy',
        label: 'Send a copy…',
        run: () =>
          s().openDialog({
            kind: 'sendTest',
            computer: target.computer,
            path: target.path,
            from: { path: target.path, lookupId, mode: 'copy' },
          }),
      },
      {
        id: 'copyId',
        label: 'Copy message ID',
        run: () => attempt(store, 'Copy message ID', async () => copyText((await full()).id)),
      },
      {
        id: 'copyBody',
        label: 'Copy body',
        run: () =>
          attempt(store, 'Copy body', async () => {
            const m = await full();
            if (m.body === null)
              throw Object.assign(new Error('The body is not text; use Save body to file.'), {
                code: 'INVALID_PARAMETER',
              });
            await copyText(m.body);
          }),
      },
      {
        id: 'saveBody',
        label: 'Save body to file…',
        run: () =>
          attempt(store, 'Save body', async () => {
            const m = await full();
            downloadBytes(`message-${m.lookupId}.bin`, m.bodyBase64);
          }),
      },
    );
  }
  items.push({ id: 'deleteMessages', label: 'Delete…', shortcut: 'Del', run: () => confirmDeleteSelected(store) });
  // MSMQ 4.0's poison-message tools (R-S3, R-S8), for application queues and their subqueues.
  const queue = state.queues[target.computer]?.find((q) => samePath(q.path, target.path));
  if (queue && (queue.type === 'private' || queue.type === 'public' || queue.type === 'subqueue')) {
    items.push({
      id: 'moveToSubqueue',
      label: 'Move to subqueue…',
      run: () => s().openDialog({ kind: 'moveToSubqueue', computer: target.computer, path: target.path }),
    });
    if (queue.type === 'subqueue') {
      const parent = queue.parent ?? target.path.split(';')[0] ?? target.path;
      items.push({
        id: 'moveBack',
        label: `Move back to ${queueShortName(parent)}`,
        run: () => attempt(store, 'Move back', () => s().moveWithinQueue(parent)),
      });
    }
    items.push({ id: 'reject', label: 'Reject…', run: () => confirmReject(store) });
  }
  items.push({
    id: 'moveMessages',
    label: 'Move to another queue…',
    run: () => s().openDialog({ kind: 'move', computer: target.computer, path: target.path }),
  });
  if (isDeadLetterPath(target.path))
    items.push({ id: 'resend', label: 'Resend to destination…', run: () => confirmResend(store, count) });
  items.push({
    id: 'copyMessages',
    label: 'Copy',
    shortcut: 'Ctrl+C',
    run: () => attempt(store, 'Copy messages', () => s().copyToClipboard()),
  });
  items.push({
    id: 'export',
    label: count === 1 ? 'Export message…' : 'Export…',
    run: () =>
      attempt(store, 'Export messages', async () => {
        const file = await s().exportMessages(target.computer, target.path, 'selection');
        if (file) downloadText(file.fileName, file.text, 'application/x-ndjson');
      }),
  });
  return items;
}

/** Actions on the queue selected in a folder's list: open it, then what its tree node offers. */
export function resultItemActions(store: AppStore, state: AppState, nodeId: string): ActionItem[] {
  const ref = parseNodeId(nodeId);
  const open: ActionItem = {
    id: 'open',
    label: 'Open',
    shortcut: 'Enter',
    run: () => store.getState().revealNode(ref.kind === 'queue' ? `${ref.computer}|queueMessages|${ref.path}` : nodeId),
  };
  const own = nodeActions(store, state, ref).filter((a) => a.id !== 'refresh');
  return [open, ...own];
}
