/**
 * The plain-JSON shapes of queues, messages, settings and the queue manager's status (CLI.md "JSON
 * shapes"). These are what crosses every boundary; `core/api` validates them with zod.
 */
import type { DeliveryName } from './constants.js';

export type QueueType = 'private' | 'public' | 'system' | 'journal' | 'outgoing';

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
  /** Seconds; null = unlimited. */
  timeToBeReceived: number | null;
  transactional: boolean;
  conversation: string | null;
  /** Service Broker status: 1 ready, 0 retained after receive, 3 retained copy of a sent message. */
  status: number;
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
}

export interface SettingInfo {
  name: string;
  value: number;
  default: number;
  unit: string;
  min: number;
  max: number;
  restartRequired: boolean;
  /** The value that takes effect at the next restart, or null when nothing waits. */
  pending: number | null;
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
