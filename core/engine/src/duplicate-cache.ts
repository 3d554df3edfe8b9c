/**
 * Duplicate removal for nontransactional messages (seed 003, R-U1–R-U3): an in-memory list of
 * (source computer, message ID) that empties on every restart. Oldest entries go first when it is full,
 * and the periodic cleanup drops entries older than RemoveDuplicateCleanup.
 */
export class DuplicateCache {
  /** Insertion order is age order, so the first key is the oldest. */
  private readonly entries = new Map<string, number>();
  private removed = 0;

  constructor(
    /** RemoveDuplicateSize; 0 disables duplicate removal. */
    readonly capacity: number,
    /** RemoveDuplicateCleanup in ms. */
    readonly maxAgeMs: number,
  ) {}

  /** True (and counted) when the message was seen already; otherwise remembers it. */
  checkAndRemember(sourceMachineId: string, messageId: string, nowMs: number): boolean {
    if (this.capacity === 0) return false;
    const key = `${sourceMachineId.toLowerCase()}|${messageId.toLowerCase()}`;
    if (this.entries.has(key)) {
      this.removed += 1;
      return true;
    }
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, nowMs);
    return false;
  }

  /** Forgets a message that was not stored after all, so its retry is not taken for a duplicate. */
  forget(sourceMachineId: string, messageId: string): void {
    this.entries.delete(`${sourceMachineId.toLowerCase()}|${messageId.toLowerCase()}`);
  }

  /** Drops entries older than the cleanup age. */
  cleanup(nowMs: number): void {
    for (const [key, at] of this.entries) {
      if (nowMs - at < this.maxAgeMs) break;
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
