/**
 * Expiry in sets (core/engine/src/bulk-expiry.ts): messages that owe nothing of their own leave in sets, the
 * others one by one in the same passes, and the dead letters of both ways are the same message (R-X7, R-D4).
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { MessageInfo } from '@qk/model';
import { MessageClass } from '@qk/model';
import { openHarness, settleUntil, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\sets';
const ADMIN = '.\\private$\\sets-admin';
const DLQ = '.\\DEADLETTER$';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

const until = (check: () => boolean): Promise<void> => settleUntil(check, 2_000);

test('R-X7 R-D4 plain, unflagged and NACK-asking messages expiring together: each owes what it owes, once', async () => {
  const send = async (count: number, label: string, extra: object, delivery: 'express' | 'recoverable') => {
    for (let i = 0; i < count; i += 1_000)
      await h.qm.sendBatch(
        Array.from({ length: Math.min(1_000, count - i) }, () => ({
          path: Q,
          message: { body: 'b', label, priority: 5, timeToBeReceived: 10, delivery, ...extra },
        })),
      );
  };
  await send(12_000, 'plain', { journal: 1 }, 'recoverable');
  await send(1_500, 'express', { journal: 1 }, 'express');
  await send(700, 'no-dl', {}, 'recoverable');
  await send(300, 'nack', { journal: 1, acknowledge: 0x08, adminQueue: ADMIN }, 'recoverable');

  h.clock.advance(10_100);
  await until(() => h.qm.showQueue(Q).messageCount === 0);
  await until(() => h.qm.showQueue(DLQ).messageCount === 13_800);
  expect(h.qm.showQueue(ADMIN).messageCount).toBe(300);

  const letters: MessageInfo[] = [];
  for (let offset = 0; offset < 13_800; offset += 1_000)
    letters.push(...h.qm.browse({ path: DLQ, offset, limit: 1_000 }).messages);
  const byLabel = (label: string) => letters.filter((m) => m.label === label);
  expect(byLabel('plain')).toHaveLength(12_000);
  expect(byLabel('express')).toHaveLength(1_500);
  expect(byLabel('nack')).toHaveLength(300);
  expect(new Set(letters.map((m) => m.classCode))).toEqual(new Set([MessageClass.NACK_RECEIVE_TIMEOUT]));
  expect(new Set(letters.map((m) => m.lookupId)).size).toBe(letters.length);
  expect(new Set(letters.map((m) => m.id)).size).toBe(letters.length);

  // A set's copy is the same message as a one-by-one copy: the fields that differ are the ones sent differently.
  const [fromSet, oneByOne] = [byLabel('plain')[0], byLabel('nack')[0]];
  const shape = (m: typeof fromSet) => {
    const { lookupId: _l, id: _i, label: _b, acknowledge: _a, adminQueue: _q, sentTime: _s, ...rest } = m ?? {};
    return rest;
  };
  expect(shape(fromSet)).toEqual(shape(oneByOne));
  expect(fromSet).toMatchObject({
    arrivedTime: new Date(h.clock.now()).toISOString(),
    timeToBeReceived: 10,
    destinationQueue: Q,
    priority: 5,
    delivery: 'recoverable',
  });
  expect(byLabel('express')[0]?.delivery).toBe('express');
  const nacks = h.qm.browse({ path: ADMIN, limit: 1_000 }).messages;
  expect(new Set(nacks.map((m) => m.classCode))).toEqual(new Set([MessageClass.NACK_RECEIVE_TIMEOUT]));

  // Each copy is receivable in order: the dead-letter queue's readers see them.
  const first = await h.qm.receive({ path: DLQ });
  expect(first.classCode).toBe(MessageClass.NACK_RECEIVE_TIMEOUT);
  expect(h.qm.showQueue(DLQ).messageCount).toBe(13_799);
}, 120_000);
