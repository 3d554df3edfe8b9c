/** Puts a message row into a queue: the one primitive every arrival, copy and acknowledgment goes through. */
import { Delivery, MessageStatus, QkError } from '@qk/model';
import type { MessageRecord, QueueRecord, StoredMessage } from '@qk/store';
import type { Core } from './core.js';
import type { Draft } from './drafts.js';

export interface PlaceOptions {
  status?: number;
  /** Defaults to now (arrival time in this queue). */
  arrivedMs?: number;
  expiresMs?: number | null;
  classCode?: number;
  /**
   * Into an outgoing queue: the network is told once committed (Core.placedOutgoing), in the same after-commit
   * step as the events rather than one more per message.
   */
  outgoing?: { inTransit: boolean };
}

/** Inserts the message with a new lookup ID (R-L1); counters change now, events wait for the commit. */
export function place(core: Core, draft: Draft, queue: QueueRecord, options: PlaceOptions = {}): StoredMessage {
  const status = options.status ?? MessageStatus.READY;
  const table = draft.delivery === Delivery.RECOVERABLE ? 'main' : 'mem';
  // Every field spelled out: a spread with overrides leaves V8 a dictionary-mode object that is slow to
  // read on the insert path (measured: it cost more than the SQLite insert itself).
  const stored: StoredMessage = {
    table,
    lookupId: core.sequences.nextLookupId(draft.priority),
    queueId: queue.id,
    status,
    priority: draft.priority,
    msgId: draft.msgId,
    classCode: options.classCode ?? draft.classCode,
    label: draft.label,
    body: draft.body,
    size: draft.size,
    bodySize: draft.bodySize,
    delivery: draft.delivery,
    journal: draft.journal,
    ack: draft.ack,
    adminQueue: draft.adminQueue,
    responseQueue: draft.responseQueue,
    destQueue: draft.destQueue,
    correlationId: draft.correlationId,
    appSpecific: draft.appSpecific,
    sourceMachine: draft.sourceMachine,
    sourceMachineId: draft.sourceMachineId,
    sentMs: draft.sentMs,
    arrivedMs: options.arrivedMs ?? core.clock.now(),
    timerBaseMs: draft.timerBaseMs,
    ttrq: draft.ttrq,
    ttbr: draft.ttbr,
    expiresMs: options.expiresMs ?? null,
    transactional: draft.transactional,
    conversation: draft.conversation,
    moveCount: draft.moveCount,
    abortCount: draft.abortCount,
    lastMoveMs: draft.lastMoveMs,
    deadLetterQueue: draft.deadLetterQueue,
  };
  core.store.messages.insert(table, stored);
  const retained = status === MessageStatus.READY ? 0 : 1;
  core.registry.count(queue.id, 1, stored.size, retained);
  core.traffic(queue.id, 1, 0, 1);
  core.effects.onRollback(() => {
    core.registry.count(queue.id, -1, -stored.size, -retained);
    core.traffic(queue.id, -1, 0, -1);
  });
  const outgoing = options.outgoing;
  core.effects.afterCommit(() => {
    if (outgoing) core.placedOutgoing(stored, outgoing.inTransit);
    core.touched(queue.id);
    core.emit({
      type: 'messageArrived',
      path: core.registry.pathOf(queue),
      lookupId: stored.lookupId,
      id: stored.msgId,
      classCode: stored.classCode,
    });
    if (status === MessageStatus.READY) core.wake(queue.id, stored);
  });
  return stored;
}

/** Removes a message row; `retain` keeps it with status 0 instead (retention, seed 002). */
export function unplace(
  core: Core,
  message: StoredMessage,
  retainAs: number | null = null,
  /** Its row was deleted already, with others in one statement (removeReceived): only the bookkeeping is left. */
  rowDeleted = false,
): void {
  const queue = core.registry.get(message.queueId);
  if (retainAs !== null) {
    core.store.messages.setStatus(message.table, message.lookupId, retainAs);
    const wasRetained = message.status === MessageStatus.READY ? 0 : 1;
    const delta = 1 - wasRetained;
    core.registry.count(message.queueId, 0, 0, delta);
    // A retained message was received: it left the ready ones though it stays in the queue.
    core.traffic(message.queueId, 0, delta, 0);
    core.effects.onRollback(() => {
      core.registry.count(message.queueId, 0, 0, -delta);
      core.traffic(message.queueId, 0, -delta, 0);
    });
  } else {
    if (!rowDeleted && !core.store.messages.remove(message.table, message.lookupId)) {
      throw new QkError(
        'QUEUE_DELETED',
        `The message ${message.msgId} was removed (its queue was deleted) while it was being received.`,
      );
    }
    const retained = message.status === MessageStatus.READY ? 0 : 1;
    core.registry.count(message.queueId, -1, -message.size, -retained);
    core.traffic(message.queueId, 0, 1, -1);
    core.effects.onRollback(() => {
      core.registry.count(message.queueId, 1, message.size, retained);
      core.traffic(message.queueId, 0, -1, 1);
    });
  }
  if (queue) core.effects.afterCommit(() => core.touched(queue.id));
}

/** The draft part of a stored message, for copies (journal, dead letter) and acknowledgments. */
export function draftOf(m: MessageRecord): Draft {
  return {
    priority: m.priority,
    msgId: m.msgId,
    classCode: m.classCode,
    label: m.label,
    body: m.body,
    size: m.size,
    bodySize: m.bodySize,
    delivery: m.delivery,
    journal: m.journal,
    ack: m.ack,
    adminQueue: m.adminQueue,
    responseQueue: m.responseQueue,
    destQueue: m.destQueue,
    correlationId: m.correlationId,
    appSpecific: m.appSpecific,
    sourceMachine: m.sourceMachine,
    sourceMachineId: m.sourceMachineId,
    sentMs: m.sentMs,
    timerBaseMs: m.timerBaseMs,
    ttrq: m.ttrq,
    ttbr: m.ttbr,
    transactional: m.transactional,
    conversation: m.conversation,
    moveCount: m.moveCount,
    abortCount: m.abortCount,
    lastMoveMs: m.lastMoveMs,
    deadLetterQueue: m.deadLetterQueue,
  };
}
