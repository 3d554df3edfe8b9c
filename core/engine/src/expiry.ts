/**
 * Expiry (R-X6, R-X7): messages whose timer ran out are removed within one tick of their time, with what
 * that owes (a NACK, a dead letter). One pass at a time; a full batch is followed at once by the next.
 */
import { EXPIRY_BATCH } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { removeMessage } from './removal.js';
import { expireInBulk } from './bulk-expiry.js';

/** Plain due messages (bulk-expiry.ts) removed per table per pass: one pass stays a short hold of the event loop. */
const BULK_BATCH = 10_000;

export class Expiry {
  private running = false;

  constructor(
    private readonly ctx: EngineContext,
    /** True once the queue manager is closing: no further pass starts. */
    private readonly closed: () => boolean,
  ) {}

  /**
   * Removes what is due now. At start-up the work runs synchronously so nothing expired is seen by the first
   * receive; returns whether a pass found anything (at start-up: whether to go on).
   */
  run(synchronously: boolean): boolean {
    if (this.running) return false;
    const { core, runner } = this.ctx;
    const now = core.clock.now();
    // One index probe per table, so an idle tick queues no work; the rows are read inside the unit of work
    // itself, once, so that what a pass removes is what is due and unclaimed when it commits.
    const tables = core.store.messages.tablesWithExpired(now);
    if (tables.length === 0) return false;
    const work = (): Pass => this.expire(now);
    if (synchronously || !tables.includes('main')) {
      const pass = runner.runNow(work);
      if (!synchronously && pass.more) setImmediate(() => this.again());
      return pass.removed > 0;
    }
    this.running = true;
    // Nobody waits for an expiry's answer: the next pass follows its commit, not the disk (unit-runner.ts).
    runner.runDurable(work, { answerOnCommit: true }).then(
      (pass) => {
        this.running = false;
        // A full batch means more are due: go on now rather than a tick later (100,000 due at once).
        if (pass.more) this.again();
      },
      (error: unknown) => {
        this.running = false;
        // The expired messages stay where they are; the next tick tries them again.
        this.ctx.log().error({ err: error }, 'An expiry pass failed to commit; it is retried next tick');
      },
    );
    return true;
  }

  private again(): void {
    if (!this.closed()) this.run(false);
  }

  /**
   * Inside a unit of work: removes what is due and not held by a receive — the messages that owe nothing of
   * their own in sets, then up to a batch per table of the rest one by one.
   */
  private expire(now: number): Pass {
    const { core, claims } = this.ctx;
    const bulk = expireInBulk(this.ctx, now, BULK_BATCH);
    // More plain ones are due: the next pass takes them first (read one by one, they would cost whole rows).
    if (bulk.full) return { removed: bulk.removed, more: true };
    const due = core.store.messages.expired(now);
    let removed = 0;
    for (const m of due) {
      if (claims.has(m.lookupId)) continue;
      removeMessage(core, m, 'expired');
      removed++;
    }
    return { removed: bulk.removed + removed, more: removed > 0 && due.length >= EXPIRY_BATCH };
  }
}

interface Pass {
  removed: number;
  /** A batch came back full: more are due at once. */
  more: boolean;
}
