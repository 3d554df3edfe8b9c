/**
 * What the queue manager's operations share beyond one unit of work: the runner that commits, the claims of
 * receives under way, the waiting receivers, and how names become queues. Each operation lives in a file of
 * its own and gets this; the QueueManager class only wires them to its API.
 */
import type { Logger } from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { Claims } from './claims.js';
import type { Core } from './core.js';
import type { DraftContext } from './drafts.js';
import type { RemoteTarget } from './queue-registry.js';
import type { UnitRunner } from './unit-runner.js';
import type { Waiters } from './waiters.js';

/** Where a send goes: a queue of this computer, or a remote destination (its outgoing queue). */
export type SendTarget = QueueRecord | RemoteTarget;

export interface EngineContext {
  readonly core: Core;
  readonly runner: UnitRunner;
  readonly claims: Claims;
  readonly waiters: Waiters;
  /** Where failures nobody waits for are reported. */
  log(): Logger;
  /** Runs work durably (group commit) or at once for work that touches only express messages. */
  execute<T>(durable: boolean, work: () => T): Promise<T>;
  /** A queue of this computer (a subqueue is opened, R-S1), or the outgoing queue of a remote destination. */
  resolveExisting(path: string): QueueRecord;
  /** Where a send to `path` goes; system queues, journals and subqueues refuse sends. */
  resolveSendTarget(path: string): SendTarget;
  /** The queue a resolved target is now (an outgoing queue is created on first use). Runs inside a unit of work. */
  currentTarget(target: SendTarget): QueueRecord;
  /**
   * Runs `work` while the messages are claimed, so no receive, purge or other operation takes them meanwhile.
   * When it fails they are released as they were (and a purge that came meanwhile removes them then, R-P2).
   */
  holding<T>(messages: StoredMessage[], work: () => Promise<T>): Promise<T>;
  /** The message with a lookup ID in a queue, or MESSAGE_NOT_FOUND. */
  messageIn(queue: QueueRecord, lookupId: number): StoredMessage;
  draftContext(): DraftContext;
  /** Starts deleting the rows of purged queues in the background, unless it is under way (reclaimer.ts). */
  reclaimPurged(): void;
  /** Forgets a queue that was removed from the store: the registry and what else is kept about it. */
  forget(queue: QueueRecord): void;
  /**
   * Runs `work`, which writes into `queue` later (a durable unit), with the queue held open: a subqueue the call
   * opened by naming it stays until the work has stored its messages there (R-S1), and goes afterwards only if
   * the work stored nothing.
   */
  writingInto<T>(queue: QueueRecord, work: () => Promise<T>): Promise<T>;
}
