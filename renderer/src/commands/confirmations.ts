/**
 * Every action that loses data asks first, says exactly what will be lost, and has Cancel as its default
 * button (issue 12, point 1) — wherever it is started: Actions pane, menus, toolbar, keyboard, property sheet.
 */
import type { QueueInfo } from '@qk/model';
import { formatCount } from '../format/format.js';
import type { AppStore } from '../store/app-store.js';
import { samePath } from '../store/shared.js';
import type { AppState } from '../store/types.js';
import { queueShortName, subqueueName } from '../tree/tree-model.js';
import { attempt } from './action-item.js';

/** "1 message", "1,204 messages". */
export const messagesWord = (n: number) => `${formatCount(n)} ${n === 1 ? 'message' : 'messages'}`;

const queuesWord = (n: number) => `${formatCount(n)} ${n === 1 ? 'queue' : 'queues'}`;

/** "a", "a and b", "a, b and c". */
function andList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function queueOf(state: AppState, computer: string, path: string) {
  return state.queues[computer]?.find((q) => samePath(q.path, path));
}

/** Purge a queue, a journal or a system queue: "Purge 1,204 messages from Dead-letter messages?". */
export function confirmPurge(store: AppStore, computer: string, path: string, count: number, caption: string): void {
  store.getState().openDialog({
    kind: 'confirm',
    title: 'Purge',
    text: `Purge ${messagesWord(count)} from ${caption}?`,
    details: ['Purged messages cannot be recovered.', ...purgeTold(queueOf(store.getState(), computer, path))],
    confirmLabel: 'Purge',
    destructive: true,
    onConfirm: () => attempt(store, `Purge ${path}`, () => store.getState().purgeQueue(computer, path)),
  });
}

/**
 * What the senders of messages leaving an application queue unreceived hear (issue 9: purge, deletion and an
 * administrator's delete are all "never received"): the NACK they asked for and, for a transactional
 * message with the dead-letter flag, a copy in the transactional dead-letter queue (R-D2, R-D3). Nothing is
 * said for journals and system queues, whose messages have no sender waiting.
 */
function sendersTold(queue: QueueInfo | undefined, nack: string): string[] {
  if (!queue || (queue.type !== 'private' && queue.type !== 'public' && queue.type !== 'subqueue')) return [];
  return [
    `Senders that asked for negative acknowledgments get ${nack}${queue.transactional ? '; transactional messages sent with the dead-letter flag go to the transactional dead-letter queue' : ''}.`,
  ];
}

/**
 * What the senders of purged messages hear: from an application queue NACK_Q_PURGED, a receive class (they
 * reached their queue); from an outgoing queue NACK_PURGED, an arrival class (they never left this computer,
 * R-P6) — and a transactional message with the dead-letter flag goes to the transactional dead-letter queue.
 */
function purgeTold(queue: QueueInfo | undefined): string[] {
  if (queue?.type !== 'outgoing') return sendersTold(queue, 'NACK_Q_PURGED (0xC001)');
  return [
    'Senders that asked for negative acknowledgments get NACK_PURGED (0x8001); transactional messages sent with the dead-letter flag go to the transactional dead-letter queue.',
  ];
}

/** Delete a queue: names its messages and its journal's messages, both lost. */
export function confirmDeleteQueue(store: AppStore, computer: string, path: string): void {
  const queue = queueOf(store.getState(), computer, path);
  const lost: string[] = [];
  if (queue && queue.messageCount > 0) lost.push(`its ${messagesWord(queue.messageCount)}`);
  if (queue && queue.journalMessageCount > 0)
    lost.push(`the ${messagesWord(queue.journalMessageCount)} in its journal`);
  // Its subqueues go with it (R-S1): name the messages they hold, and where.
  const subqueues = (store.getState().queues[computer] ?? []).filter(
    (q) => q.type === 'subqueue' && q.messageCount > 0 && samePath(q.parent ?? '', path),
  );
  const inSubqueues = subqueues.reduce((n, q) => n + q.messageCount, 0);
  if (inSubqueues > 0)
    lost.push(
      `the ${messagesWord(inSubqueues)} in its ${subqueues.length === 1 ? 'subqueue' : 'subqueues'} ${subqueues.map((q) => subqueueName(q.path)).join(', ')}`,
    );
  store.getState().openDialog({
    kind: 'confirm',
    title: 'Delete queue',
    text: `Delete the queue ${path}${lost.length > 0 ? ` with ${andList(lost)}` : ''}?`,
    details: [
      ...(lost.length > 0
        ? ['Deleted messages cannot be recovered.', ...sendersTold(queue, 'NACK_Q_DELETED (0xC000)')]
        : ['The queue is empty.']),
    ],
    confirmLabel: 'Delete',
    destructive: true,
    onConfirm: () => attempt(store, `Delete ${path}`, () => store.getState().deleteQueue(computer, path)),
  });
}

/**
 * Asks about the selected messages once they are known by lookup ID. Ctrl+A stands for every message of the
 * (filtered) list, and resolving it only when the action runs would also take messages that arrived while the
 * question was open: the count asked about and the messages acted on must be the same ones.
 */
function askAboutSelection(
  store: AppStore,
  where: string,
  ask: (target: { computer: string; path: string }, lookupIds: number[]) => void,
): void {
  const target = store.getState().target;
  if (!target || store.getState().selectedCount() === 0) return;
  attempt(store, where, async () => {
    const lookupIds = await store.getState().resolveSelection();
    // Another node chosen while the list was being read: the question would be about a list no longer shown.
    if (lookupIds.length === 0 || store.getState().target !== target) return;
    ask(target, lookupIds);
  });
}

/** Delete the selected messages. */
export function confirmDeleteSelected(store: AppStore): void {
  askAboutSelection(store, 'Delete messages', (target, lookupIds) =>
    store.getState().openDialog({
      kind: 'confirm',
      title: 'Delete messages',
      text: `Delete ${messagesWord(lookupIds.length)} from ${target.path}?`,
      // An administrator's delete is a purge of those messages (issue 9): the same NACK, no journal copy.
      details: [
        'Deleted messages cannot be recovered.',
        ...sendersTold(queueOf(store.getState(), target.computer, target.path), 'NACK_Q_PURGED (0xC001)'),
      ],
      confirmLabel: 'Delete',
      destructive: true,
      onConfirm: () => attempt(store, 'Delete messages', () => store.getState().deleteSelected(lookupIds)),
    }),
  );
}

/** Reject the selected messages (R-S8): they leave the queue and their senders may be told. */
export function confirmReject(store: AppStore): void {
  askAboutSelection(store, 'Reject messages', (target, lookupIds) =>
    store.getState().openDialog({
      kind: 'confirm',
      title: 'Reject messages',
      text: `Reject ${messagesWord(lookupIds.length)} of ${target.path}?`,
      details: [
        'Rejected messages leave the queue; senders that asked for negative receive acknowledgments get NACK_RECEIVE_REJECTED (0xC004).',
      ],
      confirmLabel: 'Reject',
      destructive: true,
      onConfirm: () => attempt(store, 'Reject messages', () => store.getState().rejectSelected(lookupIds)),
    }),
  );
}

/**
 * Restart Message Queuing: first asks the service what a restart would lose now (express messages are kept
 * in memory only, R-V1), then asks the administrator with that count. When the count cannot be read the
 * question still says that every express message will be lost.
 */
export function confirmRestart(store: AppStore, computer: string): void {
  const state = store.getState();
  const name = state.computers.find((c) => c.key === computer)?.name ?? 'this computer';
  attempt(store, 'Restart Message Queuing', async () => {
    const details: string[] = [];
    let text: string;
    try {
      const impact = await store.getState().restartImpact(computer);
      if (impact.expressMessages === 0) {
        text = `Restart Message Queuing on ${name}? No messages will be lost: there are no express messages now.`;
      } else {
        text = `Restart Message Queuing on ${name}? ${formatCount(impact.expressMessages)} express ${impact.expressMessages === 1 ? 'message' : 'messages'} in ${queuesWord(impact.queues.length)} will be lost.`;
        const top = impact.queues.slice(0, 5).map((q) => `${queueShortName(q.path)} ${formatCount(q.messages)}`);
        const more = impact.queues.length > 5 ? `, and ${queuesWord(impact.queues.length - 5)} more` : '';
        details.push(`Express messages are kept in memory only: ${top.join(', ')}${more}.`);
      }
      details.push(`The duplicate cache (${formatCount(impact.duplicateCacheEntries)} entries) starts empty.`);
      if (impact.pendingSettings.length > 0)
        details.push(`Settings waiting for the restart take effect: ${impact.pendingSettings.join(', ')}.`);
    } catch (error) {
      text = `Restart Message Queuing on ${name}? Every express message will be lost.`;
      const code = (error as { code?: string }).code ?? 'INTERNAL';
      details.push(`How many could not be read (${code}).`, 'The duplicate cache starts empty.');
    }
    store.getState().openDialog({
      kind: 'confirm',
      title: 'Restart Message Queuing',
      text,
      details,
      confirmLabel: 'Restart',
      destructive: true,
      onConfirm: () => attempt(store, 'Restart Message Queuing', () => store.getState().restartService(computer)),
    });
  });
}

/** Resend dead letters to their destinations (nothing is lost: those that fail again stay and are listed). */
export function confirmResend(store: AppStore, count: number): void {
  store.getState().openDialog({
    kind: 'confirm',
    title: 'Resend dead letters',
    text: `Resend ${messagesWord(count)} to their original destination queues?`,
    details: [
      'Each is sent again as a new send from you, its timers counted from now. Messages that fail again stay here and are listed.',
    ],
    confirmLabel: 'Resend',
    onConfirm: () => attempt(store, 'Resend dead letters', () => store.getState().resendDeadLetters()),
  });
}
