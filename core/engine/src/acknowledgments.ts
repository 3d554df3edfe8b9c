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
import type { Draft } from './drafts.js';
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
 * Sends the acknowledgment of class `classCode` about `original` to its administration queue, if its
 * acknowledgment level asks for it (R-A6 contents; R-A7 same delivery). A full or missing administration
 * queue drops it silently: acknowledgments never fail the operation that caused them.
 */
export function acknowledge(core: Core, original: Original, classCode: number): void {
  if (!original.adminQueue || !wantsAcknowledgment(original.ack, classCode)) return;
  const adminQueue = resolveDestination(core, original.adminQueue);
  if (!adminQueue) return;
  const body = isNackClass(classCode) ? original.body : Buffer.alloc(0);
  if (!copyHasRoom(core, adminQueue, body.length)) return;
  const ack: Draft = {
    priority: original.priority,
    msgId: formatMessageId({ computerGuid: core.identity.id, sequence: core.sequences.nextMessageSequence() }),
    classCode,
    label: original.label,
    body,
    size: body.length,
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
    sentMs: core.clock.now(),
    ttrq: Limits.INFINITE,
    ttbr: null,
    transactional: false,
    conversation: null,
  };
  place(core, ack, adminQueue);
}

/**
 * Dead-letters `original` with its class rewritten to the failure class (R-D4): nontransactional messages
 * with MQMSG_DEADLETTER to DEADLETTER$ (R-D1); transactional ones to XACTDEADLETTER$ when asked or when
 * XactDeadLetterAlways is 1 (R-D2, R-D3). The copy is dropped when the dead-letter queue is full (R-D6).
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
    queue = core.registry.system('DEADXACT');
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

/** A failed delivery: the negative acknowledgment (R-A5 / R-A4) and the dead letter its flags ask for. */
export function failDelivery(core: Core, original: Original, failureClass: number): void {
  acknowledge(core, original, failureClass);
  deadLetter(core, original, failureClass);
}
