/**
 * The plain-JSON shapes of queues, messages, settings and the queue manager's status (CLI.md "JSON
 * shapes"). These are what crosses every boundary; `core/api` validates them with zod.
 */
import type { DeliveryName } from './constants.js';

export type QueueType = 'private' | 'public' | 'system' | 'journal' | 'outgoing' | 'subqueue';

export interface QueueInfo {
  path: string;
  formatName: string;
  type: QueueType;
  transactional: boolean;
  journal: boolean;
  label: string;
  /** KB; null = unlimited. */
  quotaKB: number | null;
  journalQuotaKB: number | null;
  retention: boolean;
  messageCount: number;
  bytes: number;
  journalMessageCount: number;
  journalBytes: number;
  createdTime: string;
  modifiedTime: string;
  /** Subqueues only: the path of the queue they belong to (R-S4). */
  parent?: string | undefined;
}

export interface MessageInfo {
  id: string;
  lookupId: number;
  /** Class name without its prefix (`NACK_RECEIVE_TIMEOUT`), or `0x1234` for an unknown code. */
  class: string;
  classCode: number;
  label: string;
  /** The body as text where it is valid UTF-8, else null. */
  body: string | null;
  bodyBase64: string;
  bodySize: number;
  priority: number;
  delivery: DeliveryName;
  /** PROPID_M_JOURNAL bits: 0 none, 1 dead letter, 2 journal, 3 both. */
  journal: number;
  /** PROPID_M_ACKNOWLEDGE bits (0–15). */
  acknowledge: number;
  adminQueue: string | null;
  responseQueue: string | null;
  destinationQueue: string;
  correlationId: string | null;
  appSpecific: number;
  sourceMachine: string;
  sourceMachineId: string;
  sentTime: string;
  arrivedTime: string;
  /** Seconds. */
  timeToReachQueue: number;
  /**
   * Seconds; null = unlimited. Where the timer runs (a ready message in a destination or outgoing queue) it is
   * the time that remains (reference §1.1); on a copy in a journal or dead-letter queue, the time it carried.
   */
  timeToBeReceived: number | null;
  transactional: boolean;
  conversation: string | null;
  /** Service Broker status: 1 ready, 0 retained after receive, 3 retained copy of a sent message. */
  status: number;
  /** PROPID_M_MOVE_COUNT: moves between a queue and its subqueues (R-S7). */
  moveCount: number;
  /** PROPID_M_ABORT_COUNT: receiving transactions aborted since it entered its current (sub)queue (R-S7). */
  abortCount: number;
  /** PROPID_M_LAST_MOVE_TIME, or null when never moved. */
  lastMoveTime: string | null;
  /** PROPID_M_DEADLETTER_QUEUE: the per-application dead-letter queue it names (R-D9), or null. */
  deadLetterQueue: string | null;
}

/**
 * A property a reader may ask for, as MSMQ's receivers name the PROPID_M_ properties they want (MQMSGPROPS,
 * .NET's MessageReadPropertyFilter): a receive given a list returns those and the message's `id` and
 * `lookupId`, nothing else.
 */
export type MessageProperty = keyof MessageInfo;

/**
 * One message as `qk export` writes it and `qk import` reads it back (docs/message-file-format.md): every
 * stored property, the body in base64, and the timers as durations from `timerBaseTime`, so an imported
 * message expires when the exported one would have.
 */
export interface ExportedMessage {
  /** Its lookup ID where it was exported (a queue gives a new one on import, R-L1). */
  lookupId: number;
  id: string;
  classCode: number;
  label: string;
  bodyBase64: string;
  priority: number;
  delivery: DeliveryName;
  journal: number;
  acknowledge: number;
  adminQueue: string | null;
  responseQueue: string | null;
  destinationQueue: string;
  correlationId: string | null;
  appSpecific: number;
  sourceMachine: string;
  sourceMachineId: string;
  sentTime: string;
  arrivedTime: string;
  /** When its timers started counting (the send, or its arrival from another computer). */
  timerBaseTime: string;
  /** Seconds from timerBaseTime. */
  timeToReachQueue: number;
  /** Seconds from timerBaseTime; null = unlimited. */
  timeToBeReceived: number | null;
  transactional: boolean;
  conversation: string | null;
  status: number;
  moveCount: number;
  abortCount: number;
  lastMoveTime: string | null;
  deadLetterQueue: string | null;
}

/**
 * The orders a browse can return messages in, one list for the contract, the engine, the store and the console;
 * `queue` is receive order (priority, then arrival).
 */
export const browseSortColumns = [
  'queue',
  'lookupId',
  'priority',
  'class',
  'label',
  'size',
  'sentTime',
  'arrivedTime',
] as const;
export type BrowseSortColumn = (typeof browseSortColumns)[number];

/** What a browse can filter on, evaluated where the messages are (a million-message queue is never shipped). */
export interface BrowseFilter {
  /** Case-insensitive substring of the label. */
  label?: string | undefined;
  /** Case-insensitive substring of the body (text bodies only). */
  bodyText?: string | undefined;
  /** PROPID_M_CLASS values. */
  classCodes?: number[] | undefined;
  /** ISO times, inclusive. */
  arrivedFrom?: string | undefined;
  arrivedTo?: string | undefined;
  /** The exact correlation ID (`{guid}\\N`). */
  correlationId?: string | undefined;
  /** The exact application-specific value. */
  appSpecific?: number | undefined;
  /** Case-insensitive substring of the source computer's name. */
  sourceMachine?: string | undefined;
  delivery?: DeliveryName | undefined;
}

/** What an application gives to send one message (CLI.md send options). */
export interface SendProperties {
  body?: string | undefined;
  bodyBase64?: string | undefined;
  label?: string | undefined;
  priority?: number | undefined;
  delivery?: DeliveryName | undefined;
  journal?: number | undefined;
  acknowledge?: number | undefined;
  adminQueue?: string | undefined;
  responseQueue?: string | undefined;
  /** Seconds; absent = LongLiveTime. */
  timeToReachQueue?: number | undefined;
  /** Seconds; absent = unlimited. */
  timeToBeReceived?: number | undefined;
  correlationId?: string | undefined;
  appSpecific?: number | undefined;
  conversation?: string | undefined;
  /** The sending application's own queue on this computer (retention keeps a status-3 copy there). */
  from?: string | undefined;
  /**
   * PROPID_M_DEADLETTER_QUEUE (R-D9): a local transactional queue that takes this transactional message's
   * dead letter instead of the transactional dead-letter queue; needs the dead-letter flag.
   */
  deadLetterQueue?: string | undefined;
}

export interface SettingInfo {
  name: string;
  /** null for a setting that is absent, as a registry value may be (XactDelayReceiveNack by default). */
  value: number | null;
  default: number | null;
  unit: string;
  min: number;
  max: number;
  restartRequired: boolean;
  /** The value that takes effect at the next restart, or null when nothing waits (or when absent waits). */
  pending: number | null;
  /** True when a change waits for the restart; with `pending` null, the setting becomes absent then. */
  pendingRestart?: boolean | undefined;
  description: string;
}

export interface DuplicateCacheStatus {
  entries: number;
  capacity: number;
  duplicatesRemoved: number;
}

export interface ServiceStatus {
  name: string;
  id: string;
  version: string;
  uptimeSeconds: number;
  messages: number;
  bytes: number;
  journalBytes: number;
  settingsPendingRestart: string[];
  duplicateCache: DuplicateCacheStatus;
  /** KB used against MachineQuota and MachineJournalQuota. */
  machineQuotaUsedKB: number;
  machineJournalQuotaUsedKB: number;
  startedTime: string;
  /** `HOST:PORT` of the peer listener (what `qk peer add` takes), or null without `--peer-listen`. */
  peerAddress: string | null;
  /** `sha256:` + hex of this computer's peer certificate, or null where the service has no network. */
  peerFingerprint: string | null;
  /** True when started with `--routing`: it relays messages for other computers. */
  routing: boolean;
  /** MSMQ's offline mode (`qk service disconnect`). */
  offline: boolean;
}
