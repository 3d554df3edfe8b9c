/**
 * Who owns each open transaction. A WebSocket connection's transactions are aborted when it closes; those
 * begun over plain HTTP (no connection to watch) are aborted after a while without use.
 */

/** Transactions begun over plain HTTP are aborted after this long without use. */
export const HTTP_TRANSACTION_IDLE_MS = 5 * 60_000;
const SWEEP_INTERVAL_MS = 15_000;

interface Entry {
  connectionId: string | undefined;
  lastUsed: number;
}

/** Tracks open transactions per connection and aborts orphans through the given callback. */
export class TransactionRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #abort: (transaction: string) => void;
  readonly #idleMs: number;
  readonly #now: () => number;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    abort: (transaction: string) => void,
    options: { idleMs?: number | undefined; now?: (() => number) | undefined } = {},
  ) {
    this.#abort = abort;
    this.#idleMs = options.idleMs ?? HTTP_TRANSACTION_IDLE_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Records a new transaction; `connectionId` undefined means plain HTTP (idle timeout applies). */
  begun(transaction: string, connectionId: string | undefined): void {
    this.#entries.set(transaction, { connectionId, lastUsed: this.#now() });
    if (connectionId === undefined) this.#startSweeper();
  }

  /** Marks a transaction as used now, so it is not idle. */
  touch(transaction: string): void {
    const entry = this.#entries.get(transaction);
    if (entry) entry.lastUsed = this.#now();
  }

  /** Forgets a committed or aborted transaction. */
  ended(transaction: string): void {
    this.#entries.delete(transaction);
  }

  /** Aborts every transaction of a connection that went away. */
  connectionClosed(connectionId: string): void {
    for (const [transaction, entry] of this.#entries) {
      if (entry.connectionId === connectionId) this.#abortQuietly(transaction);
    }
  }

  /** Aborts plain-HTTP transactions idle for longer than the limit. */
  sweep(): void {
    const cutoff = this.#now() - this.#idleMs;
    for (const [transaction, entry] of this.#entries) {
      if (entry.connectionId === undefined && entry.lastUsed <= cutoff) this.#abortQuietly(transaction);
    }
  }

  /** Forgets everything without aborting (the engine that owned them is gone). */
  clear(): void {
    this.#entries.clear();
  }

  /** Number of open transactions known (for tests and status). */
  get size(): number {
    return this.#entries.size;
  }

  dispose(): void {
    this.clear();
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #abortQuietly(transaction: string): void {
    this.#entries.delete(transaction);
    try {
      this.#abort(transaction);
    } catch {
      // Already committed/aborted by the engine (e.g. after a restart): nothing left to undo.
    }
  }

  #startSweeper(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(() => this.sweep(), Math.min(SWEEP_INTERVAL_MS, this.#idleMs));
    this.#sweeper.unref();
  }
}
