/** zod schemas of the shapes that cross a process boundary; each is checked against its model type. */
import { z } from 'zod';
import {
  browseSortColumns,
  deliveryNames,
  computerNameProblem,
  errorCodes,
  Limits,
  type BrowseFilter,
  type ErrorCode,
  type ExportedMessage,
  type MessageInfo,
  type QueueInfo,
  type ServiceStatus,
  type SettingInfo,
} from '@qk/model';

/**
 * The longest string or list of each kind that crosses the contract, from MSMQ's own limits
 * (reference/msmq.md, cited per entry). Every string and array of every schema here and in operations.ts has
 * one of these as its maximum (test/unit/api/bounds.test.ts walks them all), so no input is unbounded.
 */
export const Bounds = {
  /**
   * A queue path or format name. The longest legal one is `FORMATNAME:` (11) + `DIRECT=TCP:` (11) + a
   * computer name of 256 (§3.2, [MQMQ-2.1.1]) + `\private$\` (10) + a queue name of 124 (MQ_MAX_Q_NAME_LEN,
   * §1.1) + `;` and a subqueue name of 32 (§3.2) = 445.
   */
  PATH:
    11 + 11 + Limits.MAX_COMPUTER_NAME_LENGTH + 10 + Limits.MAX_QUEUE_NAME_LENGTH + 1 + Limits.MAX_SUBQUEUE_NAME_LENGTH,
  /** 1–256 visible ASCII characters (§3.2, [MQMQ-2.1.1]). */
  COMPUTER_NAME: Limits.MAX_COMPUTER_NAME_LENGTH,
  /** MQ_MAX_MSG_LABEL_LEN, 250 WCHARs (§1.1); a zod length counts UTF-16 units, as WCHARs are. */
  MESSAGE_LABEL: Limits.MAX_MESSAGE_LABEL_LENGTH,
  /** MQ_MAX_Q_LABEL_LEN, 124 (§1.1, §3.2). */
  QUEUE_LABEL: Limits.MAX_QUEUE_LABEL_LENGTH,
  /**
   * A message or correlation ID as text (§1.2): `{GUID}\4294967295` is 49 characters, 40 hex digits 40; the
   * parser trims surrounding white space, for which 64 leaves room.
   */
  MESSAGE_ID_TEXT: 64,
  /** A GUID with braces, `{8-4-4-4-12}` (PROPID_M_SRC_MACHINE_ID, §1.1). */
  GUID_TEXT: 38,
  /** A text body: MaxMessageSize is at most 4 MB (§5, R-V0b) and every UTF-16 unit is at least one UTF-8 byte. */
  BODY_TEXT: Limits.MAX_MESSAGE_SIZE,
  /** The same 4 MB as base64: 4 characters for every 3 bytes. */
  BODY_BASE64: Math.ceil(Limits.MAX_MESSAGE_SIZE / 3) * 4,
  /** A Service Broker conversation handle (§8); 256 as a computer name, which it usually carries. */
  CONVERSATION: 256,
  /** An ISO 8601 time; the longest JavaScript writes (`+275760-09-13T00:00:00.000Z`) is 27 characters. */
  TIME_TEXT: 64,
  /**
   * Class codes of one filter. PROPID_M_CLASS is a 16-bit value (§1.1); MSMQ names 23 classes (§2.1), so a
   * filter naming every one of them, connector classes besides, fits.
   */
  CLASS_CODES: 64,
  /** Every value a 16-bit PROPID_M_CLASS can take (§1.1): the most classes one queue can hold. */
  CLASS_CODE_VALUES: 0x10000,
  /** Seconds of traffic history the service keeps for the console's charts. */
  TRAFFIC_SECONDS: 300,
  /** A message class name (`NACK_UNSUPPORTED_CRYPTO_PROVIDER` is 32) or `0x1234`. */
  CLASS_NAME: 64,
  /** A setting: MSMQ's registry value names (§5) are under 40 characters. */
  SETTING_NAME: 64,
  SETTING_TEXT: 1_024,
  /** Settings of the computer (§5 lists about twenty). */
  SETTINGS: 64,
  /** A transaction handle (a UUID, 36 characters). */
  TRANSACTION: 64,
  /** Text typed into a browse filter (a label has at most 250 characters, §1.1). */
  FILTER_TEXT: 1_024,
  /** Messages, lookup IDs or receives in one call. */
  BATCH: 10_000,
  /** Sends carried by one sendEach call: what a client has in flight on one connection (the service takes 256 calls). */
  SEND_EACH: 1_000,
  /** Messages in one page of a browse. */
  PAGE: 1_000,
  /** A service's URL (`https://` + a 256-character host name + a port). */
  URL: 512,
  /** The product version and similar short words. */
  WORD: 64,
  /** A peer listener address `HOST:PORT`: a host of up to 256 characters, IPv6 in brackets, a colon, 5 digits. */
  PEER_ADDRESS: Limits.MAX_COMPUTER_NAME_LENGTH + 2 + 1 + 5,
  /** A certificate fingerprint: `sha256:` + 64 hex digits, with a colon between every two as openssl prints them. */
  FINGERPRINT: 7 + 64 + 31,
  /** The last error of an outgoing queue (the network cuts longer ones). */
  LAST_ERROR: 1_000,
  /** An error message: it names what was refused, a long name cut short (printableName); toErrorBody cuts it here. */
  ERROR_MESSAGE: 4_096,
} as const;

/**
 * A string of at most `max` UTF-16 units. With `code`, a longer one is refused with that MSMQ error
 * (LABEL_TOO_LONG, ILLEGAL_PROPERTY_SIZE…) rather than INVALID_PARAMETER, as MSMQ reports it (toErrorBody
 * prefers an issue that carries a code); the `max` stays visible to schema walkers.
 */
export function boundedString(max: number, code?: ErrorCode, what = 'the value'): z.ZodString {
  const plain = z.string().max(max);
  if (!code) return plain;
  return plain.refine((value) => value.length <= max, {
    message: `${what} has at most ${max.toLocaleString('en-US')} characters`,
    params: { code },
  });
}

/** A queue path name or format name (§3.2, §3.3); parsing it is the engine's job, which names the fault. */
export const queuePathSchema = boundedString(Bounds.PATH, 'ILLEGAL_QUEUE_PATHNAME', 'a queue path or format name');
/** A message or correlation ID as text. */
export const messageIdSchema = boundedString(Bounds.MESSAGE_ID_TEXT);
/** A computer name (§3.2): visible ASCII only, so no control or bidi character can hide in it. */
export const computerNameSchema = z
  .string()
  .max(Bounds.COMPUTER_NAME)
  .refine((name) => computerNameProblem(name) === null, {
    error: (issue) => computerNameProblem(String(issue.input)) ?? 'not a computer name',
  });

const isoTime = boundedString(Bounds.TIME_TEXT);
const guidText = boundedString(Bounds.GUID_TEXT);

export const queueInfoSchema = z.object({
  path: queuePathSchema,
  formatName: queuePathSchema,
  type: z.enum(['private', 'public', 'system', 'journal', 'outgoing', 'subqueue']),
  transactional: z.boolean(),
  journal: z.boolean(),
  label: boundedString(Bounds.QUEUE_LABEL),
  quotaKB: z.number().int().nullable(),
  journalQuotaKB: z.number().int().nullable(),
  retention: z.boolean(),
  messageCount: z.number().int(),
  bytes: z.number().int(),
  journalMessageCount: z.number().int(),
  journalBytes: z.number().int(),
  createdTime: isoTime,
  modifiedTime: isoTime,
  parent: queuePathSchema.optional(),
}) satisfies z.ZodType<QueueInfo>;

export const messageInfoSchema = z.object({
  id: messageIdSchema,
  lookupId: z.number().int(),
  class: boundedString(Bounds.CLASS_NAME),
  classCode: z.number().int(),
  label: boundedString(Bounds.MESSAGE_LABEL),
  body: boundedString(Bounds.BODY_TEXT).nullable(),
  bodyBase64: boundedString(Bounds.BODY_BASE64),
  bodySize: z.number().int(),
  priority: z.number().int(),
  delivery: z.enum(deliveryNames),
  journal: z.number().int(),
  acknowledge: z.number().int(),
  adminQueue: queuePathSchema.nullable(),
  responseQueue: queuePathSchema.nullable(),
  destinationQueue: queuePathSchema,
  correlationId: messageIdSchema.nullable(),
  appSpecific: z.number().int(),
  sourceMachine: boundedString(Bounds.COMPUTER_NAME),
  sourceMachineId: guidText,
  sentTime: isoTime,
  arrivedTime: isoTime,
  timeToReachQueue: z.number().int(),
  timeToBeReceived: z.number().int().nullable(),
  transactional: z.boolean(),
  conversation: boundedString(Bounds.CONVERSATION).nullable(),
  status: z.number().int(),
  // Defaults keep files written before these properties existed readable.
  moveCount: z.number().int().default(0),
  abortCount: z.number().int().default(0),
  lastMoveTime: isoTime.nullable().default(null),
  deadLetterQueue: queuePathSchema.nullable().default(null),
}) satisfies z.ZodType<MessageInfo>;

/**
 * The properties a receive, peek (a cursor's too) or stream returns (MSMQ's MQMSGPROPS, .NET's MessageReadPropertyFilter): those
 * named, plus `id` and `lookupId`; absent = every property.
 */
export const messagePropertiesSchema = z
  .array(messageInfoSchema.keyof())
  .max(Object.keys(messageInfoSchema.shape).length)
  .describe('[field names of a message…]');

/** Milliseconds a receive, peek or stream waits for a message; 0 does not wait. */
export const timeoutMsSchema = z.number().int().min(0).max(2_147_483_647);

/** One message of an export file (docs/message-file-format.md); the engine checks every range on import. */
export const exportedMessageSchema = z.object({
  lookupId: z.number().int(),
  id: messageIdSchema,
  classCode: z.number().int(),
  label: boundedString(Bounds.MESSAGE_LABEL, 'LABEL_TOO_LONG', 'a message label'),
  bodyBase64: boundedString(Bounds.BODY_BASE64),
  priority: z.number().int(),
  delivery: z.enum(deliveryNames),
  journal: z.number().int(),
  acknowledge: z.number().int(),
  adminQueue: queuePathSchema.nullable(),
  responseQueue: queuePathSchema.nullable(),
  destinationQueue: queuePathSchema,
  correlationId: messageIdSchema.nullable(),
  appSpecific: z.number().int(),
  sourceMachine: boundedString(Bounds.COMPUTER_NAME),
  sourceMachineId: boundedString(Bounds.GUID_TEXT),
  sentTime: isoTime,
  arrivedTime: isoTime,
  timerBaseTime: isoTime,
  timeToReachQueue: z.number().int(),
  timeToBeReceived: z.number().int().nullable(),
  transactional: z.boolean(),
  conversation: boundedString(Bounds.CONVERSATION).nullable(),
  status: z.number().int(),
  moveCount: z.number().int().min(0),
  abortCount: z.number().int().min(0),
  lastMoveTime: isoTime.nullable(),
  deadLetterQueue: queuePathSchema.nullable(),
}) satisfies z.ZodType<ExportedMessage>;

export const settingInfoSchema = z.object({
  name: boundedString(Bounds.SETTING_NAME),
  value: z.number().nullable(),
  default: z.number().nullable(),
  unit: boundedString(Bounds.WORD),
  min: z.number(),
  max: z.number(),
  restartRequired: z.boolean(),
  pending: z.number().nullable(),
  pendingRestart: z.boolean().optional(),
  description: boundedString(Bounds.SETTING_TEXT),
}) satisfies z.ZodType<SettingInfo>;

export const serviceStatusSchema = z.object({
  name: boundedString(Bounds.COMPUTER_NAME),
  id: guidText,
  version: boundedString(Bounds.WORD),
  uptimeSeconds: z.number(),
  messages: z.number().int(),
  bytes: z.number().int(),
  journalBytes: z.number().int(),
  settingsPendingRestart: z.array(boundedString(Bounds.SETTING_NAME)).max(Bounds.SETTINGS),
  duplicateCache: z.object({
    entries: z.number().int(),
    capacity: z.number().int(),
    duplicatesRemoved: z.number().int(),
  }),
  machineQuotaUsedKB: z.number(),
  machineJournalQuotaUsedKB: z.number(),
  startedTime: isoTime,
  peerAddress: z.string().max(Bounds.PEER_ADDRESS).nullable(),
  peerFingerprint: z.string().max(Bounds.FINGERPRINT).nullable(),
  routing: z.boolean(),
  offline: z.boolean(),
}) satisfies z.ZodType<ServiceStatus>;

const uint32 = z.number().int().min(0).max(0xffffffff);

/**
 * Send properties. Range checks of numbers that MSMQ reports with its own error names (priority, journal,
 * acknowledgment) and the message size with its properties are the engine's, so the codes match MSMQ's;
 * lengths are bounded here, with MSMQ's code where it has one (R-V0a, R-V0b).
 */
export const sendPropertiesSchema = z.object({
  body: boundedString(
    Bounds.BODY_TEXT,
    'INSUFFICIENT_RESOURCES',
    'a message body (MaxMessageSize, 4 MB at most)',
  ).optional(),
  bodyBase64: boundedString(
    Bounds.BODY_BASE64,
    'INSUFFICIENT_RESOURCES',
    'a base64 message body (MaxMessageSize, 4 MB at most)',
  ).optional(),
  label: boundedString(Bounds.MESSAGE_LABEL, 'LABEL_TOO_LONG', 'a message label').optional(),
  priority: z.number().int().optional(),
  delivery: z.enum(deliveryNames).optional(),
  journal: z.number().int().optional(),
  acknowledge: z.number().int().optional(),
  adminQueue: queuePathSchema.optional(),
  responseQueue: queuePathSchema.optional(),
  timeToReachQueue: z.number().int().optional(),
  timeToBeReceived: z.number().int().optional(),
  correlationId: boundedString(
    Bounds.MESSAGE_ID_TEXT,
    'ILLEGAL_PROPERTY_SIZE',
    'a correlation ID (20 bytes: a message ID or 40 hex digits)',
  ).optional(),
  appSpecific: uint32.optional(),
  conversation: z.string().min(1).max(Bounds.CONVERSATION).optional(),
  from: queuePathSchema.optional(),
  deadLetterQueue: queuePathSchema.optional(),
});

export const errorCodeSchema = z.enum(errorCodes);
export const errorBodySchema = z.object({ code: errorCodeSchema, message: boundedString(Bounds.ERROR_MESSAGE) });

/** Which message order a browse returns; `queue` is receive order (priority, then arrival). */
export const browseSortSchema = z.object({
  column: z.enum(browseSortColumns),
  descending: z.boolean().optional(),
});

/** Filters evaluated by the service, so a million-message queue is never shipped to be filtered. */
export const browseFilterSchema = z.object({
  /** Case-insensitive substring of the label. */
  label: boundedString(Bounds.MESSAGE_LABEL).optional(),
  /** Case-insensitive substring of the body (text bodies only). */
  bodyText: boundedString(Bounds.FILTER_TEXT).optional(),
  /** PROPID_M_CLASS values (16-bit, §1.1): a long list used to reach the store's query unbounded (a 500). */
  classCodes: z.array(z.number().int().min(0).max(0xffff)).max(Bounds.CLASS_CODES).optional(),
  arrivedFrom: isoTime.optional(),
  arrivedTo: isoTime.optional(),
  /** The exact correlation ID (`{guid}\\N`). */
  correlationId: messageIdSchema.optional(),
  appSpecific: z.number().int().min(0).max(0xffffffff).optional(),
  /** Case-insensitive substring of the source computer's name. */
  sourceMachine: boundedString(Bounds.COMPUTER_NAME).optional(),
  delivery: z.enum(deliveryNames).optional(),
}) satisfies z.ZodType<BrowseFilter>;
