/**
 * Logical purge (issue 11): one commit makes a queue's messages gone for every read, their rows are deleted
 * afterwards in the background with what each owes (R-P3), a restart in between revives nothing purged and
 * loses nothing sent after the purge, held messages stay until their receive ends (R-P2), and a message moved
 * in and out of a subqueue keeps its lookup ID through all of it (R-S3).
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { WriteReply } from '@qk/engine';
import { MessageClass, QkError } from '@qk/model';
import { openHarness, settle, settleUntil, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\big';
const ADMIN = '.\\private$\\admin';
const DLQ = '.\\DEADLETTER$';
/** More than a purge deletes before it answers (reclaimer.ts PURGE_SYNC_ROWS), so the rest is left to the background. */
const N = 16_000;
/** Every `NACK_EVERY`th message asks for a negative receive acknowledgment. */
const NACK_EVERY = 1_000;

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

const until = (check: () => boolean): Promise<void> => settleUntil(check, 5_000);

async function fill(count: number, timeToBeReceived?: number): Promise<number[]> {
  const lookupIds: number[] = [];
  for (let start = 0; start < count; start += 1_000) {
    const items = Array.from({ length: Math.min(1_000, count - start) }, (_, k) => {
      const i = start + k;
      const nack = i % NACK_EVERY === NACK_EVERY - 1;
      return {
        path: Q,
        message: {
          body: `m${i}`,
          delivery: 'recoverable' as const,
          journal: 1,
          ...(timeToBeReceived === undefined ? {} : { timeToBeReceived }),
          ...(nack ? { acknowledge: 0x08, adminQueue: ADMIN } : {}),
        },
      };
    });
    await h.qm.sendBatch(items);
  }
  const page = h.qm.browse({ path: Q, limit: 1 });
  lookupIds.push(...page.messages.map((m) => m.lookupId));
  return lookupIds;
}

const nacks = (): number =>
  h.qm.browse({ path: ADMIN, limit: 1_000 }).messages.filter((m) => m.classCode === MessageClass.NACK_Q_PURGED).length;

test('R-P3 a large purge is gone for every read at once; its NACKs follow from the background, each once', async () => {
  const [first] = await fill(N);
  expect(await h.qm.purgeQueue(Q)).toBe(N);
  expect(h.qm.showQueue(Q)).toMatchObject({ messageCount: 0, bytes: 0 });
  expect(h.qm.browse({ path: Q, limit: 10 }).messages).toEqual([]);
  expect(() => h.qm.getMessage(Q, first ?? 0)).toThrow(expect.objectContaining({ code: 'MESSAGE_NOT_FOUND' }));
  expect(h.qm.classCounts(Q)).toEqual([]);
  await expect(h.qm.peek({ path: Q })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });

  await h.qm.send(Q, { body: 'after', delivery: 'recoverable' });
  expect((await h.qm.receive({ path: Q })).body).toBe('after');
  await until(() => nacks() === N / NACK_EVERY);
  for (let i = 0; i < 20; i++) await settle();
  expect(nacks()).toBe(N / NACK_EVERY);
  expect(h.qm.showQueue(Q).messageCount).toBe(0);
}, 120_000);

test('a restart between the purge and the deletion of its rows revives nothing purged and loses nothing sent after', async () => {
  await fill(N + 8_000);
  expect(await h.qm.purgeQueue(Q)).toBe(N + 8_000);
  await h.qm.send(Q, { body: 'after', delivery: 'recoverable' });
  // Closed at once: the background deletion has not finished (a purge deletes PURGE_SYNC_ROWS before answering).
  await h.reopen();
  expect(h.qm.showQueue(Q).messageCount).toBe(1);
  expect(h.qm.browse({ path: Q, limit: 10, includeBody: true }).messages.map((m) => m.body)).toEqual(['after']);
  await until(() => nacks() === (N + 8_000) / NACK_EVERY);
  expect((await h.qm.receive({ path: Q })).body).toBe('after');
  await h.reopen();
  expect(h.qm.showQueue(Q).messageCount).toBe(0);
  expect(nacks()).toBe((N + 8_000) / NACK_EVERY);
}, 120_000);

test('R-X7 a purged message never expires: its purge owes what it owes, not a timeout', async () => {
  await fill(N, 5);
  await h.qm.purgeQueue(Q);
  h.clock.advance(6_000);
  for (let i = 0; i < 200; i++) await settle();
  await until(() => nacks() === N / NACK_EVERY);
  expect(h.qm.showQueue(DLQ).messageCount).toBe(0);
  const classes = h.qm.browse({ path: ADMIN, limit: 1_000 }).messages.map((m) => m.classCode);
  expect(new Set(classes)).toEqual(new Set([MessageClass.NACK_Q_PURGED]));
}, 120_000);

test('R-P2 a message held by a receive stays through the purge and goes, with its NACK, when the receive is undone', async () => {
  await h.qm.send(Q, { body: 'held', acknowledge: 0x08, adminQueue: ADMIN, delivery: 'recoverable' });
  await fill(N);
  let fail!: () => void;
  const receive = h.qm.receive({
    path: Q,
    deliver: () =>
      new Promise<WriteReply>((_resolve, reject) => {
        fail = () => reject(new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed.'));
      }),
  });
  await until(() => typeof fail === 'function');
  expect(await h.qm.purgeQueue(Q)).toBe(N);
  expect(h.qm.showQueue(Q).messageCount).toBe(1);
  fail();
  await expect(receive).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
  await until(() => h.qm.showQueue(Q).messageCount === 0);
  await until(() => nacks() === N / NACK_EVERY + 1);
}, 120_000);

test('R-S3 a message moved to a subqueue before the purge keeps its lookup ID, and is found again once moved back', async () => {
  await fill(200);
  const moved = h.qm.browse({ path: Q, limit: 1, includeBody: true }).messages[0];
  await h.qm.moveMessage(Q, moved?.lookupId ?? 0, `${Q};later`);
  expect(await h.qm.purgeQueue(Q)).toBe(199);
  expect(h.qm.getMessage(`${Q};later`, moved?.lookupId ?? 0).body).toBe(moved?.body);
  await h.qm.moveMessage(`${Q};later`, moved?.lookupId ?? 0, Q);
  expect(h.qm.getMessage(Q, moved?.lookupId ?? 0).body).toBe(moved?.body);
  expect(h.qm.showQueue(Q).messageCount).toBe(1);
  expect((await h.qm.receive({ path: Q })).lookupId).toBe(moved?.lookupId);
  // And a second purge of the same queue, after a restart, works on its new bucket.
  await fill(50);
  await h.reopen();
  expect(await h.qm.purgeQueue(Q)).toBe(50);
  expect(h.qm.showQueue(Q).messageCount).toBe(0);
});

test('R-Q1 deleting a large queue is one commit; its NACKs follow, and a queue created again by that name starts empty', async () => {
  await fill(N);
  let fail!: () => void;
  const held = h.qm.receive({
    path: Q,
    deliver: () =>
      new Promise<WriteReply>((_resolve, reject) => {
        fail = () => reject(new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed.'));
      }),
  });
  await until(() => typeof fail === 'function');
  await h.qm.deleteQueue(Q);
  expect(() => h.qm.showQueue(Q)).toThrow(expect.objectContaining({ code: 'QUEUE_NOT_FOUND' }));
  // The held message went with its queue (R-Q1): its receive cannot take it any more.
  fail();
  await expect(held).rejects.toMatchObject({ code: expect.stringMatching(/QUEUE_DELETED|SERVICE_NOT_AVAILABLE/) });
  h.qm.createQueue({ path: Q });
  expect(h.qm.showQueue(Q).messageCount).toBe(0);
  await h.qm.send(Q, { body: 'new', delivery: 'recoverable' });
  const deleted = (): number =>
    h.qm.browse({ path: ADMIN, limit: 1_000 }).messages.filter((m) => m.classCode === MessageClass.NACK_Q_DELETED)
      .length;
  await until(() => deleted() === N / NACK_EVERY);
  expect(h.qm.browse({ path: Q, limit: 10, includeBody: true }).messages.map((m) => m.body)).toEqual(['new']);
  await h.reopen();
  expect(h.qm.showQueue(Q).messageCount).toBe(1);
  expect(deleted()).toBe(N / NACK_EVERY);
}, 120_000);
