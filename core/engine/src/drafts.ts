/**
 * Send-time validation (R-V0a, R-V0b, R-E6) and the draft of a message before it reaches a queue. Every
 * check that MSMQ reports with its own error name happens here, before anything is stored.
 */
import {
  Delivery,
  formatMessageId,
  Limits,
  MESSAGE_HEADER_BYTES,
  MessageClass,
  parseCorrelationId,
  parseQueueName,
  QkError,
  type SendProperties,
} from '@qk/model';
import type { MessageRecord } from '@qk/store';

/** A message with everything but its place in a queue. */
export type Draft = Omit<MessageRecord, 'lookupId' | 'queueId' | 'status' | 'arrivedMs' | 'expiresMs'>;

export interface DraftContext {
  computerName: string;
  computerId: string;
  nowMs: number;
  /** LongLiveTime: the default time-to-reach-queue. */
  longLiveTimeS: number;
  maxMessageSize: number;
  nextSequence: () => number;
}

function illegalValue(what: string, value: unknown, range: string): QkError {
  return new QkError('ILLEGAL_PROPERTY_VALUE', `${what} ${JSON.stringify(value)} is out of range (${range}).`);
}

function checkUint(what: string, value: number | undefined, max: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > max))
    throw illegalValue(what, value, `0..${max}`);
}

/** Decodes the body of a send: text, or base64 bytes. */
export function decodeBody(props: SendProperties): Buffer {
  if (props.body !== undefined && props.bodyBase64 !== undefined) {
    throw new QkError('PROPERTIES_CONFLICT', 'Give the body as text or as base64, not both.');
  }
  if (props.bodyBase64 !== undefined) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(props.bodyBase64) || props.bodyBase64.length % 4 === 1) {
      throw new QkError('INVALID_PARAMETER', 'bodyBase64 is not valid base64.');
    }
    return Buffer.from(props.bodyBase64, 'base64');
  }
  return Buffer.from(props.body ?? '', 'utf8');
}

/** Throws ILLEGAL_FORMATNAME / ILLEGAL_QUEUE_PATHNAME for a queue name that cannot be parsed. */
function checkQueueName(text: string | undefined): string | null {
  if (text === undefined || text === '') return null;
  parseQueueName(text);
  return text.trim();
}

/** The parts of a message that decide the room it takes. */
type Sized = Pick<
  Draft,
  'body' | 'label' | 'destQueue' | 'adminQueue' | 'responseQueue' | 'conversation' | 'deadLetterQueue'
>;

/**
 * Bytes a message takes in its queue, against quotas and MaxMessageSize alike: the fixed header
 * (MESSAGE_HEADER_BYTES), the body, and its strings in UTF-16 as MSMQ keeps them. The correlation ID is part
 * of the fixed header.
 */
export function storedSize(m: Sized): number {
  const chars =
    m.label.length +
    m.destQueue.length +
    (m.adminQueue?.length ?? 0) +
    (m.responseQueue?.length ?? 0) +
    (m.conversation?.length ?? 0) +
    (m.deadLetterQueue?.length ?? 0);
  return MESSAGE_HEADER_BYTES + m.body.length + 2 * chars;
}

/**
 * Validates send properties and builds the draft, with a new message ID. `transactional` forces priority 0
 * and recoverable delivery (R-E6).
 */
export function makeDraft(
  props: SendProperties,
  destination: string,
  transactional: boolean,
  ctx: DraftContext,
): Draft {
  const label = props.label ?? '';
  if (label.length > Limits.MAX_MESSAGE_LABEL_LENGTH) {
    throw new QkError(
      'LABEL_TOO_LONG',
      `The label has ${label.length} characters; at most ${Limits.MAX_MESSAGE_LABEL_LENGTH} are allowed.`,
    );
  }
  const priority = props.priority ?? Limits.DEFAULT_PRIORITY;
  if (!Number.isInteger(priority) || priority < Limits.MIN_PRIORITY || priority > Limits.MAX_PRIORITY) {
    throw illegalValue('Priority', priority, '0..7');
  }
  checkUint('Journal', props.journal, 3);
  checkUint('Acknowledge', props.acknowledge, 0x0f);
  checkUint('Time-to-reach-queue', props.timeToReachQueue, Limits.INFINITE);
  checkUint('Time-to-be-received', props.timeToBeReceived, Limits.INFINITE);
  checkUint('AppSpecific', props.appSpecific, Limits.INFINITE);
  const correlationId =
    props.correlationId === undefined || props.correlationId === ''
      ? null
      : formatMessageId(parseCorrelationId(props.correlationId));
  const adminQueue = checkQueueName(props.adminQueue);
  const responseQueue = checkQueueName(props.responseQueue);
  const deadLetterQueue = checkQueueName(props.deadLetterQueue);
  const body = decodeBody(props);
  const conversation = props.conversation ?? null;
  const size = storedSize({
    body,
    label,
    destQueue: destination,
    adminQueue,
    responseQueue,
    conversation,
    deadLetterQueue,
  });
  if (size > ctx.maxMessageSize) {
    throw new QkError(
      'INSUFFICIENT_RESOURCES',
      `The message is ${size.toLocaleString('en-US')} bytes with its properties; MaxMessageSize allows ${ctx.maxMessageSize.toLocaleString('en-US')}.`,
    );
  }
  // R-X*: unset, LONG_LIVED and INFINITE all mean "the enterprise default" for TTRQ; TTBR defaults to no limit.
  const ttrqGiven = props.timeToReachQueue;
  const ttrq = ttrqGiven === undefined || ttrqGiven >= Limits.LONG_LIVED ? ctx.longLiveTimeS : ttrqGiven;
  const ttbrGiven = props.timeToBeReceived;
  const ttbr = ttbrGiven === undefined || ttbrGiven >= Limits.INFINITE ? null : ttbrGiven;
  return {
    priority: transactional ? 0 : priority,
    msgId: formatMessageId({ computerGuid: ctx.computerId, sequence: ctx.nextSequence() }),
    classCode: MessageClass.NORMAL,
    label,
    body,
    size,
    bodySize: body.length,
    delivery: transactional || props.delivery === 'recoverable' ? Delivery.RECOVERABLE : Delivery.EXPRESS,
    journal: props.journal ?? 0,
    ack: props.acknowledge ?? 0,
    adminQueue,
    responseQueue,
    destQueue: destination,
    correlationId,
    appSpecific: props.appSpecific ?? 0,
    sourceMachine: ctx.computerName,
    sourceMachineId: ctx.computerId,
    sentMs: ctx.nowMs,
    timerBaseMs: ctx.nowMs,
    ttrq,
    ttbr,
    transactional,
    conversation,
    moveCount: 0,
    abortCount: 0,
    lastMoveMs: null,
    deadLetterQueue,
  };
}

/**
 * When a message's timers run out (R-X1–R-X3): ms since the epoch, Infinity for "never". They count from the
 * timer base: the send on this computer, or the arrival of a message handed over with what remained (R-X2).
 */
export function timerDeadlines(m: Pick<Draft, 'timerBaseMs' | 'ttrq' | 'ttbr'>): {
  reachQueueBy: number;
  receiveBy: number;
} {
  return {
    reachQueueBy: m.ttrq >= Limits.LONG_LIVED ? Infinity : m.timerBaseMs + m.ttrq * 1000,
    receiveBy: m.ttbr === null ? Infinity : m.timerBaseMs + m.ttbr * 1000,
  };
}

/**
 * What remains of a message's timers now, in whole seconds, as a hop hands it on (R-X2) and a receive reports
 * it (§1.1). Rounded up, so a message that has not expired never shows 0; null TTBR stays unlimited.
 */
export function remainingTimers(
  m: Pick<Draft, 'timerBaseMs' | 'ttrq' | 'ttbr'>,
  nowMs: number,
): { ttrq: number; ttbr: number | null } {
  const { reachQueueBy, receiveBy } = timerDeadlines(m);
  const left = (deadline: number): number => Math.max(0, Math.ceil((deadline - nowMs) / 1000));
  return {
    ttrq: reachQueueBy === Infinity ? m.ttrq : left(reachQueueBy),
    ttbr: receiveBy === Infinity ? null : left(receiveBy),
  };
}
