/**
 * The engine's events, past tense: one definition for the engine that emits them, core/api's schema that
 * checks them at the process boundary, and every subscriber. `queueChanged` (counts) comes at most once per
 * queue per timer tick (100 ms); `messageArrived`/`messageRemoved` come per message up to 256 per tick, and a
 * larger burst is told only by `queueChanged`, so subscribers that show messages refresh on it too.
 */
import type { OutgoingQueueInfo, PeerInfo } from './network.js';

/** Why a message left its queue. */
export const messageRemovalReasons = [
  'received',
  'purged',
  'deleted',
  'expired',
  'moved',
  'queueDeleted',
  'conversationEnded',
  'retained',
  'rejected',
  /** Left an outgoing queue: the next hop stored it (docs/network.md). */
  'forwarded',
] as const;
export type MessageRemovalReason = (typeof messageRemovalReasons)[number];

/** The counts a `queueChanged` event carries. */
export interface QueueCounts {
  path: string;
  messageCount: number;
  bytes: number;
  journalMessageCount: number;
  journalBytes: number;
}

export type QkEvent =
  | { type: 'queueCreated'; path: string }
  | { type: 'queueDeleted'; path: string }
  | ({ type: 'queueChanged' } & QueueCounts)
  | { type: 'queuePurged'; path: string; purged: number }
  | { type: 'messageArrived'; path: string; lookupId: number; id: string; classCode: number }
  | { type: 'messageRemoved'; path: string; lookupId: number; reason: MessageRemovalReason }
  | { type: 'settingChanged'; name: string; value: number | null; pending: number | null }
  | { type: 'serviceRestarted' }
  /** A peer's state or entry changed (docs/network.md). */
  | { type: 'peerChanged'; peer: PeerInfo }
  /** An outgoing queue's state, next hop or counts changed. */
  | { type: 'outgoingQueueChanged'; outgoing: OutgoingQueueInfo };

export type QkEventType = QkEvent['type'];
