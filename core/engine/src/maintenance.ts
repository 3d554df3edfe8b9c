/**
 * The queue manager's housekeeping on the timer tick, each at its own interval: the duplicate cache's
 * cleanup (RemoveDuplicateCleanup, R-U3), idle subqueues (R-S1), idle empty outgoing queues (CleanupInterval),
 * the message store's free space (MessageCleanupInterval) and the traffic meter's idle rings.
 */
import { isQkError } from '@qk/model';
import type { QueueRecord } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import type { DuplicateCache } from './duplicate-cache.js';
import { IdleSubqueues } from './subqueues.js';
import type { TrafficMeter } from './traffic.js';

export interface MaintenanceSettings {
  /** CleanupInterval (ms): how long an empty outgoing queue stays idle before it goes. */
  outgoingIdleMs: number;
  /** MessageCleanupInterval (ms): how often the store gives back the space of removed messages. */
  storeCleanupMs: number;
}

export class Maintenance {
  private readonly subqueues: IdleSubqueues;
  /** Subqueues opened by naming them since the last `releaseOpenedSubqueues`. */
  private readonly openedSubqueues = new Set<QueueRecord>();
  /** When each outgoing queue last had traffic. */
  private readonly outgoingActivity = new Map<number, number>();
  private lastStoreCleanupMs: number;

  constructor(
    private readonly ctx: EngineContext,
    private readonly duplicates: DuplicateCache,
    private readonly traffic: TrafficMeter,
    private readonly settings: MaintenanceSettings,
    startMs: number,
    hasOpenHandle: (queueId: number) => boolean,
    /** An outgoing queue on hold (paused) stays, empty or not: its hold shows in `qk outgoing list`. */
    private readonly isHeld: (queue: QueueRecord) => boolean = () => false,
  ) {
    this.lastStoreCleanupMs = startMs;
    this.subqueues = new IdleSubqueues(hasOpenHandle);
  }

  /** Notes the queues whose messages changed in the last tick. */
  touched(queue: QueueRecord, nowMs: number): void {
    if (queue.kind === 'outgoing') this.outgoingActivity.set(queue.id, nowMs);
  }

  /**
   * A call opened a subqueue by naming it: once the call's synchronous part is over (`releaseOpenedSubqueues`,
   * which the service calls then), it goes again if nothing uses it (R-S1) — without a queueCreated/queueDeleted
   * pair, as far as any watcher can tell it never existed — or, kept by a waiting receive, a cursor, a stream or
   * a move, it is announced then. A turn later at the latest, for callers that do not say when their part ends.
   */
  subqueueOpened(queue: QueueRecord): void {
    if (this.openedSubqueues.size === 0) setImmediate(() => this.releaseOpenedSubqueues());
    this.openedSubqueues.add(queue);
  }

  /**
   * The synchronous part of a call is over: the subqueues it opened only by naming them go now, before another
   * call read from the same chunk of a connection can see them (a refused call changes nothing).
   */
  releaseOpenedSubqueues(): void {
    // Every call of the service ends its synchronous part here: nothing to allocate when nothing was opened.
    if (this.openedSubqueues.size === 0) return;
    const opened = [...this.openedSubqueues];
    this.openedSubqueues.clear();
    for (const queue of opened) this.subqueueCallEnded(queue);
  }

  /** The call that opened or waited on a subqueue is over: it goes now if nothing else uses it (R-S1). */
  subqueueCallEnded(queue: QueueRecord): void {
    try {
      this.subqueues.dropIfUnused(this.ctx, queue);
    } catch (error) {
      // Closed meanwhile: the subqueue stays in the store and the next start's sweep removes it.
      if (isQkError(error) && error.code === 'SERVICE_NOT_AVAILABLE') return;
      this.ctx.log().error({ err: error, queueId: queue.id }, 'an unused subqueue could not be removed');
    }
  }

  tick(nowMs: number): void {
    this.duplicates.cleanup(nowMs);
    this.traffic.sweep(nowMs);
    this.subqueues.sweep(this.ctx, nowMs);
    this.removeIdleOutgoingQueues(nowMs);
    if (nowMs - this.lastStoreCleanupMs >= this.settings.storeCleanupMs) {
      this.lastStoreCleanupMs = nowMs;
      // MSMQ deletes its empty storage files; here the write-ahead log gives its space back.
      this.ctx.core.store.checkpoint();
    }
  }

  /**
   * An outgoing queue exists while messages wait in it (or while it is paused); once it is empty and has had
   * no traffic for CleanupInterval it goes, as MSMQ tears down idle outgoing queues (reference §3.1).
   */
  private removeIdleOutgoingQueues(nowMs: number): void {
    const { core } = this.ctx;
    const idle = core.registry.all().filter((q) => {
      if (q.kind !== 'outgoing' || core.registry.usageOf(q.id).count > 0 || this.isHeld(q)) return false;
      const last = this.outgoingActivity.get(q.id) ?? q.createdMs;
      return nowMs - last >= this.settings.outgoingIdleMs;
    });
    if (idle.length === 0) return;
    this.ctx.runner.runNow(() => {
      for (const q of idle) core.store.queues.remove(q.id);
    });
    for (const q of idle) {
      core.registry.remove(q);
      this.outgoingActivity.delete(q.id);
      this.traffic.forget(q.id);
      core.emit({ type: 'queueDeleted', path: q.name });
    }
  }
}
