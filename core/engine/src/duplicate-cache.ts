/**
 * Duplicate removal for nontransactional messages (seed 003, R-U1–R-U3): an in-memory list of
 * (source computer, message ID) that empties on every restart. An ID is remembered once its message is
 * stored, never before (a refused arrival may be retried). Oldest entries go first when it is full, and the
 * cleanup runs every RemoveDuplicateCleanup and drops what is older than that, so an entry lives between one
 * and two cleanup intervals (KB255546).
 */
import { OldestKey } from './oldest-key.js';

export class DuplicateCache {
  /** Insertion order is age order, so the first key is the oldest. */
  private readonly entries = new Map<string, number>();
  private readonly oldest = new OldestKey(this.entries);
  private removed = 0;
  private lastCleanupMs: number;

  constructor(
    /** RemoveDuplicateSize; 0 disables duplicate removal. */
    readonly capacity: number,
    /** RemoveDuplicateCleanup in ms: how often the cleanup runs, and the age it removes. */
    readonly intervalMs: number,
    startMs: number,
  ) {
    this.lastCleanupMs = startMs;
  }

  /**
   * A message's entry: (source computer, message ID), case-blind. A caller deciding many messages makes each
   * key once and passes it on (building and hashing it was most of a lookup).
   */
  static keyOf(sourceMachineId: string, messageId: string): string {
    return `${sourceMachineId.toLowerCase()}|${messageId.toLowerCase()}`;
  }

  /** True (and counted as a duplicate removed) when the message was stored already. */
  isDuplicate(sourceMachineId: string, messageId: string): boolean {
    return this.isDuplicateKey(DuplicateCache.keyOf(sourceMachineId, messageId));
  }

  /** isDuplicate by the key `keyOf` made. */
  isDuplicateKey(key: string): boolean {
    if (this.capacity === 0 || !this.entries.has(key)) return false;
    this.removed += 1;
    return true;
  }

  /** Remembers a message that was stored. */
  remember(sourceMachineId: string, messageId: string, nowMs: number): void {
    this.rememberKey(DuplicateCache.keyOf(sourceMachineId, messageId), nowMs);
  }

  /** remember by the key `keyOf` made. */
  rememberKey(key: string, nowMs: number): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.oldest.next();
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, nowMs);
  }

  /** Runs the cleanup when an interval has passed since the last one: entries older than the interval go. */
  cleanup(nowMs: number): void {
    if (nowMs - this.lastCleanupMs < this.intervalMs) return;
    this.lastCleanupMs = nowMs;
    for (const [key, at] of this.entries) {
      if (nowMs - at < this.intervalMs) break;
      this.entries.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get duplicatesRemoved(): number {
    return this.removed;
  }
}
