/**
 * The engine's transit messages to and from the peer link's wire formats (core/api peer-link.ts): protocol 1's
 * one JSON object per message, and protocol 2's columns, which cost each end a fraction of the objects; protocol
 * 3 sends the same columns with the bodies as raw bytes beside the call instead of base64 inside it.
 */
import {
  packedBodyBytes,
  parseDeliverAnswer,
  type DeliverAnswer,
  type PackedDelivery,
  type WireMessage,
} from '@qk/api';
import type { DeliveryOutcome, TransitMessage, TransitSequence } from '@qk/engine';
import { QkError } from '@qk/model';

export function toWire(m: TransitMessage): WireMessage {
  return {
    id: m.msgId,
    classCode: m.classCode,
    label: m.label,
    bodyBase64: m.body.toString('base64'),
    priority: m.priority,
    recoverable: m.recoverable,
    journal: m.journal,
    acknowledge: m.ack,
    adminQueue: m.adminQueue,
    responseQueue: m.responseQueue,
    destinationQueue: m.destQueue,
    correlationId: m.correlationId,
    appSpecific: m.appSpecific,
    sourceMachine: m.sourceMachine,
    sourceMachineId: m.sourceMachineId,
    sentTime: new Date(m.sentMs).toISOString(),
    reachQueueWithinMs: m.reachQueueWithinMs,
    receiveWithinMs: m.receiveWithinMs,
    timeToReachQueue: m.ttrq,
    timeToBeReceived: m.ttbr,
    hops: m.hops,
    transactional: m.transactional,
    sequence: m.sequence,
    conversation: m.conversation,
  };
}

/** A send time the source wrote badly is shown as the arrival: timers never depend on it (R-X2). */
function sentMsOf(sentTime: string): number {
  const sentMs = Date.parse(sentTime);
  return Number.isNaN(sentMs) ? Date.now() : sentMs;
}

export function fromWire(w: WireMessage): TransitMessage {
  return {
    msgId: w.id,
    classCode: w.classCode,
    label: w.label,
    body: Buffer.from(w.bodyBase64, 'base64'),
    priority: w.priority,
    recoverable: w.recoverable,
    journal: w.journal,
    ack: w.acknowledge,
    adminQueue: w.adminQueue,
    responseQueue: w.responseQueue,
    destQueue: w.destinationQueue,
    correlationId: w.correlationId,
    appSpecific: w.appSpecific,
    sourceMachine: w.sourceMachine,
    sourceMachineId: w.sourceMachineId,
    sentMs: sentMsOf(w.sentTime),
    reachQueueWithinMs: w.reachQueueWithinMs,
    receiveWithinMs: w.receiveWithinMs,
    ttrq: w.timeToReachQueue,
    ttbr: w.timeToBeReceived,
    hops: w.hops,
    transactional: w.transactional,
    sequence: w.sequence,
    conversation: w.conversation,
  };
}

// ── Protocol 2: packed deliveries ─────────────────────────────────────────────────────────────────────────

const same = <T>(a: T, b: T): boolean => a === b;

const sameSequence = (a: TransitSequence | null, b: TransitSequence | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.stream === b.stream &&
    a.number === b.number &&
    a.group === b.group &&
    a.previous === b.previous);

/** One value when every message has it (most fields of a lease: one queue, one sender), else a column. */
function column<T>(
  messages: readonly TransitMessage[],
  get: (m: TransitMessage) => T,
  equal: (a: T, b: T) => boolean = same,
): T | T[] {
  const first = get(messages[0] as TransitMessage);
  for (let i = 1; i < messages.length; i++)
    if (!equal(first, get(messages[i] as TransitMessage))) return messages.map(get);
  return first;
}

const isoTime = (ms: number): string => new Date(ms).toISOString();

/**
 * Each of a column's values converted, a run of equal values once: messages sent together share their send
 * time, and formatting or parsing it was most of what packing cost.
 */
function convertRuns<T, R>(values: readonly T[], convert: (value: T) => R): R[] {
  const out = new Array<R>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as T;
    out[i] = i > 0 && value === values[i - 1] ? (out[i - 1] as R) : convert(value);
  }
  return out;
}

/**
 * A lease as peerDeliverPacked carries it (at least one message). With `attach` (protocol 3) the bodies are
 * joined as they are and handed to it, and the call names the attachment number it returns: base64 and JSON
 * scanning of the bodies were a twentieth of what a message cost the sending computer. Without it
 * (protocol 2) they are one base64 text.
 */
export function packDelivery(messages: readonly TransitMessage[], attach?: (bodies: Buffer) => number): PackedDelivery {
  const sent = column(messages, (m) => m.sentMs);
  const bodies = Buffer.concat(messages.map((m) => m.body));
  return {
    count: messages.length,
    fields: {
      id: column(messages, (m) => m.msgId),
      classCode: column(messages, (m) => m.classCode),
      label: column(messages, (m) => m.label),
      priority: column(messages, (m) => m.priority),
      recoverable: column(messages, (m) => m.recoverable),
      journal: column(messages, (m) => m.journal),
      acknowledge: column(messages, (m) => m.ack),
      adminQueue: column(messages, (m) => m.adminQueue),
      responseQueue: column(messages, (m) => m.responseQueue),
      destinationQueue: column(messages, (m) => m.destQueue),
      correlationId: column(messages, (m) => m.correlationId),
      appSpecific: column(messages, (m) => m.appSpecific),
      sourceMachine: column(messages, (m) => m.sourceMachine),
      sourceMachineId: column(messages, (m) => m.sourceMachineId),
      sentTime: Array.isArray(sent) ? convertRuns(sent, isoTime) : isoTime(sent),
      reachQueueWithinMs: column(messages, (m) => m.reachQueueWithinMs),
      receiveWithinMs: column(messages, (m) => m.receiveWithinMs),
      timeToReachQueue: column(messages, (m) => m.ttrq),
      timeToBeReceived: column(messages, (m) => m.ttbr),
      hops: column(messages, (m) => m.hops),
      transactional: column(messages, (m) => m.transactional),
      sequence: column(messages, (m) => m.sequence, sameSequence),
      conversation: column(messages, (m) => m.conversation),
    },
    bodies: attach ? { attachment: attach(bodies) } : bodies.toString('base64'),
    bodySizes: column(messages, (m) => m.body.length),
  };
}

/** Message `i`'s value of a field that is shared or a column (no field is itself an array). */
const at = <T>(value: T | T[], i: number): T => (Array.isArray(value) ? (value[i] as T) : value);

/**
 * All bodies as one buffer: the base64 text decoded once, or the attachment as it came (its length checked
 * here, since the call alone could not show it).
 */
function allBodies(d: PackedDelivery, attachment: Buffer | undefined): Buffer {
  if (typeof d.bodies === 'string') return Buffer.from(d.bodies, 'base64');
  const n = d.bodies.attachment;
  if (!attachment)
    throw new QkError('INVALID_PARAMETER', `Invalid input: bodies: attachment ${n} did not arrive on this session.`);
  const bytes = packedBodyBytes(d);
  if (attachment.length !== bytes)
    throw new QkError(
      'INVALID_PARAMETER',
      `Invalid input: bodies: attachment ${n} has ${attachment.length} bytes, not the ${bytes} of bodySizes.`,
    );
  return attachment;
}

/** Each message's body, a view of the whole: nothing is copied per message. */
function bodiesOf(d: PackedDelivery, attachment: Buffer | undefined): Buffer[] {
  const all = allBodies(d, attachment);
  const bodies = new Array<Buffer>(d.count);
  let offset = 0;
  for (let i = 0; i < d.count; i++) {
    const end = offset + at(d.bodySizes, i);
    bodies[i] = all.subarray(offset, end);
    offset = end;
  }
  // The schema held the text to the sizes' length; a character outside base64's alphabet decodes to less.
  if (offset !== all.length) throw new QkError('INVALID_PARAMETER', 'Invalid input: bodies: not base64.');
  return bodies;
}

/**
 * A packed delivery (checked by parsePeerDeliverPacked) as the engine's messages, each built once; `attachment`
 * is the binary frame its bodies name, when they name one (protocol 3).
 */
export function unpackDelivery(d: PackedDelivery, attachment?: Buffer): TransitMessage[] {
  const f = d.fields;
  const sent = Array.isArray(f.sentTime) ? convertRuns(f.sentTime, sentMsOf) : sentMsOf(f.sentTime);
  const bodies = bodiesOf(d, attachment);
  const messages = new Array<TransitMessage>(d.count);
  for (let i = 0; i < d.count; i++) {
    messages[i] = {
      msgId: at(f.id, i),
      classCode: at(f.classCode, i),
      label: at(f.label, i),
      body: bodies[i] as Buffer,
      priority: at(f.priority, i),
      recoverable: at(f.recoverable, i),
      journal: at(f.journal, i),
      ack: at(f.acknowledge, i),
      adminQueue: at(f.adminQueue, i),
      responseQueue: at(f.responseQueue, i),
      destQueue: at(f.destinationQueue, i),
      correlationId: at(f.correlationId, i),
      appSpecific: at(f.appSpecific, i),
      sourceMachine: at(f.sourceMachine, i),
      sourceMachineId: at(f.sourceMachineId, i),
      sentMs: at(sent, i),
      reachQueueWithinMs: at(f.reachQueueWithinMs, i),
      receiveWithinMs: at(f.receiveWithinMs, i),
      ttrq: at(f.timeToReachQueue, i),
      ttbr: at(f.timeToBeReceived, i),
      hops: at(f.hops, i),
      transactional: at(f.transactional, i),
      sequence: at(f.sequence, i),
      conversation: at(f.conversation, i),
    };
  }
  return messages;
}

function sameOutcome(a: DeliveryOutcome, b: DeliveryOutcome): boolean {
  if (a.outcome === 'refused') return b.outcome === 'refused' && a.classCode === b.classCode;
  if (a.outcome === 'retry') return b.outcome === 'retry' && a.reason === b.reason;
  return a.outcome === b.outcome;
}

/** The answer to a packed delivery: one outcome for all when they agree, as they mostly do (every one stored). */
export function packOutcomes(outcomes: DeliveryOutcome[]): DeliverAnswer {
  const first = outcomes[0];
  return first !== undefined && outcomes.every((o) => sameOutcome(o, first)) ? { every: first } : { outcomes };
}

/** The outcome of each of `count` messages from either deliver answer; null when it is malformed or miscounted. */
export function outcomesOf(answer: unknown, count: number): DeliveryOutcome[] | null {
  let read: DeliverAnswer;
  try {
    read = parseDeliverAnswer(answer);
  } catch {
    return null;
  }
  if ('every' in read) return new Array<DeliveryOutcome>(count).fill(read.every);
  return read.outcomes.length === count ? read.outcomes : null;
}
