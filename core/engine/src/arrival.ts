/**
 * The arrival path (DESIGN "Many computers"): the one way a message reaches a queue, whether sent here,
 * moved here, or (later) received from another computer. Transactional-type check, quota checks, then
 * enqueue with a positive arrival acknowledgment, or a NACK and a dead letter.
 */
import { MessageClass, QkError } from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { Core } from './core.js';
import { timerDeadlines, type Draft } from './drafts.js';
import { acknowledge, failDelivery } from './acknowledgments.js';
import { machineHasRoom, queueHasRoom } from './quotas.js';
import { place } from './placement.js';
import { enteredOutgoing } from './network/transit.js';

/**
 * Who hands the message over; it decides what a full computer does (R-Q4), and whether a refusal is a failed
 * delivery (a send, an arrival) or leaves the message where it was (an administrator's move or resend).
 */
export type Origin = 'local' | 'network' | 'move' | 'resend';

export type ArrivalOutcome =
  { placed: true; message: StoredMessage } | { placed: false; failureClass: number | null; reason: string };

/** When a message in a queue expires: its TTBR in a destination queue; TTRQ or TTBR, the sooner, while it waits to leave (R-X3). */
export function expiryFor(draft: Draft, queue: QueueRecord): number | null {
  const { reachQueueBy, receiveBy } = timerDeadlines(draft);
  const at = queue.kind === 'outgoing' ? Math.min(reachQueueBy, receiveBy) : receiveBy;
  return at === Infinity ? null : at;
}

/** Delivers a draft to a queue of this computer or to the outgoing queue of a remote one. */
export function arrive(core: Core, draft: Draft, queue: QueueRecord, origin: Origin): ArrivalOutcome {
  if (!machineHasRoom(core, draft.size)) {
    // R-Q4: nothing can be stored; no NACK. A local sender is told; a remote one keeps retrying.
    const message = `The computer quota (MachineQuota ${core.settings.get('MachineQuota').toLocaleString('en-US')} KB) is full; the message was not stored.`;
    if (origin === 'local') throw new QkError('INSUFFICIENT_RESOURCES', message);
    return { placed: false, failureClass: null, reason: message };
  }
  if (queue.kind !== 'outgoing') {
    // R-M1: the send succeeded, the message is not delivered.
    if (draft.transactional && !queue.transactional)
      return refuse(
        core,
        draft,
        origin,
        MessageClass.NACK_NOT_TRANSACTIONAL_Q,
        'a transactional message cannot enter a nontransactional queue',
      );
    if (!draft.transactional && queue.transactional)
      return refuse(
        core,
        draft,
        origin,
        MessageClass.NACK_NOT_TRANSACTIONAL_MSG,
        'a nontransactional message cannot enter a transactional queue',
      );
    // R-Q2: a full queue refuses arrivals.
    if (!queueHasRoom(core, queue, draft.size))
      return refuse(
        core,
        draft,
        origin,
        MessageClass.NACK_Q_EXCEED_QUOTA,
        `the queue quota (${queue.quotaKB} KB) is full`,
      );
  }
  const outgoing = queue.kind === 'outgoing';
  // Relayed messages get a transit row with their hops; a sequence only transactional ones.
  const inTransit = origin === 'network' || draft.transactional;
  const expiresMs = expiryFor(draft, queue);
  const message = place(core, draft, queue, outgoing ? { expiresMs, outgoing: { inTransit } } : { expiresMs });
  // A message that leaves from here takes its place in its stream now (R-E3); relayed ones keep theirs.
  if (outgoing && origin !== 'network') enteredOutgoing(core, message, core.sendGroup.current);
  // R-A2: positive arrival when placed in the destination queue (not when merely waiting to leave).
  if (queue.kind !== 'outgoing') acknowledge(core, draft, MessageClass.ACK_REACH_QUEUE);
  return { placed: true, message };
}

function refuse(core: Core, draft: Draft, origin: Origin, failureClass: number, reason: string): ArrivalOutcome {
  // A move or resend that fails leaves the message where it was: no NACK, no dead letter, nothing lost.
  if (origin !== 'move' && origin !== 'resend') failDelivery(core, draft, failureClass);
  return { placed: false, failureClass, reason };
}
