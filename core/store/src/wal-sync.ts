/**
 * Makes committed transactions durable by syncing the store's write-ahead log (the `-wal` file) to disk.
 *
 * The store runs with `synchronous = NORMAL`: a commit writes its WAL frames (into the operating system's
 * cache, so a kill -9 loses nothing) without waiting for the disk, and SQLite itself syncs only around
 * checkpoints. Durability against a power cut comes from here: the engine answers a recoverable send only after
 * an fdatasync of the WAL that began after its commit. Syncing on the thread pool keeps the event loop free
 * while the disk works — with `synchronous = FULL` the fsync of each group commit blocked the loop (31 % of
 * the service's time in the producer + consumer workload, issue 11) — and one sync covers every commit made
 * before it started, so commits that come while a sync is on its way share the next one.
 */
import fs from 'node:fs';

export class WalSync {
  #fd: number | null = null;
  #closed = false;
  #inFlight = false;
  /** Called when the sync in flight ends (close waits for it before closing the descriptor). */
  #onIdle: (() => void) | null = null;

  constructor(private readonly walFile: string) {}

  /**
   * Syncs the WAL on the thread pool; `done` is called once every commit made before this call is on disk.
   * At most one sync runs at a time: the caller (the engine's unit runner) queues the next.
   */
  sync(done: (error: Error | null) => void): void {
    if (this.#closed) return queueMicrotask(() => done(closedError()));
    if (this.#inFlight) throw new Error('WalSync: a sync is already in flight');
    let fd: number | null;
    try {
      fd = this.#descriptor();
    } catch (error) {
      return queueMicrotask(() => done(error as Error));
    }
    if (fd === null) return queueMicrotask(() => done(null));
    this.#inFlight = true;
    fs.fdatasync(fd, (error) => {
      this.#inFlight = false;
      const idle = this.#onIdle;
      this.#onIdle = null;
      idle?.();
      done(error);
    });
  }

  /** Syncs the WAL now, on the event loop: for work answered at once (administration) and on close. */
  syncNow(): void {
    if (this.#closed) throw closedError();
    const fd = this.#descriptor();
    if (fd !== null) fs.fdatasyncSync(fd);
  }

  /** Closes the descriptor, after the sync in flight (if any) has ended. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const closeFd = (): void => {
      if (this.#fd !== null) fs.closeSync(this.#fd);
      this.#fd = null;
    };
    if (this.#inFlight) this.#onIdle = closeFd;
    else closeFd();
  }

  /**
   * The WAL's descriptor, opened at the first sync: SQLite creates the file with the connection's first write
   * and removes it only when the connection closes, so one descriptor serves the store's lifetime (fdatasync
   * acts on the file, whatever descriptor names it). Null when there is no WAL yet (nothing was written, so
   * nothing needs syncing) or the store is closed.
   */
  #descriptor(): number | null {
    if (this.#closed) return null;
    if (this.#fd === null) {
      try {
        this.#fd = fs.openSync(this.walFile, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    }
    return this.#fd;
  }
}

function closedError(): Error {
  return new Error('The store is closed.');
}
