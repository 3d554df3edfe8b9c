/**
 * Issue 7 item 3: a message leaves the store only when its reply can reach the caller. Every receive path
 * (single, by lookup ID, batch, transactional) first has the caller prepare its reply; a plain receive then
 * commits the removal and only then writes the reply, so nothing is ever handed out twice.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass, QkError, type MessageInfo } from '@qk/model';
import type { WriteReply } from '@qk/engine';
import { openHarness, settle, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\q';
const TX = '.\\private$\\tx';
const ADMIN = '.\\private$\\admin';
/** MQMSG_ACKNOWLEDGMENT_POS_RECEIVE. */
const ACK_POSITIVE_RECEIVE = 0x02;

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q, journal: true });
  h.qm.createQueue({ path: TX, transactional: true });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

const connectionClosed = (): Promise<WriteReply> =>
  Promise.reject(new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed before the reply left.'));
const lookupIds = (path: string): number[] => h.qm.browse({ path }).messages.map((m) => m.lookupId);
const bodies = (path: string): (string | null)[] =>
  h.qm.browse({ path, includeBody: true }).messages.map((m) => m.body);

/**
 * A delivery step the test completes by hand, to look at the store while the reply is being prepared; it
 * records, when the reply is written, how many messages the queue held at that moment.
 */
function heldDelivery<T>(path = Q) {
  let release!: () => void;
  let fail!: (error: unknown) => void;
  const delivered: T[] = [];
  const writtenWhenQueueHeld: number[] = [];
  const deliver = (reply: T): Promise<WriteReply> => {
    delivered.push(reply);
    return new Promise<WriteReply>((resolve, reject) => {
      release = () =>
        resolve(async () => {
          writtenWhenQueueHeld.push(h.qm.showQueue(path).messageCount);
        });
      fail = reject;
    });
  };
  return { deliver, delivered, writtenWhenQueueHeld, release: () => release(), fail: (e: unknown) => fail(e) };
}

describe('single receive', () => {
  test('R-J2 R-A3 a reply that cannot be delivered leaves the message in place: same lookup ID and position, no journal copy, no acknowledgment', async () => {
    await h.qm.send(Q, { body: 'first', journal: 2, acknowledge: ACK_POSITIVE_RECEIVE, adminQueue: ADMIN });
    await h.qm.send(Q, { body: 'second' });
    const before = lookupIds(Q);
    await expect(h.qm.receive({ path: Q, deliver: connectionClosed })).rejects.toMatchObject({
      code: 'SERVICE_NOT_AVAILABLE',
    });
    await settle();
    expect(lookupIds(Q)).toEqual(before);
    expect(bodies(Q)).toEqual(['first', 'second']);
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(0);
    expect(h.qm.showQueue('.\\JOURNAL$').messageCount).toBe(0);
    expect(h.qm.showQueue(ADMIN).messageCount).toBe(0);
    // The next receive gets the very same message.
    expect((await h.qm.receive({ path: Q })).lookupId).toBe(before[0]);
  });

  test('the removal is committed once the reply is known to go, and before it is written; meanwhile no other receiver sees the message', async () => {
    await h.qm.send(Q, { body: 'one', acknowledge: ACK_POSITIVE_RECEIVE, adminQueue: ADMIN });
    const held = heldDelivery<MessageInfo>();
    const receiving = h.qm.receive({ path: Q, deliver: held.deliver });
    await settle();
    expect(held.delivered.map((m) => m.body)).toEqual(['one']);
    expect(h.qm.showQueue(Q).messageCount).toBe(1);
    expect(h.qm.showQueue(ADMIN).messageCount).toBe(0);
    await expect(h.qm.receive({ path: Q })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    held.release();
    expect((await receiving).body).toBe('one');
    // The reply was written only after the message had left the queue: a crash can lose it, never repeat it.
    expect(held.writtenWhenQueueHeld).toEqual([0]);
    await settle();
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(1);
    expect(h.qm.browse({ path: ADMIN }).messages.map((m) => m.classCode)).toEqual([MessageClass.ACK_RECEIVE]);
  });

  test('a reply that cannot be written after the removal was committed is lost, not repeated (at most once)', async () => {
    await h.qm.send(Q, { body: 'once' });
    const deliver = async (): Promise<WriteReply> => () =>
      Promise.reject(new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed under the reply.'));
    await expect(h.qm.receive({ path: Q, deliver })).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
  });

  test('a receive by lookup ID whose reply fails leaves that message where it was', async () => {
    await h.qm.send(Q, { body: 'a' });
    await h.qm.send(Q, { body: 'b' });
    await h.qm.send(Q, { body: 'c' });
    const before = lookupIds(Q);
    const middle = before[1] as number;
    await expect(h.qm.receive({ path: Q, lookupId: middle, deliver: connectionClosed })).rejects.toThrow();
    expect(lookupIds(Q)).toEqual(before);
    expect((await h.qm.receive({ path: Q, lookupId: middle })).body).toBe('b');
  });

  test('a receive cancelled while it waits takes nothing that arrives later', async () => {
    const cancel = new AbortController();
    const waiting = h.qm.receive({ path: Q, timeoutMs: 10_000, signal: cancel.signal });
    cancel.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'OPERATION_CANCELLED' });
    await h.qm.send(Q, { body: 'after' });
    await settle();
    expect(bodies(Q)).toEqual(['after']);
  });

  test('a receive whose call is cancelled after the claim, before its reply left, takes nothing', async () => {
    await h.qm.send(Q, { body: 'kept' });
    const cancel = new AbortController();
    const deliver = (): Promise<WriteReply> => {
      cancel.abort();
      return Promise.reject(new QkError('OPERATION_CANCELLED', 'cancelled'));
    };
    await expect(h.qm.receive({ path: Q, signal: cancel.signal, deliver })).rejects.toMatchObject({
      code: 'OPERATION_CANCELLED',
    });
    expect(bodies(Q)).toEqual(['kept']);
  });
});

describe('batch receive', () => {
  test('a batch whose reply fails loses nothing: every message stays, in order', async () => {
    for (const body of ['1', '2', '3', '4']) await h.qm.send(Q, { body, delivery: 'recoverable' });
    const before = lookupIds(Q);
    await expect(h.qm.receiveBatch({ path: Q, max: 10, deliver: connectionClosed })).rejects.toThrow();
    await settle();
    expect(lookupIds(Q)).toEqual(before);
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(0);
  });

  test('a batch stops at the reply byte cap; the rest stay in place, and one message always fits', async () => {
    for (let i = 0; i < 5; i++) await h.qm.send(Q, { body: String(i).repeat(1_000) });
    const before = lookupIds(Q);
    const replyLimit = { maxBytes: 2_500, measure: (m: MessageInfo) => m.bodySize };
    const got = await h.qm.receiveBatch({ path: Q, max: 5, replyLimit });
    expect(got.map((m) => m.lookupId)).toEqual(before.slice(0, 2));
    expect(lookupIds(Q)).toEqual(before.slice(2));
    const tiny = { maxBytes: 10, measure: (m: MessageInfo) => m.bodySize };
    const one = await h.qm.receiveBatch({ path: Q, max: 5, replyLimit: tiny });
    expect(one.map((m) => m.lookupId)).toEqual([before[2]]);
    expect(lookupIds(Q)).toEqual(before.slice(3));
  });

  test('a large message behind small ones ends the batch; it and those after it stay in order', async () => {
    for (const size of [100, 100, 5_000, 100]) await h.qm.send(Q, { body: 'x'.repeat(size) });
    const before = lookupIds(Q);
    const replyLimit = { maxBytes: 1_000, measure: (m: MessageInfo) => m.bodySize };
    const got = await h.qm.receiveBatch({ path: Q, max: 10, replyLimit });
    expect(got.map((m) => m.lookupId)).toEqual(before.slice(0, 2));
    expect(lookupIds(Q)).toEqual(before.slice(2));
  });

  test('messages left out by the byte cap are not held: another receiver gets them at once', async () => {
    for (let i = 0; i < 3; i++) await h.qm.send(Q, { body: 'x'.repeat(100) });
    const held = heldDelivery<MessageInfo[]>();
    const replyLimit = { maxBytes: 150, measure: (m: MessageInfo) => m.bodySize };
    const batch = h.qm.receiveBatch({ path: Q, max: 3, replyLimit, deliver: held.deliver });
    await settle();
    expect(held.delivered[0]).toHaveLength(1);
    expect((await h.qm.receiveBatch({ path: Q, max: 3 })).length).toBe(2);
    held.release();
    expect(await batch).toHaveLength(1);
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
  });
});

describe('transactional receive', () => {
  test('R-D5 a transactional receive whose reply fails is taken back out of the transaction', async () => {
    await h.qm.send(TX, { body: 't1' }, { transactional: true });
    await h.qm.send(TX, { body: 't2' }, { transactional: true });
    const before = lookupIds(TX);
    const tx = h.qm.beginTransaction();
    await expect(h.qm.receive({ path: TX, transaction: tx, deliver: connectionClosed })).rejects.toThrow();
    expect((await h.qm.receive({ path: TX, transaction: tx })).body).toBe('t1');
    await h.qm.commitTransaction(tx);
    expect(lookupIds(TX)).toEqual(before.slice(1));
  });

  test('a commit waits for a receive of its transaction whose reply is on its way, then removes it', async () => {
    await h.qm.send(TX, { body: 'x' }, { transactional: true });
    const tx = h.qm.beginTransaction();
    const held = heldDelivery<MessageInfo[]>(TX);
    const batch = h.qm.receiveBatch({ path: TX, max: 5, transaction: tx, deliver: held.deliver });
    await settle();
    let committed = false;
    const commit = h.qm.commitTransaction(tx).then(() => (committed = true));
    await settle();
    expect(committed).toBe(false);
    held.release();
    await batch;
    await commit;
    expect(h.qm.showQueue(TX).messageCount).toBe(0);
  });

  test('R-D5 a transaction aborted while a reply is on its way puts that message back too', async () => {
    await h.qm.send(TX, { body: 'x' }, { transactional: true });
    const before = lookupIds(TX);
    const tx = h.qm.beginTransaction();
    const held = heldDelivery<MessageInfo>(TX);
    const receiving = h.qm.receive({ path: TX, transaction: tx, deliver: held.deliver });
    await settle();
    h.qm.abortTransaction(tx);
    held.release();
    await receiving;
    expect(lookupIds(TX)).toEqual(before);
    expect((await h.qm.receive({ path: TX })).body).toBe('x');
  });
});
