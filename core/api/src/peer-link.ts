/**
 * The peer link (docs/network.md "Sessions"): what one queue manager calls on another over a TLS session.
 * A separate table from the administrator operations: it is served only on the peer listener, to a trusted
 * peer, never over HTTP. Every message field crosses as data; failures come back as classes (numbers), never
 * reduced to text.
 */
import { z } from 'zod';
import { computerNameProblem } from '@qk/model';
import { Bounds, computerNameSchema, messageIdSchema, queuePathSchema } from './schemas.js';

/** Bumped when a peer could misread the other; a hello with another version is refused. */
export const PEER_PROTOCOL_VERSION = 1;

/** Messages per deliver call, and control items per control call. */
export const PEER_BATCH_MAX = 1_000;

const uint32 = z.number().int().min(0).max(0xffffffff);
const guid = z.string().max(Bounds.GUID_TEXT);
const computer = z.object({ name: computerNameSchema, id: guid });

/** Where a transactional message stands in its sequence (R-E3). */
export const wireSequenceSchema = z.object({
  /** The source's stream for one destination queue (a UUID). */
  stream: z.string().min(1).max(64),
  /** 1, 2, 3, … per stream. */
  number: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  /** Messages of one transaction share a group and are released together (R-E2); null = alone. */
  group: z.string().max(64).nullable(),
});

/** A message as one hop hands it to the next. */
export const wireMessageSchema = z.object({
  id: messageIdSchema,
  classCode: z.number().int().min(0).max(0xffff),
  label: z.string().max(Bounds.MESSAGE_LABEL),
  bodyBase64: z.string().max(Bounds.BODY_BASE64),
  priority: z.number().int().min(0).max(7),
  recoverable: z.boolean(),
  journal: z.number().int().min(0).max(3),
  acknowledge: z.number().int().min(0).max(15),
  adminQueue: queuePathSchema.nullable(),
  responseQueue: queuePathSchema.nullable(),
  destinationQueue: queuePathSchema,
  correlationId: messageIdSchema.nullable(),
  appSpecific: uint32,
  sourceMachine: computerNameSchema,
  sourceMachineId: guid,
  /** The source's own send time (shown, never used for timers). */
  sentTime: z.string().max(Bounds.TIME_TEXT),
  /** Milliseconds left of time-to-reach-queue as the sender measured them; null = the message has none left to count (LONG_LIVED). */
  reachQueueWithinMs: z.number().int().min(0).nullable(),
  /** Milliseconds left of time-to-be-received; null = unlimited. */
  receiveWithinMs: z.number().int().min(0).nullable(),
  /** The timers as sent, in seconds, for display (remaining time is what counts). */
  timeToReachQueue: uint32,
  timeToBeReceived: uint32.nullable(),
  /** Hops made so far (R-H1: 15 at most). */
  hops: z.number().int().min(0).max(255),
  transactional: z.boolean(),
  sequence: wireSequenceSchema.nullable(),
  conversation: z.string().max(Bounds.CONVERSATION).nullable(),
});
export type WireMessage = z.infer<typeof wireMessageSchema>;

/** What the next hop did with one message. */
export const deliveryOutcomeSchema = z.discriminatedUnion('outcome', [
  /** It has it: placed in its queue, failed there with a NACK and dead letter of its own, or stored to forward. */
  z.object({ outcome: z.literal('stored') }),
  /** (Transactional, at the destination.) Placed in sequence: the destination's confirmation (R-E3, R-J4). */
  z.object({ outcome: z.literal('accepted') }),
  /** It had it already (duplicate cache, or a sequence number already accepted): as good as stored/accepted. */
  z.object({ outcome: z.literal('duplicate') }),
  /** It will not take it: the sender fails the delivery with this class (R-D1). */
  z.object({ outcome: z.literal('refused'), classCode: z.number().int().min(0x8000).max(0xffff) }),
  /** Not now (computer quota full R-Q4, offline, out of sequence): send again later. */
  z.object({ outcome: z.literal('retry'), reason: z.string().max(Bounds.LAST_ERROR) }),
]);
export type DeliveryOutcome = z.infer<typeof deliveryOutcomeSchema>;

/** Something one computer owes another about transactional messages, routed like a message (docs/network.md). */
export const controlItemSchema = z.discriminatedUnion('kind', [
  /** The destination accepted a stream through this number (the order acknowledgment, R-E3). */
  z.object({
    kind: z.literal('sequenceAck'),
    to: computer,
    from: computer,
    stream: z.string().min(1).max(64),
    through: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
  /**
   * The final confirmation of one transactional message: ACK_RECEIVE (0x4000) when an application received it,
   * else the class it failed with (R-D2): the source dead-letters on a negative one.
   */
  z.object({
    kind: z.literal('final'),
    to: computer,
    from: computer,
    messageId: messageIdSchema,
    classCode: z.number().int().min(0).max(0xffff),
  }),
]);
export type ControlItem = z.infer<typeof controlItemSchema>;

export const peerLinkOperations = {
  peerHello: {
    input: z.object({ protocol: z.number().int(), name: computerNameSchema, id: guid }),
    output: z.object({ protocol: z.number().int(), name: computerNameSchema, id: guid, routing: z.boolean() }),
    summary: 'Opens a session: the caller names itself; the name must be the one trusted with its certificate.',
  },
  peerDeliver: {
    input: z.object({ messages: z.array(wireMessageSchema).min(1).max(PEER_BATCH_MAX) }),
    output: z.object({ outcomes: z.array(deliveryOutcomeSchema).max(PEER_BATCH_MAX) }),
    summary: 'Hands messages to this computer; one outcome each, sent only once what was stored is durable.',
  },
  peerControl: {
    input: z.object({ items: z.array(controlItemSchema).min(1).max(PEER_BATCH_MAX) }),
    output: z.object({}),
    summary:
      'Confirmations for a computer (this one, or one this routing server forwards to); durable before the reply.',
  },
} as const;

export type PeerLinkOperationName = keyof typeof peerLinkOperations;
export type PeerLinkInput<N extends PeerLinkOperationName> = z.output<(typeof peerLinkOperations)[N]['input']>;
export type PeerLinkOutput<N extends PeerLinkOperationName> = z.output<(typeof peerLinkOperations)[N]['output']>;

export function isPeerLinkOperation(name: string): name is PeerLinkOperationName {
  return Object.hasOwn(peerLinkOperations, name);
}

// ── peerDeliver's input, checked by hand ──────────────────────────────────────────────────────────────────

const WIRE_KEYS = Object.keys(wireMessageSchema.shape).length;
const SEQUENCE_KEYS = Object.keys(wireSequenceSchema.shape).length;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number): boolean => typeof v === 'string' && v.length <= max;
const textOrNull = (v: unknown, max: number): boolean => v === null || text(v, max);
const whole = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const wholeOrNull = (v: unknown, min: number, max: number): boolean => v === null || whole(v, min, max);

function plainSequence(v: unknown): boolean {
  if (v === null) return true;
  if (!isObject(v) || Object.keys(v).length !== SEQUENCE_KEYS) return false;
  const stream = v['stream'];
  return (
    typeof stream === 'string' &&
    stream.length >= 1 &&
    stream.length <= 64 &&
    whole(v['number'], 1, Number.MAX_SAFE_INTEGER) &&
    textOrNull(v['group'], 64)
  );
}

/** Whether wireMessageSchema takes `v` as it is (no key to strip): the same tests, written out. */
function plainWireMessage(v: unknown): boolean {
  if (!isObject(v) || Object.keys(v).length !== WIRE_KEYS) return false;
  const sourceMachine = v['sourceMachine'];
  return (
    text(v['id'], Bounds.MESSAGE_ID_TEXT) &&
    whole(v['classCode'], 0, 0xffff) &&
    text(v['label'], Bounds.MESSAGE_LABEL) &&
    text(v['bodyBase64'], Bounds.BODY_BASE64) &&
    whole(v['priority'], 0, 7) &&
    typeof v['recoverable'] === 'boolean' &&
    whole(v['journal'], 0, 3) &&
    whole(v['acknowledge'], 0, 15) &&
    textOrNull(v['adminQueue'], Bounds.PATH) &&
    textOrNull(v['responseQueue'], Bounds.PATH) &&
    text(v['destinationQueue'], Bounds.PATH) &&
    textOrNull(v['correlationId'], Bounds.MESSAGE_ID_TEXT) &&
    whole(v['appSpecific'], 0, 0xffffffff) &&
    typeof sourceMachine === 'string' &&
    sourceMachine.length <= Bounds.COMPUTER_NAME &&
    computerNameProblem(sourceMachine) === null &&
    text(v['sourceMachineId'], Bounds.GUID_TEXT) &&
    text(v['sentTime'], Bounds.TIME_TEXT) &&
    wholeOrNull(v['reachQueueWithinMs'], 0, Number.MAX_SAFE_INTEGER) &&
    wholeOrNull(v['receiveWithinMs'], 0, Number.MAX_SAFE_INTEGER) &&
    whole(v['timeToReachQueue'], 0, 0xffffffff) &&
    wholeOrNull(v['timeToBeReceived'], 0, 0xffffffff) &&
    whole(v['hops'], 0, 255) &&
    typeof v['transactional'] === 'boolean' &&
    plainSequence(v['sequence']) &&
    textOrNull(v['conversation'], Bounds.CONVERSATION)
  );
}

/**
 * peerDeliver's input. A delivery is hundreds of messages of 25 fields, and the schema's walk cost a next hop
 * about a third of its time per message: one that is exactly what the schema takes (the same tests, written out;
 * property-tested against it) is taken as it is; anything else goes through the schema, which names the fault.
 */
export function parsePeerDeliver(input: unknown): PeerLinkInput<'peerDeliver'> {
  if (isObject(input) && Object.keys(input).length === 1) {
    const messages = input['messages'];
    if (
      Array.isArray(messages) &&
      messages.length >= 1 &&
      messages.length <= PEER_BATCH_MAX &&
      messages.every(plainWireMessage)
    )
      return { messages: messages as WireMessage[] };
  }
  return peerLinkOperations.peerDeliver.input.parse(input);
}
