/**
 * Expiry (R-X6, R-X7): messages whose timer ran out are removed within one tick of their time, with what
 * that owes (a NACK, a dead letter). One pass at a time; a full batch is followed at once by the next.
 */
import { EXPIRY_BATCH } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { removeMessage } from './removal.js';

export class Expiry {
  private running = false;

  constructor(
    private readonly ctx: EngineContext,
    /** True once the queue manager is closing: no further pass starts. */
    private readonly closed: () => boolean,
  ) {}

  /**
   * Removes what is due now; returns how many were due. At start-up the work runs synchronously so nothing
   * expired is seen by the first receive.
   */
  run(synchronously: boolean): number {
    if (this.running) return 0;
    const { core, claims, runner } = this.ctx;
    const due = core.store.messages.expired(core.clock.now()).filter((m) => !claims.has(m.lookupId));
    if (due.length === 0) return 0;
    const work = (): void => {
      for (const m of due) {
        const current = core.store.messages.get(m.lookupId);
        if (current) removeMessage(core, current, 'expired');
      }
    };
    const durable = due.some((m) => m.table === 'main');
    if (synchronously || !durable) {
      runner.runNow(work);
      return due.length;
    }
    this.running = true;
    void runner
      .runDurable(work)
      .catch((error: unknown) =>
        // The expired messages stay where they are; the next tick tries them again.
        this.ctx
          .log()
          .error({ err: error, due: due.length }, 'An expiry pass failed to commit; it is retried next tick'),
      )
      .finally(() => {
        this.running = false;
        // A full batch means more are due: go on now rather than a tick later (100,000 due at once).
        if (due.length >= EXPIRY_BATCH && !this.closed()) this.run(false);
      });
    return due.length;
  }
}
