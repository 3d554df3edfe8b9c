/**
 * Issue 11: the removals of receives that finish in one turn go as one part of the group commit; a set that
 * fails is undone and each removal goes again alone, so only the receive whose message is gone fails.
 */
import { describe, expect, it } from 'vitest';
import { QkError } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import { ReceiveRemovals } from '../../../core/engine/src/receive-removals.js';

/** A unit runner in miniature: parts wait for flush(), then run in order; a part that throws is rejected alone. */
function fakeRunner() {
  let pending: { work: () => void; resolve: () => void; reject: (e: unknown) => void }[] = [];
  const parts: number[] = [];
  return {
    parts,
    runOnCommit: (work: () => void) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ work, resolve, reject });
      }),
    flush() {
      const batch = pending;
      pending = [];
      parts.push(batch.length);
      for (const part of batch) {
        try {
          part.work();
          part.resolve();
        } catch (error) {
          part.reject(error);
        }
      }
    },
  };
}

const message = (lookupId: number) => ({ lookupId }) as StoredMessage;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ReceiveRemovals', () => {
  it('removes the messages of the receives that finish in one turn in one part, in the order they finished', async () => {
    const runner = fakeRunner();
    const removed: number[][] = [];
    const removals = new ReceiveRemovals(runner.runOnCommit, (messages) =>
      removed.push(messages.map((m) => m.lookupId)),
    );
    const done = [
      removals.remove([message(1)]),
      removals.remove([message(2), message(3)]),
      removals.remove([message(4)]),
    ];
    runner.flush();
    await Promise.all(done);
    expect(removed).toEqual([[1, 2, 3, 4]]);
    expect(runner.parts).toEqual([1]);
    // A receive that finishes after the set was taken goes with the next one.
    const later = removals.remove([message(5)]);
    runner.flush();
    await later;
    expect(removed).toEqual([[1, 2, 3, 4], [5]]);
  });

  it('when the set fails, each removal goes again alone: only the receive whose message is gone fails', async () => {
    const runner = fakeRunner();
    const removed: number[][] = [];
    const removals = new ReceiveRemovals(runner.runOnCommit, (messages) => {
      if (messages.some((m) => m.lookupId === 2)) throw new QkError('QUEUE_DELETED', 'gone');
      removed.push(messages.map((m) => m.lookupId));
    });
    const outcomes = Promise.allSettled([
      removals.remove([message(1)]),
      removals.remove([message(2)]),
      removals.remove([message(3)]),
    ]);
    runner.flush();
    await settle();
    runner.flush();
    const settled = await outcomes;
    expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'QUEUE_DELETED' });
    expect(removed).toEqual([[1], [3]]);
  });
});
