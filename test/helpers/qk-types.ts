/**
 * The JSON shapes `qk --json` prints, written from CLI.md (the contract), not imported from the product:
 * the conformance suite is black-box and must notice when the product drifts from the contract.
 */

/** A queue as `qk queue list|show|create|set` prints it. */
export interface QkQueue {
  path: string;
  formatName: string;
  type: 'private' | 'public' | 'system' | 'journal' | 'outgoing' | 'subqueue';
  transactional: boolean;
  journal: boolean;
  label: string;
  quotaKB: number | null;
  journalQuotaKB: number | null;
  retention: boolean;
  messageCount: number;
  bytes: number;
  journalMessageCount: number;
  journalBytes: number;
  createdTime: string;
  modifiedTime: string;
  /** Subqueues: the path of their queue. */
  parent?: string;
}

/** A message as `qk receive|peek|messages` prints it. */
export interface QkMessage {
  id: string;
  lookupId: number;
  class: string;
  classCode: number;
  label: string;
  body: string | null;
  bodyBase64: string;
  bodySize: number;
  priority: number;
  delivery: 'express' | 'recoverable';
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
  timeToReachQueue: number;
  timeToBeReceived: number | null;
  transactional: boolean;
  conversation: string | null;
  status: number;
  moveCount: number;
  abortCount: number;
  /** The per-application dead-letter queue it names (R-D9), or null. */
  deadLetterQueue: string | null;
}

/** A page of `qk messages`. */
export interface QkMessagePage {
  total: number;
  messages: QkMessage[];
}

/** A setting as `qk settings` prints it. */
export interface QkSetting {
  name: string;
  /** null for a setting that is absent (XactDelayReceiveNack by default). */
  value: number | null;
  default: number | null;
  unit: string;
  restartRequired: boolean;
  pending: number | null;
}

/** `qk service status`. */
export interface QkStatus {
  name: string;
  id: string;
  version: string;
  uptimeSeconds: number;
  messages: number;
  bytes: number;
  journalBytes: number;
  settingsPendingRestart: string[];
  duplicateCache: { entries: number; capacity: number; duplicatesRemoved: number };
  /** CLI.md "Many computers". */
  peerAddress?: string | null;
  peerFingerprint?: string | null;
  routing?: boolean;
}

/** The ready line of `qk service start --json`. */
export interface QkReady {
  ready: true;
  name: string;
  id: string;
  url: string;
  /** With --peer-listen (CLI.md "Many computers"). */
  peerAddress?: string;
  peerFingerprint?: string;
}

/** A trusted computer as `qk peer list|add` prints it. */
export interface QkPeer {
  name: string;
  address: string;
  fingerprint: string;
  lastConnected: string | null;
  state: 'connected' | 'idle' | 'unreachable' | 'refused';
}

/** A route as `qk route list|set` prints it. */
export interface QkRoute {
  destination: string;
  via: string;
}

/** An outgoing queue as `qk outgoing list|pause|resume` prints it. */
export interface QkOutgoing {
  formatName: string;
  destinationComputer: string;
  nextHop: string | null;
  state: 'connected' | 'waiting' | 'onHold' | 'inactive';
  messageCount: number;
  bytes: number;
  unconfirmedCount: number;
  lastError: string | null;
  lastConnectedTime: string | null;
}

/** `{"error":{code,message}}` on stderr. */
export interface QkErrorBody {
  error: { code: string; message: string };
}
