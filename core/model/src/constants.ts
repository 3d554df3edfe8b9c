/**
 * MSMQ constants with their exact values (reference/msmq.md §2). Names keep MSMQ's spelling
 * without the MQMSG_CLASS_ / MQMSG_ prefix so they read the same in code, JSON and the console.
 */

/** PROPID_M_CLASS values (§2.1). Bit 15 = NACK, bit 14 = receive class. */
export const MessageClass = {
  NORMAL: 0x0000,
  REPORT: 0x0001,
  ACK_REACH_QUEUE: 0x0002,
  ACK_RECEIVE: 0x4000,
  NACK_BAD_DST_Q: 0x8000,
  NACK_PURGED: 0x8001,
  NACK_REACH_QUEUE_TIMEOUT: 0x8002,
  NACK_Q_EXCEED_QUOTA: 0x8003,
  NACK_ACCESS_DENIED: 0x8004,
  NACK_HOP_COUNT_EXCEEDED: 0x8005,
  NACK_BAD_SIGNATURE: 0x8006,
  NACK_BAD_ENCRYPTION: 0x8007,
  NACK_COULD_NOT_ENCRYPT: 0x8008,
  NACK_NOT_TRANSACTIONAL_Q: 0x8009,
  NACK_NOT_TRANSACTIONAL_MSG: 0x800a,
  NACK_UNSUPPORTED_CRYPTO_PROVIDER: 0x800b,
  NACK_SOURCE_COMPUTER_GUID_CHANGED: 0x800c,
  NACK_MESSAGE_TOO_LARGE: 0x800d,
  NACK_Q_DELETED: 0xc000,
  NACK_Q_PURGED: 0xc001,
  NACK_RECEIVE_TIMEOUT: 0xc002,
  NACK_RECEIVE_TIMEOUT_AT_SENDER: 0xc003,
  NACK_RECEIVE_REJECTED: 0xc004,
} as const;
export type MessageClassName = keyof typeof MessageClass;

const classNamesByCode = new Map<number, MessageClassName>(
  (Object.entries(MessageClass) as [MessageClassName, number][]).map(([name, code]) => [code, name]),
);

/** The class name for a code; unknown codes (from connectors) read as `0x1234`. */
export function messageClassName(code: number): string {
  return classNamesByCode.get(code) ?? formatClassCode(code);
}

/** `0xC002` style, as the console and MSMQ documentation print class codes. */
export function formatClassCode(code: number): string {
  return `0x${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** MQCLASS_NACK: bit 15 set. */
export const isNackClass = (code: number): boolean => (code & 0x8000) !== 0;
/** MQCLASS_RECEIVE: bit 14 set (receive-time ACK/NACK). */
export const isReceiveClass = (code: number): boolean => (code & 0x4000) !== 0;
/** Any acknowledgment class (positive or negative); REPORT and NORMAL are not. */
export const isAcknowledgmentClass = (code: number): boolean =>
  code === MessageClass.ACK_REACH_QUEUE || code === MessageClass.ACK_RECEIVE || isNackClass(code);

/** One plain sentence per class, for tooltips and the message properties dialog. */
export const messageClassMeaning: Record<MessageClassName, string> = {
  NORMAL: 'An application message.',
  REPORT: 'A route-tracing report message.',
  ACK_REACH_QUEUE: 'The original message reached its destination queue.',
  ACK_RECEIVE: 'The original message was received (removed) from its destination queue by an application.',
  NACK_BAD_DST_Q: 'The destination queue is not available or does not exist.',
  NACK_PURGED: 'The message was purged before it reached its destination queue.',
  NACK_REACH_QUEUE_TIMEOUT: 'The time-to-reach-queue timer expired before the message reached its destination queue.',
  NACK_Q_EXCEED_QUOTA: 'The destination queue was full (its quota was exceeded).',
  NACK_ACCESS_DENIED: 'The sender does not have the right to send to the destination queue.',
  NACK_HOP_COUNT_EXCEEDED: 'The message passed more than 15 hops without reaching its destination.',
  NACK_BAD_SIGNATURE: 'The message signature is not valid.',
  NACK_BAD_ENCRYPTION: 'The destination could not decrypt the message.',
  NACK_COULD_NOT_ENCRYPT: 'The source could not encrypt the message.',
  NACK_NOT_TRANSACTIONAL_Q: 'A transactional message was sent to a nontransactional queue.',
  NACK_NOT_TRANSACTIONAL_MSG: 'A nontransactional message was sent to a transactional queue.',
  NACK_UNSUPPORTED_CRYPTO_PROVIDER: 'The destination does not support the cryptographic provider.',
  NACK_SOURCE_COMPUTER_GUID_CHANGED: 'The source computer identifier changed; the message was dropped.',
  NACK_MESSAGE_TOO_LARGE: 'The message was too large for the destination.',
  NACK_Q_DELETED: 'The destination queue was deleted before the message was received.',
  NACK_Q_PURGED: 'The destination queue was purged before the message was received.',
  NACK_RECEIVE_TIMEOUT: 'The time-to-be-received timer expired before the message was received.',
  NACK_RECEIVE_TIMEOUT_AT_SENDER:
    'The time-to-be-received timer expired while the message was still on the sending computer.',
  NACK_RECEIVE_REJECTED: 'The receiving application rejected the message.',
};

/** PROPID_M_ACKNOWLEDGE bits and named levels (§2.2). */
export const Acknowledgment = {
  NONE: 0x00,
  POS_ARRIVAL: 0x01,
  POS_RECEIVE: 0x02,
  NEG_ARRIVAL: 0x04,
  NEG_RECEIVE: 0x08,
  NACK_REACH_QUEUE: 0x04,
  FULL_REACH_QUEUE: 0x05,
  NACK_RECEIVE: 0x0c,
  FULL_RECEIVE: 0x0e,
} as const;

/** The `--ack` words of CLI.md and the level each stands for. */
export const acknowledgmentLevels = {
  none: Acknowledgment.NONE,
  'pos-arrival': Acknowledgment.POS_ARRIVAL,
  'pos-receive': Acknowledgment.POS_RECEIVE,
  'nack-reach-queue': Acknowledgment.NACK_REACH_QUEUE,
  'full-reach-queue': Acknowledgment.FULL_REACH_QUEUE,
  'neg-receive': Acknowledgment.NEG_RECEIVE,
  'nack-receive': Acknowledgment.NACK_RECEIVE,
  'full-receive': Acknowledgment.FULL_RECEIVE,
} as const;
export type AcknowledgmentLevelName = keyof typeof acknowledgmentLevels;
export const ACKNOWLEDGE_MAX = 0x0f;

/** PROPID_M_JOURNAL bits (§2.3): note the message value for "journal" is 2, the queue value is 1. */
export const MessageJournal = {
  NONE: 0,
  DEADLETTER: 1,
  JOURNAL: 2,
  BOTH: 3,
} as const;
export const journalLevels = { none: 0, deadletter: 1, journal: 2, both: 3 } as const;
export type JournalLevelName = keyof typeof journalLevels;

/** PROPID_M_DELIVERY. Express is MSMQ's default. */
export const Delivery = { EXPRESS: 0, RECOVERABLE: 1 } as const;
export const deliveryNames = ['express', 'recoverable'] as const;
export type DeliveryName = (typeof deliveryNames)[number];

/**
 * Lookup-ID actions of MQReceiveMessageByLookupId (§2.4, R-L2): the message with the lookup ID, the one after
 * or before it in queue order, or the first or last of the queue.
 */
export const lookupActions = ['current', 'next', 'previous', 'first', 'last'] as const;
export type LookupAction = (typeof lookupActions)[number];

/** Service Broker status values (reference §8, decisions table). */
export const MessageStatus = { RETAINED_RECEIVED: 0, READY: 1, RETAINED_SENT: 3 } as const;

/**
 * Bytes every stored message counts beyond its body and strings: the fixed parts of MSMQ's UserMessage packet
 * (MS-MQMQ 2.2.19: BaseHeader 16, UserHeader 48, MessagePropertiesHeader 60). Quotas, `bytes` and
 * MaxMessageSize all count a message as this header + body + its strings in UTF-16 (label, queue names,
 * conversation), so a label-only message or an empty acknowledgment still takes room.
 */
export const MESSAGE_HEADER_BYTES = 124;

/** Header limits of mq.h (§1.1). */
export const Limits = {
  MIN_PRIORITY: 0,
  MAX_PRIORITY: 7,
  DEFAULT_PRIORITY: 3,
  MAX_QUEUE_NAME_LENGTH: 124,
  MAX_QUEUE_LABEL_LENGTH: 124,
  MAX_MESSAGE_LABEL_LENGTH: 250,
  MAX_COMPUTER_NAME_LENGTH: 256,
  MAX_SUBQUEUE_NAME_LENGTH: 32,
  MESSAGE_ID_SIZE: 20,
  CORRELATION_ID_SIZE: 20,
  MAX_PROPERTIES: 128,
  MAX_HOPS: 15,
  /** 4 MB, the hard ceiling of MaxMessageSize. */
  MAX_MESSAGE_SIZE: 0x400000,
  /** TTRQ placeholder "use the enterprise default" (mq.h LONG_LIVED). */
  LONG_LIVED: 0xfffffffe,
  INFINITE: 0xffffffff,
  /**
   * The most messages, and stored bytes, one transaction may send to one queue on another computer: they travel
   * in one delivery, so the destination places them together (R-E2), and one delivery must fit in one frame of
   * the peer link (64 MB, with its bodies in base64).
   */
  REMOTE_TRANSACTION_MESSAGES: 10_000,
  REMOTE_TRANSACTION_BYTES: 32 * 1024 * 1024,
} as const;

/** MSMQ error HRESULTs (§2.5) that Queuekeeper reports, keyed by the stable code used across the API. */
export const MsmqErrorHResult = {
  GENERIC: 0xc00e0001,
  PROPERTY: 0xc00e0002,
  QUEUE_NOT_FOUND: 0xc00e0003,
  QUEUE_NOT_ACTIVE: 0xc00e0004,
  QUEUE_EXISTS: 0xc00e0005,
  INVALID_PARAMETER: 0xc00e0006,
  INVALID_HANDLE: 0xc00e0007,
  SHARING_VIOLATION: 0xc00e0009,
  SERVICE_NOT_AVAILABLE: 0xc00e000b,
  ILLEGAL_QUEUE_PATHNAME: 0xc00e0014,
  ILLEGAL_PROPERTY_VALUE: 0xc00e0018,
  BUFFER_OVERFLOW: 0xc00e001a,
  IO_TIMEOUT: 0xc00e001b,
  ILLEGAL_CURSOR_ACTION: 0xc00e001c,
  MESSAGE_ALREADY_RECEIVED: 0xc00e001d,
  ILLEGAL_FORMATNAME: 0xc00e001e,
  UNSUPPORTED_FORMATNAME_OPERATION: 0xc00e0020,
  ACCESS_DENIED: 0xc00e0025,
  INSUFFICIENT_RESOURCES: 0xc00e0027,
  MESSAGE_STORAGE_FAILED: 0xc00e002a,
  ILLEGAL_PROPERTY_SIZE: 0xc00e003b,
  PROPERTY_NOTALLOWED: 0xc00e003e,
  TRANSACTION_USAGE: 0xc00e0050,
  TRANSACTION_SEQUENCE: 0xc00e0051,
  STALE_HANDLE: 0xc00e0056,
  QUEUE_DELETED: 0xc00e005a,
  LABEL_TOO_LONG: 0xc00e005d,
  PROPERTIES_CONFLICT: 0xc00e0087,
  MESSAGE_NOT_FOUND: 0xc00e0088,
  OPERATION_NOT_SUPPORTED_BY_REMOTE_COMPUTER: 0xc00e008b,
  TOO_MANY_PROPERTIES: 0xc00e009a,
  MESSAGE_LOCKED_UNDER_TRANSACTION: 0xc00e009c,
} as const;
