/**
 * Acknowledgments (R-A1–R-A7, R-A11) and dead letters (R-D1–R-D6): both are messages the queue manager
 * makes about another message.
 */
import {
  Acknowledgment,
  Delivery,
  formatMessageId,
  isNackClass,
  isReceiveClass,
  Limits,
  MessageClass,
  parseQueueName,
} from '@qk/model';
import type { MessageRecord, QueueRecord } from '@qk/store';
import type { Core } from './core.js';
import { storedSize, type Draft } from './drafts.js';
import { copyHasRoom } from './quotas.js';
import { draftOf, place } from './placement.js';
import { oweFinal } from './network/owed.js';

type Original = Draft | MessageRecord;

/** R-A11: whether the acknowledgment level asks for this class. */
export function wantsAcknowledgment(level: number, classCode: number): boolean {
  if (classCode === MessageClass.ACK_REACH_QUEUE) return (level & Acknowledgment.POS_ARRIVAL) !== 0;
  if (classCode === MessageClass.ACK_RECEIVE) return (level & Acknowledgment.POS_RECEIVE) !== 0;
  if (!isNackClass(classCode)) return false;
  return isReceiveClass(classCode)
    ? (level & Acknowledgment.NEG_RECEIVE) !== 0
    : (level & Acknowledgment.NEG_ARRIVAL) !== 0;
}

/** Where an administration or response queue name leads: a local queue, an outgoing queue, or nowhere. */
export function resolveDestination(core: Core, text: string): QueueRecord | undefined {
  let ref;
  try {
    ref = parseQueueName(text);
  } catch {
    // Names are checked at send; one that does not parse (an older or foreign message) leads nowhere.
    return undefined;
  }
  if (core.registry.isLocal(ref.computer)) return core.registry.findLocal(ref);
  let remote;
  try {
    remote = core.registry.remoteTarget(ref, text);
  } catch {
    return undefined; // a name no other computer can be reached by (PRIVATE=<guid> of another computer)
  }
  return core.outgoingQueue(remote.formatName, remote.key);
}

/**
 * Where an acknowledgment can be delivered: an application queue of this computer that is not transactional
 * (an acknowledgment is a nontransactional message, so a transactional administration queue never gets it,
 * R-M1), or the outgoing queue of another computer's administration queue.
 */
function acceptsAcknowledgments(queue: QueueRecord): boolean {
  if (queue.kind === 'outgoing') return true;
  return (queue.kind === 'private' || queue.kind === 'public') && !queue.transactional;
}

/**
 * Sends the acknowledgment of class `classCode` about `original` to its administration queue, if its
 * acknowledgment level asks for it (R-A6 contents; R-A7 same delivery). A full, missing or transactional
 * administration queue drops it silently: acknowledgments never fail the operation that caused them, and
 * never cause acknowledgments or dead letters of their own.
 */
export function acknowledge(core: Core, original: Original, classCode: number): void {
  if (!original.adminQueue || !wantsAcknowledgment(original.ack, classCode)) return;
  const adminQueue = resolveDestination(core, original.adminQueue);
  if (!adminQueue || !acceptsAcknowledgments(adminQueue)) return;
  const body = isNackClass(classCode) ? original.body : Buffer.alloc(0);
  const now = core.clock.now();
  const ack: Draft = {
    priority: original.priority,
    msgId: formatMessageId({ computerGuid: core.identity.id, sequence: core.sequences.nextMessageSequence() }),
    classCode,
    label: original.label,
    body,
    size: 0,
    bodySize: body.length,
    delivery: original.delivery,
    journal: original.journal,
    ack: Acknowledgment.NONE,
    adminQueue: null,
    responseQueue: original.destQueue,
    destQueue: original.adminQueue,
    correlationId: original.msgId,
    appSpecific: original.appSpecific,
    sourceMachine: core.identity.name,
    sourceMachineId: core.identity.id,
    sentMs: now,
    timerBaseMs: now,
    ttrq: Limits.INFINITE,
    ttbr: null,
    transactional: false,
    conversation: null,
    moveCount: 0,
    abortCount: 0,
    lastMoveMs: null,
    deadLetterQueue: null,
  };
  ack.size = storedSize(ack);
  if (!copyHasRoom(core, adminQueue, ack.size)) return;
  place(core, ack, adminQueue);
}

/**
 * Dead-letters `original` with its class rewritten to the failure class (R-D4): nontransactional messages
 * with MQMSG_DEADLETTER to DEADLETTER$ of this computer, the one that failed (R-D1); transactional ones to
 * the transactional dead-letter queue of their source computer when asked or when XactDeadLetterAlways is 1
 * (R-D2, R-D3) — their per-application dead-letter queue when they name one (R-D9). The copy is dropped when
 * the dead-letter queue is full (R-D6).
 */
export function deadLetter(core: Core, original: Original, failureClass: number): void {
  // R-D2: a transactional message from another computer is dead-lettered by its source, told here.
  if (original.transactional && original.sourceMachineId.toLowerCase() !== core.identity.id.toLowerCase()) {
    oweFinal(core, original, failureClass);
    return;
  }
  const asked = (original.journal & 1) !== 0;
  let queue: QueueRecord;
  if (original.transactional) {
    if (!asked && !core.xactDeadLetterAlways) return;
    // R-D2: only the source keeps it; a computer that received it from another one keeps no copy.
    if (original.sourceMachineId !== core.identity.id) return;
    queue = applicationDeadLetterQueue(core, original) ?? core.registry.system('DEADXACT');
  } else {
    if (!asked) return;
    queue = core.registry.system('DEADLETTER');
  }
  if (!copyHasRoom(core, queue, original.size)) return;
  const draft: Draft = 'lookupId' in original ? draftOf(original) : original;
  place(core, { ...draft, delivery: original.transactional ? Delivery.RECOVERABLE : draft.delivery }, queue, {
    classCode: failureClass,
  });
}

/** R-D9: the local transactional queue a dead-lettered transactional message names, while it still is one. */
function applicationDeadLetterQueue(core: Core, original: Original): QueueRecord | undefined {
  if (!original.deadLetterQueue || (original.journal & 1) === 0) return undefined;
  let ref;
  try {
    ref = parseQueueName(original.deadLetterQueue);
  } catch {
    return undefined;
  }
  const queue = core.registry.isLocal(ref.computer) ? core.registry.findLocal(ref) : undefined;
  if (!queue || (queue.kind !== 'private' && queue.kind !== 'public') || !queue.transactional) return undefined;
  return queue;
}

/** A failed delivery: the negative acknowledgment (R-A5 / R-A4) and the dead letter its flags ask for. */
export function failDelivery(core: Core, original: Original, failureClass: number): void {
  acknowledge(core, original, failureClass);
  deadLetter(core, original, failureClass);
}
