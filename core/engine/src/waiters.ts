/**
 * Receivers waiting for a message: woken when one arrives, never by polling (issue 2: "wakes on arrival").
 * A message that becomes ready wakes one receiver, the one that has waited longest — not all of them, who
 * would each look and all but one find nothing — so a wake-up costs the same with 1 or 1,000 waiting.
 * Peeks take nothing, so every waiting peek is woken as well.
 */
import { QkError } from '@qk/model';
import type { Clock } from './types.js';

interface Waiter {
  wake: () => void;
  fail: (error: QkError) => void;
}

/** `receive`: takes what it is woken for. `peek`: only looks, so it never uses up a wake-up. */
export type WaiterKind = 'receive' | 'peek';

interface QueueWaiters {
  /** In the order they started waiting (a Set iterates in insertion order). */
  receivers: Set<Waiter>;
  peekers: Set<Waiter>;
}

export class Waiters {
  private readonly byQueue = new Map<number, QueueWaiters>();

  constructor(private readonly clock: Clock) {}

  /**
   * Resolves true when something arrives on the queue, false when `ms` pass first (never, for Infinity: a
   * streaming receive waits as long as it lives); rejects when aborted.
   */
  wait(queueId: number, ms: number, signal?: AbortSignal, kind: WaiterKind = 'receive'): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      let queue = this.byQueue.get(queueId);
      if (!queue) {
        queue = { receivers: new Set(), peekers: new Set() };
        this.byQueue.set(queueId, queue);
      }
      const own = queue;
      const set = kind === 'peek' ? own.peekers : own.receivers;
      const done = (): void => {
        if (timer !== undefined) this.clock.clearTimeout(timer);
        set.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
        if (own.receivers.size === 0 && own.peekers.size === 0) this.byQueue.delete(queueId);
      };
      const waiter: Waiter = {
        wake: () => {
          done();
          resolve(true);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = (): void =>
        waiter.fail(new QkError('OPERATION_CANCELLED', 'The receive was cancelled by the caller.'));
      const timer = Number.isFinite(ms)
        ? this.clock.setTimeout(() => {
            done();
            resolve(false);
          }, ms)
        : undefined;
      set.add(waiter);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * One message became ready on a queue: wakes the receiver that has waited longest, and every peek. A
   * receiver that then finds the message taken by someone quicker waits again for its remaining time.
   */
  wake(queueId: number): void {
    const queue = this.byQueue.get(queueId);
    if (!queue) return;
    if (queue.peekers.size > 0) for (const peeker of [...queue.peekers]) peeker.wake();
    for (const receiver of queue.receivers) {
      receiver.wake();
      return;
    }
  }

  /** True while a receive or a peek waits on the queue. */
  has(queueId: number): boolean {
    return this.byQueue.has(queueId);
  }

  /** How many receivers wait on a queue (for tests and diagnostics). */
  waitingOn(queueId: number): number {
    return this.byQueue.get(queueId)?.receivers.size ?? 0;
  }

  /** Fails the waiters of one queue (deleted) or of all queues (closing). */
  fail(queueId: number | null, error: QkError): void {
    const queues = queueId === null ? [...this.byQueue.values()] : [this.byQueue.get(queueId)];
    for (const queue of queues) {
      if (!queue) continue;
      for (const waiter of [...queue.receivers, ...queue.peekers]) waiter.fail(error);
    }
  }
}
