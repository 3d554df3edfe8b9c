/**
 * Expiry of a burst (issue 11: 100,000 due at once): passes follow each other at once while a batch comes
 * back full, each reads what is due inside its own unit of work, and a message held by a receive is left
 * to that receive (R-X7 applies once it is ready again).
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { WriteReply } from '@qk/engine';
import { MessageClass, QkError } from '@qk/model';
import { EXPIRY_BATCH } from '@qk/store';
import { openHarness, settleUntil, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\burst';
const DLQ = '.\\DEADLETTER$';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
});
afterEach(async () => {
  await h.dispose();
});

const until = (check: () => boolean): Promise<void> => settleUntil(check, 2_000);

test('R-X7 more than a batch due at once all expire without waiting for further ticks; one held by a receive waits for it', async () => {
  const n = EXPIRY_BATCH * 2 + 10;
  const items = Array.from({ length: n }, (_, i) => ({
    path: Q,
    message: { body: `m${i}`, timeToBeReceived: 10, journal: 1, delivery: 'recoverable' as const },
  }));
  for (let i = 0; i < n; i += 1_000) await h.qm.sendBatch(items.slice(i, i + 1_000));
  let fail!: () => void;
  const held = h.qm.receive({
    path: Q,
    deliver: () =>
      new Promise<WriteReply>((_resolve, reject) => {
        fail = () => reject(new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed.'));
      }),
  });
  await until(() => typeof fail === 'function');

  // One tick: the passes after the first follow on their own, not a tick each.
  h.clock.advance(10_100);
  await until(() => h.qm.showQueue(DLQ).messageCount === n - 1);
  expect(h.qm.showQueue(Q).messageCount).toBe(1);
  const classes = new Set(h.qm.browse({ path: DLQ, limit: 50 }).messages.map((m) => m.classCode));
  expect([...classes]).toEqual([MessageClass.NACK_RECEIVE_TIMEOUT]);

  // The receive is undone: its message is ready again, already expired, and goes at the next tick.
  fail();
  await expect(held).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
  h.clock.advance(200);
  await until(() => h.qm.showQueue(DLQ).messageCount === n);
  expect(h.qm.showQueue(Q).messageCount).toBe(0);
}, 60_000);
