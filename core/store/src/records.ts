/** Row shapes of the store, in the engine's words. */
import type { BrowseSortColumn, DeliveryName, QueueType } from '@qk/model';

/** A queue record's kind is the queue type the contract shows. */
export type QueueKind = QueueType;

export interface QueueRecord {
  id: number;
  kind: QueueKind;
  /**
   * Private/public: the name as created. System: JOURNAL | DEADLETTER | DEADXACT. Journal: ''. Outgoing: the
   * destination's format name. Subqueue: its name after the `;`.
   */
  name: string;
  /** Lower-case key that makes names case-insensitive. */
  nameKey: string;
  /** The application queue a journal or a subqueue belongs to. */
  parentId: number | null;
  /** Private queues: the number in PRIVATE=<guid>\<hex>. */
  number: number | null;
  /** Public queues: the queue GUID of PUBLIC=<guid>. */
  guid: string | null;
  transactional: boolean;
  journal: boolean;
  quotaKB: number | null;
  journalQuotaKB: number | null;
  label: string;
  retention: boolean;
  createdMs: number;
  modifiedMs: number;
}

/** Where a message row lives: the durable store or the in-memory one (express messages, R-V1). */
export type MessageTable = 'main' | 'mem';

export interface MessageRecord {
  lookupId: number;
  queueId: number;
  status: number;
  priority: number;
  /** `{guid}\N` */
  msgId: string;
  classCode: number;
  label: string;
  body: Buffer;
  /** Bytes counted against quotas and MaxMessageSize: header, body and strings (model MESSAGE_HEADER_BYTES). */
  size: number;
  /** Bytes of the body alone (PROPID_M_BODY_SIZE). */
  bodySize: number;
  delivery: number;
  journal: number;
  ack: number;
  adminQueue: string | null;
  responseQueue: string | null;
  destQueue: string;
  correlationId: string | null;
  appSpecific: number;
  sourceMachine: string;
  sourceMachineId: string;
  sentMs: number;
  arrivedMs: number;
  /**
   * When the timers started on this computer: the send, or the arrival of a message handed over by another
   * computer with what remained of its timers (R-X2), or a resend (fresh timers).
   */
  timerBaseMs: number;
  /** Seconds, counted from timerBaseMs. */
  ttrq: number;
  /** Seconds, counted from timerBaseMs; null = unlimited. */
  ttbr: number | null;
  /** When the timer tick removes it; null = never. */
  expiresMs: number | null;
  transactional: boolean;
  conversation: string | null;
  /** R-S7: moves between a queue and its subqueues; aborted receives since it entered its current queue. */
  moveCount: number;
  abortCount: number;
  lastMoveMs: number | null;
  /** R-D9: the per-application dead-letter queue of a transactional message. */
  deadLetterQueue: string | null;
}

/** A stored message with the table it is in. */
export interface StoredMessage extends MessageRecord {
  table: MessageTable;
}

export interface QueueUsage {
  queueId: number;
  count: number;
  bytes: number;
  retained: number;
}

export interface SettingRecord {
  name: string;
  value: number;
  pending: number | null;
}

export interface BrowseQuery {
  queueId: number;
  offset: number;
  limit: number;
  sort: { column: BrowseSortColumn; descending: boolean };
  filter: {
    label?: string | undefined;
    bodyText?: string | undefined;
    classCodes?: number[] | undefined;
    arrivedFromMs?: number | undefined;
    arrivedToMs?: number | undefined;
    /** Exact correlation ID. */
    correlationId?: string | undefined;
    /** Exact application-specific value. */
    appSpecific?: number | undefined;
    /** Case-insensitive substring of the source computer's name. */
    sourceMachine?: string | undefined;
    /** Express messages are in `mem`, recoverable ones in `main`: the filter picks the table. */
    delivery?: DeliveryName | undefined;
  };
  /** Count of messages in the queue, known to the caller; used when there is no filter. */
  knownTotal: number;
  /** The queue holds retained (status ≠ 1) messages, so the ready-only index does not cover it. */
  hasRetained: boolean;
  includeBody: boolean;
}

/** A computer this one trusts (docs/network.md). */
export interface PeerRecord {
  /** Lower-case name: computer names are case-insensitive. */
  nameKey: string;
  name: string;
  /** `HOST:PORT` of its peer listener. */
  address: string;
  /** `sha256:` + hex of its certificate. */
  fingerprint: string;
  addedMs: number;
  lastConnectedMs: number | null;
}

/** Messages for `destination` (a computer name, or `*`) go through routing server `via`. */
export interface RouteRecord {
  destinationKey: string;
  destination: string;
  via: string;
}

/** Hops and sequence of a message waiting in an outgoing queue. */
export interface TransitRecord {
  lookupId: number;
  hops: number;
  stream: string | null;
  seq: number | null;
  group: string | null;
  /**
   * The previous number the message came with from another computer (R-E3), which a routing server passes on;
   * null for a message numbered here (its lease works the number out) or one that came without.
   */
  previous: number | null;
}

/** The source's stream to one destination queue (R-E3). */
export interface SeqOutRecord {
  /** The outgoing queue's name key. */
  destKey: string;
  stream: string;
  /** The number the next message gets. */
  nextSeq: number;
  /** The highest number the destination confirmed. */
  acked: number;
}

/** A transactional message the destination accepted, awaiting its final confirmation (R-D2). */
export interface SentRecord {
  msgId: string;
  destKey: string;
  /** When the source dead-letters it without a final confirmation; null = never (unlimited TTBR). */
  finalByMs: number | null;
  /** The message as JSON (body in base64). */
  record: string;
}

/** A confirmation owed to another computer. */
export interface ControlRecord {
  id: number;
  /** Lower-case name of the computer it is for. */
  toKey: string;
  /** The item as JSON. */
  item: string;
  createdMs: number;
}
