/**
 * Runs units of work against the store. Durable work is batched: everything queued while the event loop
 * is busy is committed together (group commit, one fsync), each part in its own savepoint so a refused
 * part rolls back alone. Callers learn of success only after the commit.
 */
import { QkError } from '@qk/model';
import type { Store } from '@qk/store';
import type { Effects } from './effects.js';
import type { Sequences } from './identity.js';

interface Pending {
  work: () => unknown;
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
  runNow<T>(work: () => T): T {
    this.ensureOpen();
    this.sequences.ensure(64);
    const mark = this.effects.mark();
    try {
      const result = this.store.transaction(work);
      this.effects.commit();
      return result;
    } catch (error) {
      this.effects.rollbackTo(mark);
      throw error;
    }
  }

  /** Queues durable work; it resolves once committed with the work of everyone else who came meanwhile. */
  runDurable<T>(work: () => T): Promise<T> {
    this.ensureOpen();
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
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
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      this.effects.rollbackAll();
      const failure = new QkError(
        'MESSAGE_STORAGE_FAILED',
        `The store could not commit: ${error instanceof Error ? error.message : String(error)}`,
      );
      for (const item of batch) item.reject(failure);
      return;
    }
    this.effects.commit();
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome?.error);
    });
  }

  private ensureOpen(): void {
    if (this.closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager is stopping.');
  }
}
