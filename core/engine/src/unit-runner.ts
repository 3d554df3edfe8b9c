/**
 * Runs units of work against the store. Durable work is batched: everything queued while the event loop
 * is busy is committed together (group commit, one fsync), each part in its own savepoint so a refused
 * part rolls back alone. Callers learn of success only after the commit.
 */
import { QkError } from '@qk/model';
import { isDiskFullError, type Store } from '@qk/store';
import type { Effects } from './effects.js';
import type { Sequences } from './identity.js';

/** How a unit of work behaves when the disk is full. */
export interface UnitOptions {
  /**
   * The work deletes messages (purge, queue deletion, an administrator's delete): on a full disk it may use the
   * store's space reserve, since deleting is how room is made and SQLite needs WAL room even to delete.
   */
  freesSpace?: boolean;
}

interface Pending {
  work: () => unknown;
  freesSpace: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Most parts one commit takes; the rest go in the next one. */
const MAX_BATCH = 5_000;

export class UnitRunner {
  private pending: Pending[] = [];
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly effects: Effects,
    private readonly sequences: Sequences,
  ) {}

  /** Runs work now in its own transaction: for work on express messages or administration that must answer at once. */
  runNow<T>(work: () => T, options: UnitOptions = {}): T {
    this.ensureOpen();
    this.sequences.ensure(64);
    for (;;) {
      const mark = this.effects.mark();
      try {
        const result = this.store.transaction(work);
        this.effects.commit();
        return result;
      } catch (error) {
        this.effects.rollbackTo(mark);
        if (!(options.freesSpace === true && this.releaseReserveFor(error))) throw error;
      }
    }
  }

  /** Queues durable work; it resolves once committed with the work of everyone else who came meanwhile. */
  runDurable<T>(work: () => T, options: UnitOptions = {}): Promise<T> {
    this.ensureOpen();
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        work,
        freesSpace: options.freesSpace === true,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued so far; used on close so no accepted work is lost. */
  flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.commitBatch(batch);
    }
  }

  close(): void {
    this.flush();
    this.closed = true;
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
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome?.error);
    });
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
