/**
 * A message leaves a queue: received, purged, expired, deleted with its queue, or removed by an
 * administrator. What each reason owes — journal copies, acknowledgments, dead letters — is decided here.
 */
import { MessageClass, MessageStatus, QkError, type MessageRemovalReason } from '@qk/model';
import { timerDeadlines } from './drafts.js';
import type { QueueKind, QueueRecord, StoredMessage } from '@qk/store';
import type { Core } from './core.js';

import { acknowledge, deadLetter, failDelivery } from './acknowledgments.js';
import { copyHasRoom } from './quotas.js';
import { draftOf, place, unplace } from './placement.js';
import { oweFinal } from './network/owed.js';

/**
 * Destination queues (an application queue and its subqueues) are where acknowledgments about a message's
 * fate are due; copies in system queues owe none.
 */
const isDestinationQueue = (q: { kind: QueueKind }): boolean =>
  q.kind === 'private' || q.kind === 'public' || q.kind === 'subqueue';

/**
 * Removes one message for `reason`, with every consequence MSMQ attaches to that reason — unless `owed` is
 * false: a message this computer has just failed, whose NACK and dead letter the caller made (a refusal by the
 * next hop, a failure reported by a routing server), leaves owing nothing more (R-A5, R-A11: one NACK per
 * failure).
 */
export function removeMessage(
  core: Core,
  message: StoredMessage,
  reason: MessageRemovalReason,
  owed = true,
  /** Its row was deleted already (removeReceived); everything else is done here as for any other. */
  rowDeleted = false,
): void {
  const queue = core.registry.get(message.queueId);
  if (!queue) return;
  const path = core.registry.pathOf(queue);
  const ready = message.status === MessageStatus.READY;
  const retains = reason === 'received' && retainsReceived(core, queue);
  if (reason === 'received' && isDestinationQueue(queue)) {
    // A subqueue keeps its queue's retention and journal (R-S4, R-T5).
    const owner = core.registry.ownerOf(queue);
    // Seed 002: with retention on, a received message stays with status 0, never receivable again.
    unplace(core, message, retains ? MessageStatus.RETAINED_RECEIVED : null, rowDeleted);
    journalReceived(core, message, owner);
    acknowledge(core, message, MessageClass.ACK_RECEIVE); // R-A3
    // R-D2: the source of a transactional message from another computer hears that it was received.
    if (message.transactional && message.sourceMachineId.toLowerCase() !== core.identity.id.toLowerCase())
      oweFinal(core, message, MessageClass.ACK_RECEIVE);
  } else {
    unplace(core, message, null, rowDeleted);
    if (ready && owed) owe(core, message, queue.kind, reason);
  }
  const emitted = retains ? 'retained' : reason;
  core.effects.afterCommit(() =>
    core.emit({ type: 'messageRemoved', path, lookupId: message.lookupId, reason: emitted }),
  );
}

/** Seed 002: a destination queue with retention on (its own or, for a subqueue, its queue's) keeps what is received. */
function retainsReceived(core: Core, queue: QueueRecord): boolean {
  return isDestinationQueue(queue) && core.registry.ownerOf(queue).retention;
}

/**
 * Received messages leave exactly as removeMessage(m, 'received') makes each leave — journal copies,
 * acknowledgments, counters and events, message by message in order — but the rows of those not retained are
 * deleted first in one statement per table (runs of consecutive lookup IDs: a stream's round or a receiveBatch
 * takes them in queue order), instead of a DELETE each (issue 11). Throws, as a single removal would, when one
 * of them is gone (its queue was deleted meanwhile); the unit of work then leaves every one where it was.
 */
export function removeReceived(core: Core, messages: readonly StoredMessage[]): void {
  if (messages.length < 2) {
    for (const m of messages) removeMessage(core, m, 'received');
    return;
  }
  const deleted = new Set<StoredMessage>();
  for (const table of ['main', 'mem'] as const) {
    const rows = messages.filter((m) => {
      const queue = core.registry.get(m.queueId);
      return m.table === table && queue !== undefined && !retainsReceived(core, queue);
    });
    if (rows.length === 0) continue;
    const removed = core.store.messages.removeMany(
      table,
      rows.map((m) => m.lookupId),
    );
    if (removed !== rows.length)
      throw new QkError('QUEUE_DELETED', 'A message was removed (its queue was deleted) while it was being received.');
    for (const m of rows) deleted.add(m);
  }
  for (const m of messages) removeMessage(core, m, 'received', true, deleted.has(m));
}

/**
 * Negative acknowledgments and dead letters owed by a ready message that leaves a queue of `kind` without
 * being received (the queue itself may be gone: a purge's rows are deleted after it, reclaimer.ts).
 */
export function owe(core: Core, message: StoredMessage, kind: QueueKind, reason: MessageRemovalReason): void {
  const queue = { kind };
  if (queue.kind === 'outgoing') {
    // R-P6: purged (or deleted by an administrator) before it reached its destination.
    if (reason === 'purged' || reason === 'deleted') leftUnreceived(core, message, MessageClass.NACK_PURGED);
    if (reason === 'expired') failDelivery(core, message, outgoingExpiryClass(message));
    return;
  }
  if (!isDestinationQueue(queue)) return;
  switch (reason) {
    // R-P3: purge never journals (R-P4). An administrator's delete of one message is a purge of one.
    case 'purged':
    case 'deleted':
      leftUnreceived(core, message, MessageClass.NACK_Q_PURGED);
      return;
    case 'queueDeleted':
      leftUnreceived(core, message, MessageClass.NACK_Q_DELETED); // R-Q1
      return;
    case 'rejected':
      leftUnreceived(core, message, MessageClass.NACK_RECEIVE_REJECTED); // R-S8
      return;
    case 'expired':
      failDelivery(core, message, MessageClass.NACK_RECEIVE_TIMEOUT); // R-X7; expiry never journals (R-T2)
      return;
    default:
      return;
  }
}

/**
 * A message that leaves its queue never received: the negative acknowledgment it asked for (R-A4), and for a
 * transactional one its dead letter, since its source never gets the confirmation (R-D2, R-D3). A
 * nontransactional one is not dead-lettered (R-P5: native MSMQ does not).
 */
function leftUnreceived(core: Core, message: StoredMessage, failureClass: number): void {
  acknowledge(core, message, failureClass);
  if (message.transactional) deadLetter(core, message, failureClass);
}

/** R-X6/R-X7: which timer ran out first for a message still waiting to leave this computer. */
function outgoingExpiryClass(message: StoredMessage): number {
  const { reachQueueBy, receiveBy } = timerDeadlines(message);
  return receiveBy < reachQueueBy ? MessageClass.NACK_RECEIVE_TIMEOUT_AT_SENDER : MessageClass.NACK_REACH_QUEUE_TIMEOUT;
}

/**
 * Journal copy of a received message: the queue's journal when target journaling is on (R-T1), otherwise the
 * computer journal when the message asked for it and was sent from here (R-J2) — never both (R-J3). A full
 * journal drops the copy silently (R-T4, R-J5).
 */
function journalReceived(core: Core, message: StoredMessage, queue: QueueRecord): void {
  const draft = draftOf(message);
  if (queue.journal) {
    const journal = core.registry.journalOf(queue.id);
    // R-T6: a queue journal keeps the original arrival time.
    if (journal && copyHasRoom(core, journal, message.size))
      place(core, draft, journal, { arrivedMs: message.arrivedMs });
    return;
  }
  if ((message.journal & 2) !== 0 && message.sourceMachineId === core.identity.id) {
    const computerJournal = core.registry.system('JOURNAL');
    if (copyHasRoom(core, computerJournal, message.size)) place(core, draft, computerJournal);
  }
}

/**
 * Messages of outgoing queues that their next hop has stored: what removeMessage(m, 'forwarded') does for each
 * (a forwarded message owes nothing here; its journal copy is the sender's to make, R-J1), in one statement
 * per table. Throws, as a single removal would, when one of them is gone (its queue was deleted).
 */
export function removeForwarded(core: Core, messages: readonly StoredMessage[]): void {
  const byQueue = new Map<number, StoredMessage[]>();
  for (const m of messages) {
    const list = byQueue.get(m.queueId);
    if (list) list.push(m);
    else byQueue.set(m.queueId, [m]);
  }
  for (const [queueId, list] of byQueue) {
    const queue = core.registry.get(queueId);
    if (!queue) continue;
    for (const table of ['main', 'mem'] as const) {
      const ids = list.filter((m) => m.table === table).map((m) => m.lookupId);
      if (ids.length > 0 && core.store.messages.removeMany(table, ids) !== ids.length)
        throw new QkError('QUEUE_DELETED', `A message of '${core.registry.pathOf(queue)}' was removed meanwhile.`);
    }
    const n = list.length;
    let bytes = 0;
    let retained = 0;
    for (const m of list) {
      bytes += m.size;
      if (m.status !== MessageStatus.READY) retained += 1;
    }
    core.registry.count(queueId, -n, -bytes, -retained);
    core.traffic(queueId, 0, n, -n);
    core.effects.onRollback(() => {
      core.registry.count(queueId, n, bytes, retained);
      core.traffic(queueId, 0, -n, n);
    });
    const path = core.registry.pathOf(queue);
    core.effects.afterCommit(() => {
      core.touched(queueId);
      for (const m of list) core.emit({ type: 'messageRemoved', path, lookupId: m.lookupId, reason: 'forwarded' });
    });
  }
}
