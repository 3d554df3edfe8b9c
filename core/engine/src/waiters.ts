/** Receivers waiting for a message: woken when one arrives, never by polling (issue 2: "wakes on arrival"). */
import { QkError } from '@qk/model';
import type { Clock } from './types.js';

interface Waiter {
  wake: () => void;
  fail: (error: QkError) => void;
}

export class Waiters {
  private readonly byQueue = new Map<number, Set<Waiter>>();

  constructor(private readonly clock: Clock) {}

  /** Resolves true when something arrives on the queue, false when `ms` pass first; rejects when aborted. */
  wait(queueId: number, ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      let set = this.byQueue.get(queueId);
      if (!set) {
        set = new Set();
        this.byQueue.set(queueId, set);
      }
      const waiters = set;
      const done = (): void => {
        this.clock.clearTimeout(timer);
        waiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
        if (waiters.size === 0) this.byQueue.delete(queueId);
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
      const timer = this.clock.setTimeout(() => {
        done();
        resolve(false);
      }, ms);
      waiters.add(waiter);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** True while a receiver waits on the queue. */
  has(queueId: number): boolean {
    return (this.byQueue.get(queueId)?.size ?? 0) > 0;
  }

  /** Wakes every waiter of a queue; each tries again and the losers wait for their remaining time. */
  wake(queueId: number): void {
    const set = this.byQueue.get(queueId);
    if (!set) return;
    for (const waiter of [...set]) waiter.wake();
  }

  /** Fails the waiters of one queue (deleted) or of all queues (closing). */
  fail(queueId: number | null, error: QkError): void {
    const sets = queueId === null ? [...this.byQueue.values()] : [this.byQueue.get(queueId) ?? new Set<Waiter>()];
    for (const set of sets) for (const waiter of [...set]) waiter.fail(error);
  }
}
