/**
 * Runs units of work against the store. Durable work is batched: everything queued while the event loop
 * is busy is committed together (group commit), each part in its own savepoint so a refused part rolls back
 * alone. Callers learn of success only once the commit is on disk: the disk is waited for off the event loop
 * (Store.sync), one sync at a time, and commits made while a sync is on its way share the next one — so the
 * loop keeps reading, committing and answering while the disk works, and a busy service makes fewer, larger
 * syncs without a single caller waiting for a timer.
 */
import { QkError } from '@qk/model';
import { isDiskFullError, type Store } from '@qk/store';
import type { Effects } from './effects.js';
import type { Sequences } from './identity.js';

/** How a unit of work is run: what it may do on a full disk, and when its caller is answered. */
export interface UnitOptions {
  /**
   * The work deletes messages (purge, queue deletion, an administrator's delete): on a full disk it may use the
   * store's space reserve, since deleting is how room is made and SQLite needs WAL room even to delete.
   */
  freesSpace?: boolean;
  /**
   * runDurable: answer once committed, without waiting for the disk. For the removal of a receive, whose reply
   * must be written in the same turn as the commit — a connection closing in between would leave a message
   * removed whose reply cannot leave. The removal survives the process being killed; a power cut before the
   * next sync (under a millisecond later) can only bring the message back, never lose one.
   */
  answerOnCommit?: boolean;
  /**
   * The work touches express messages only, which no disk keeps: nothing to sync, so it is answered once
   * committed (runDurable: the removals of express receives), and it is taken even after the disk failed.
   */
  express?: boolean;
}

interface Pending {
  work: () => unknown;
  freesSpace: boolean;
  answerOnCommit: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A committed part waiting for its commit to reach the disk. */
interface Unsynced {
  item: Pending;
  value: unknown;
}

/** Most parts one commit takes; the rest go in the next one. */
const MAX_BATCH = 5_000;

export class UnitRunner {
  private pending: Pending[] = [];
  private scheduled = false;
  private closed = false;
  /** Committed parts whose answers wait for the next sync. */
  private unsynced: Unsynced[] = [];
  private syncing = false;
  /** Set once a sync failed: what the disk holds is no longer known, so no more durable work is taken. */
  private diskFailure: QkError | null = null;

  constructor(
    private readonly store: Store,
    private readonly effects: Effects,
    private readonly sequences: Sequences,
  ) {}

  /**
   * Runs work now in its own transaction: for work on express messages or administration that must answer at
   * once. Unless the work is express only, the commit is put on disk before this returns.
   */
  runNow<T>(work: () => T, options: UnitOptions = {}): T {
    this.ensureOpen();
    if (options.express !== true) this.ensureDiskHealthy();
    this.sequences.ensure(64);
    const changesBefore = this.store.changes();
    for (;;) {
      const mark = this.effects.mark();
      let result: T;
      try {
        result = this.store.transaction(work);
      } catch (error) {
        this.effects.rollbackTo(mark);
        if (!(options.freesSpace === true && this.releaseReserveFor(error))) throw error;
        continue;
      }
      this.effects.commit();
      // Work that wrote nothing (a maintenance pass with nothing to do) has nothing to wait for.
      if (options.express !== true && this.store.changes() !== changesBefore) this.syncNow();
      return result;
    }
  }

  /** Queues durable work; it resolves once committed with the work of everyone else who came meanwhile. */
  runDurable<T>(work: () => T, options: UnitOptions = {}): Promise<T> {
    this.ensureOpen();
    if (options.express !== true) this.ensureDiskHealthy();
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        work,
        freesSpace: options.freesSpace === true,
        // Express work has no sync to wait for.
        answerOnCommit: options.answerOnCommit === true || options.express === true,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued so far and starts putting it on disk. */
  flush(): void {
    // The store's WAL is long and its checkpoint worker is copying the last of it: committing a moment later lets
    // the next commit start the WAL over (core/store/src/checkpointer.ts). `scheduled` stays set meanwhile, so the
    // work queued until then joins this commit.
    if (this.store.deferCommit(() => this.flush())) return;
    // Committed at once even while a sync is on its way: its callers are answered no sooner (the next sync begins
    // after this one ends), but what it sends can be received now. Waiting for that sync put the disk's latency
    // into every message's way from sender to receiver: at 1,000 sends a second with a consumer waiting, e2e p99
    // 2.8-3.6 ms waiting, 1.7-2.3 ms committing at once; W2's sends without a consumer measured the same either
    // way (40,000 msg/s, issue 11).
    this.commitPending();
    this.startSync();
  }

  /** Commits and syncs everything queued, answering every caller; then refuses new work. */
  close(): void {
    this.commitPending();
    // The sync on its way (if any) answers its own parts; the rest are put on disk here, before the store closes.
    const rest = this.unsynced;
    this.unsynced = [];
    if (rest.length > 0) {
      try {
        this.store.syncNow();
        for (const { item, value } of rest) item.resolve(value);
      } catch (error) {
        this.failSync(rest, error);
      }
    }
    this.closed = true;
  }

  private commitPending(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.commitBatch(batch);
    }
  }

  private commitBatch(batch: Pending[]): void {
    this.sequences.ensure(batch.length * 4 + 64);
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.store.transaction(() => {
        for (const item of batch) {
          const mark = this.effects.mark();
          try {
            outcomes.push({ ok: true, value: this.store.transaction(item.work) });
          } catch (error) {
            this.effects.rollbackTo(mark);
            // A full disk is no one part's fault: the whole commit fails (and its deletions may go again below).
            if (isDiskFullError(error)) throw error;
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      this.effects.rollbackAll();
      const freeing = batch.filter((item) => item.freesSpace);
      if (freeing.length > 0 && this.releaseReserveFor(error)) {
        // Only the deletions go again on the reserve; sends would use up the room they are meant to make.
        this.rejectCommit(
          batch.filter((item) => !item.freesSpace),
          error,
        );
        this.commitBatch(freeing);
        return;
      }
      this.rejectCommit(batch, error);
      return;
    }
    this.effects.commit();
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      // A refused part committed nothing of its own: its answer does not wait for the disk.
      if (!outcome?.ok) item.reject(outcome?.error);
      else if (item.answerOnCommit) item.resolve(outcome.value);
      else this.unsynced.push({ item, value: outcome.value });
    });
  }

  /** Starts a sync for the parts committed so far, unless one is on its way (its end starts the next). */
  private startSync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    const covered = this.unsynced;
    this.unsynced = [];
    this.syncing = true;
    this.store.sync((error) => {
      this.syncing = false;
      if (error) this.failSync(covered, error);
      else for (const { item, value } of covered) item.resolve(value);
      // What was committed while this sync was on its way goes on disk now.
      this.startSync();
    });
  }

  private syncNow(): void {
    try {
      this.store.syncNow();
    } catch (error) {
      throw this.failSync([], error);
    }
  }

  /**
   * A sync failed: what it covered is committed (others may already read it) but the disk did not confirm it.
   * Its callers are told the store failed, and no more durable work is taken until a restart — after a failed
   * fsync the operating system may have dropped the pages it could not write, so a later success proves nothing.
   */
  private failSync(covered: Unsynced[], error: unknown): QkError {
    const why = error instanceof Error ? error.message : String(error);
    const failure = (this.diskFailure ??= new QkError(
      'MESSAGE_STORAGE_FAILED',
      `The disk holding the store did not confirm a write (${why}): restart the service once the disk is healthy.`,
    ));
    process.emitWarning(failure.message, { code: 'QK_STORE_SYNC_FAILED' });
    for (const { item } of covered) item.reject(failure);
    for (const { item } of this.unsynced.splice(0)) item.reject(failure);
    return failure;
  }

  private ensureDiskHealthy(): void {
    if (this.diskFailure) throw this.diskFailure;
  }

  private rejectCommit(batch: Pending[], error: unknown): void {
    const failure = new QkError(
      'MESSAGE_STORAGE_FAILED',
      `The store could not commit: ${error instanceof Error ? error.message : String(error)}`,
    );
    for (const item of batch) item.reject(failure);
  }

  /**
   * After a commit of deletions failed because the disk is full, gives the store's space reserve back so it
   * can go again. False when the error is another one or the reserve was given back already.
   */
  private releaseReserveFor(error: unknown): boolean {
    if (!isDiskFullError(error) || !this.store.releaseSpaceReserve()) return false;
    process.emitWarning(
      'The disk holding the store is full: its space reserve was given back so that deletions can make room. Free space on that disk; the reserve is set aside again at the next start.',
      { code: 'QK_SPACE_RESERVE_RELEASED' },
    );
    return true;
  }

  private ensureOpen(): void {
    if (this.closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager is stopping.');
  }
}
