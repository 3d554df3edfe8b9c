/**
 * The peer link (docs/network.md "Sessions"): what one queue manager calls on another over a TLS session.
 * A separate table from the administrator operations: it is served only on the peer listener, to a trusted
 * peer, never over HTTP. Every message field crosses as data; failures come back as classes (numbers), never
 * reduced to text.
 */
import { z } from 'zod';
import { computerNameProblem, Limits } from '@qk/model';
import { Bounds, computerNameSchema, messageIdSchema, queuePathSchema } from './schemas.js';

/**
 * Bumped when a peer could misread the other. The hello agrees the lower of the two sides' versions, so a
 * computer still serves peers down to PEER_PROTOCOL_MIN: 1 delivers messages as JSON objects (peerDeliver),
 * 2 packs them in columns (peerDeliverPacked) with the bodies as one base64 text, 3 sends those bodies as a
 * binary frame beside the call (an attachment).
 */
export const PEER_PROTOCOL_VERSION = 3;
/** The first protocol whose packed deliveries carry their bodies as an attachment. */
export const PEER_PROTOCOL_ATTACHMENTS = 3;
export const PEER_PROTOCOL_MIN = 1;

/** Control items per control call. */
export const PEER_BATCH_MAX = 1_000;

/**
 * Messages per deliver call: the engine makes a lease larger than a usual one to keep a transaction whole, and a
 * transaction may send this many to one queue on another computer (Limits.REMOTE_TRANSACTION_MESSAGES).
 */
export const PEER_DELIVERY_MAX = Limits.REMOTE_TRANSACTION_MESSAGES;

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
  /**
   * The previous number (R-E3): the greatest number below this one the source may still deliver, or one the
   * destination has; the numbers between were abandoned at the source (expired, purged). Absent: `number - 1`.
   * Optional, so a peer from before it still reads the sequence (its schema drops the field).
   */
  previous: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
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

/** A packed delivery's fields: every wire field but the body (the bodies travel together, apart from them). */
const wireFields = wireMessageSchema.omit({ bodyBase64: true }).shape;
type WireFields = typeof wireFields;
export type PackedField = keyof WireFields;

/** One value every message shares, or a column of one per message: no wire field is itself an array. */
type SharedOrColumn<S extends z.core.SomeType> = z.ZodUnion<readonly [S, z.ZodArray<S>]>;
function sharedOrColumn<S extends z.core.SomeType>(value: S): SharedOrColumn<S> {
  return z.union([value, z.array(value).max(PEER_DELIVERY_MAX)]);
}

const packedFieldsSchema = z.strictObject(
  Object.fromEntries(Object.entries(wireFields).map(([key, value]) => [key, sharedOrColumn(value)])) as {
    [K in PackedField]: SharedOrColumn<WireFields[K]>;
  },
);

/** The most bytes of one body: what wireMessageSchema's longest bodyBase64 carries. */
const BODY_BYTES_MAX = (Bounds.BODY_BASE64 / 4) * 3;
const bodySizeSchema = z.number().int().min(0).max(BODY_BYTES_MAX);

/** The bytes padded base64 text (as Buffer writes it) decodes to; -1 for text of another length. */
function base64Bytes(text: string): number {
  if (text.length % 4 !== 0) return -1;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** The bytes of all bodies of a packed delivery. */
function bodyBytes(bodySizes: number | readonly unknown[], count: number): number {
  if (typeof bodySizes === 'number') return bodySizes * count;
  let total = 0;
  for (const size of bodySizes) total += size as number;
  return total;
}

/**
 * Protocol 3: the bodies went as the session's binary frame of this number (the sender counts 1, 2, 3, … per
 * session; the frame's first 4 bytes say it), as long as `bodySizes` add up to; the listener checks that length,
 * since the call alone cannot show it.
 */
const attachmentSchema = z.strictObject({ attachment: z.number().int().min(1).max(0xffffffff) });

type PackedShape = {
  count: number;
  fields: Record<string, unknown>;
  bodies: string | { attachment: number };
  bodySizes: number | number[];
};

/** What the shapes alone cannot say: every column has `count` values, and the bodies are as long as their sizes. */
function checkPackedCounts(d: PackedShape, ctx: z.RefinementCtx): void {
  const column = (path: string[], value: unknown): void => {
    if (Array.isArray(value) && value.length !== d.count)
      ctx.addIssue({ code: 'custom', path, message: `${value.length} values for ${d.count} messages` });
  };
  for (const [key, value] of Object.entries(d.fields)) column(['fields', key], value);
  column(['bodySizes'], d.bodySizes);
  if (typeof d.bodies !== 'string') return;
  const bytes = bodyBytes(d.bodySizes, d.count);
  if (base64Bytes(d.bodies) !== bytes)
    ctx.addIssue({ code: 'custom', path: ['bodies'], message: `not the base64 of ${bytes} bytes (bodySizes)` });
}

const packedDeliverySchema = z
  .strictObject({
    count: z.number().int().min(1).max(PEER_DELIVERY_MAX),
    fields: packedFieldsSchema,
    /** Every body, one after the other in message order: as base64 text (protocol 2), or an attachment (3). */
    bodies: z.union([z.string(), attachmentSchema]),
    bodySizes: sharedOrColumn(bodySizeSchema),
  })
  .superRefine(checkPackedCounts);

/** The bytes all bodies of a packed delivery add up to (its sizes checked already). */
export function packedBodyBytes(d: Pick<PackedDelivery, 'count' | 'bodySizes'>): number {
  return bodyBytes(d.bodySizes, d.count);
}

const deliverOutcomesSchema = z.object({ outcomes: z.array(deliveryOutcomeSchema).max(PEER_DELIVERY_MAX) });

export const peerLinkOperations = {
  peerHello: {
    input: z.object({ protocol: z.number().int(), name: computerNameSchema, id: guid }),
    output: z.object({ protocol: z.number().int(), name: computerNameSchema, id: guid, routing: z.boolean() }),
    summary:
      'Opens a session: the caller names itself (the name trusted with its certificate) and its newest protocol; the answer is the protocol both speak.',
  },
  peerDeliver: {
    input: z.object({ messages: z.array(wireMessageSchema).min(1).max(PEER_DELIVERY_MAX) }),
    output: deliverOutcomesSchema,
    summary: 'Hands messages to this computer; one outcome each, sent only once what was stored is durable.',
  },
  peerDeliverPacked: {
    input: packedDeliverySchema,
    output: z.union([deliverOutcomesSchema, z.object({ every: deliveryOutcomeSchema })]),
    summary:
      'Protocol 2: peerDeliver with the messages in columns (a value all share, or one per message) and the bodies as one text (protocol 3: as a binary frame beside the call); `every` answers for all messages that had the same outcome.',
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
export type PackedDelivery = PeerLinkInput<'peerDeliverPacked'>;
export type DeliverAnswer = PeerLinkOutput<'peerDeliverPacked'>;

export function isPeerLinkOperation(name: string): name is PeerLinkOperationName {
  return Object.hasOwn(peerLinkOperations, name);
}

// ── Deliveries and their answers, checked by hand ─────────────────────────────────────────────────────────
// A delivery is hundreds of messages of 24 fields, and the schema's walk cost a next hop about a third of its
// time per message. What is exactly what the schema takes (the same tests, written out; property-tested
// against it) is taken as it is; anything else goes through the schema, which names the fault.

type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number): boolean => typeof v === 'string' && v.length <= max;
const textOrNull = (v: unknown, max: number): boolean => v === null || text(v, max);
const whole = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const wholeOrNull = (v: unknown, min: number, max: number): boolean => v === null || whole(v, min, max);
const bool = (v: unknown): boolean => typeof v === 'boolean';

/** `every` that also tests holes, as the schema does. */
function everyOf(values: readonly unknown[], check: Check): boolean {
  for (let i = 0; i < values.length; i++) if (!check(values[i])) return false;
  return true;
}

const SEQUENCE_KEYS = Object.keys(wireSequenceSchema.shape).length;

function plainSequence(v: unknown): boolean {
  if (v === null) return true;
  if (!isObject(v)) return false;
  // `previous` is optional: with it every key, without it one fewer.
  const withPrevious = Object.hasOwn(v, 'previous');
  if (Object.keys(v).length !== (withPrevious ? SEQUENCE_KEYS : SEQUENCE_KEYS - 1)) return false;
  const stream = v['stream'];
  return (
    typeof stream === 'string' &&
    stream.length >= 1 &&
    stream.length <= 64 &&
    whole(v['number'], 1, Number.MAX_SAFE_INTEGER) &&
    textOrNull(v['group'], 64) &&
    (!withPrevious || v['previous'] === undefined || whole(v['previous'], 0, Number.MAX_SAFE_INTEGER))
  );
}

function plainComputerName(v: unknown): boolean {
  return typeof v === 'string' && v.length <= Bounds.COMPUTER_NAME && computerNameProblem(v) === null;
}

/** wireMessageSchema's tests of each field, written out. */
const wireChecks: { readonly [K in keyof WireMessage]: Check } = {
  id: (v) => text(v, Bounds.MESSAGE_ID_TEXT),
  classCode: (v) => whole(v, 0, 0xffff),
  label: (v) => text(v, Bounds.MESSAGE_LABEL),
  bodyBase64: (v) => text(v, Bounds.BODY_BASE64),
  priority: (v) => whole(v, 0, 7),
  recoverable: bool,
  journal: (v) => whole(v, 0, 3),
  acknowledge: (v) => whole(v, 0, 15),
  adminQueue: (v) => textOrNull(v, Bounds.PATH),
  responseQueue: (v) => textOrNull(v, Bounds.PATH),
  destinationQueue: (v) => text(v, Bounds.PATH),
  correlationId: (v) => textOrNull(v, Bounds.MESSAGE_ID_TEXT),
  appSpecific: (v) => whole(v, 0, 0xffffffff),
  sourceMachine: plainComputerName,
  sourceMachineId: (v) => text(v, Bounds.GUID_TEXT),
  sentTime: (v) => text(v, Bounds.TIME_TEXT),
  reachQueueWithinMs: (v) => wholeOrNull(v, 0, Number.MAX_SAFE_INTEGER),
  receiveWithinMs: (v) => wholeOrNull(v, 0, Number.MAX_SAFE_INTEGER),
  timeToReachQueue: (v) => whole(v, 0, 0xffffffff),
  timeToBeReceived: (v) => wholeOrNull(v, 0, 0xffffffff),
  hops: (v) => whole(v, 0, 255),
  transactional: bool,
  sequence: plainSequence,
  conversation: (v) => textOrNull(v, Bounds.CONVERSATION),
};
const WIRE_CHECKS = Object.entries(wireChecks);
const PACKED_CHECKS = WIRE_CHECKS.filter(([key]) => key !== 'bodyBase64');

/** Whether wireMessageSchema takes `v` as it is (no key to strip). */
function plainWireMessage(v: unknown): boolean {
  if (!isObject(v) || Object.keys(v).length !== WIRE_CHECKS.length) return false;
  for (const [key, check] of WIRE_CHECKS) if (!check(v[key])) return false;
  return true;
}

/** peerDeliver's input (protocol 1). */
export function parsePeerDeliver(input: unknown): PeerLinkInput<'peerDeliver'> {
  if (isObject(input) && Object.keys(input).length === 1) {
    const messages = input['messages'];
    if (
      Array.isArray(messages) &&
      messages.length >= 1 &&
      messages.length <= PEER_DELIVERY_MAX &&
      everyOf(messages, plainWireMessage)
    )
      return { messages: messages as WireMessage[] };
  }
  return peerLinkOperations.peerDeliver.input.parse(input);
}

/** Whether `v` is one value `check` takes, or a column of `count` of them. */
function plainSharedOrColumn(v: unknown, count: number, check: Check): boolean {
  return Array.isArray(v) ? v.length === count && everyOf(v, check) : check(v);
}

const PACKED_KEYS = Object.keys(packedDeliverySchema.shape).length;
const bodySize: Check = (v) => whole(v, 0, BODY_BYTES_MAX);

function plainPackedFields(fields: unknown, count: number): boolean {
  if (!isObject(fields) || Object.keys(fields).length !== PACKED_CHECKS.length) return false;
  for (const [key, check] of PACKED_CHECKS) if (!plainSharedOrColumn(fields[key], count, check)) return false;
  return true;
}

/** attachmentSchema's tests. */
const plainAttachment = (v: unknown): boolean =>
  isObject(v) && Object.keys(v).length === 1 && whole(v['attachment'], 1, 0xffffffff);

function plainPackedDelivery(v: unknown): boolean {
  if (!isObject(v) || Object.keys(v).length !== PACKED_KEYS) return false;
  const { count, fields, bodies, bodySizes } = v;
  return (
    whole(count, 1, PEER_DELIVERY_MAX) &&
    plainPackedFields(fields, count as number) &&
    plainSharedOrColumn(bodySizes, count as number, bodySize) &&
    (typeof bodies === 'string'
      ? base64Bytes(bodies) === bodyBytes(bodySizes as number | number[], count as number)
      : plainAttachment(bodies))
  );
}

/** peerDeliverPacked's input (protocols 2 and 3), taken as it is: the receiver reads the columns straight into messages. */
export function parsePeerDeliverPacked(input: unknown): PackedDelivery {
  if (plainPackedDelivery(input)) return input as PackedDelivery;
  return peerLinkOperations.peerDeliverPacked.input.parse(input);
}

function plainOutcome(v: unknown): boolean {
  if (!isObject(v)) return false;
  const keys = Object.keys(v).length;
  switch (v['outcome']) {
    case 'stored':
    case 'accepted':
    case 'duplicate':
      return keys === 1;
    case 'refused':
      return keys === 2 && whole(v['classCode'], 0x8000, 0xffff);
    case 'retry':
      return keys === 2 && text(v['reason'], Bounds.LAST_ERROR);
    default:
      return false;
  }
}

/** The answer to either deliver operation, as the sender reads it (peerDeliver's is one form of it). */
export function parseDeliverAnswer(answer: unknown): DeliverAnswer {
  if (isObject(answer) && Object.keys(answer).length === 1) {
    const outcomes = answer['outcomes'];
    const plain = Array.isArray(outcomes)
      ? outcomes.length <= PEER_DELIVERY_MAX && everyOf(outcomes, plainOutcome)
      : plainOutcome(answer['every']);
    if (plain) return answer as DeliverAnswer;
  }
  return peerLinkOperations.peerDeliverPacked.output.parse(answer);
}
