/**
 * The streaming receive in the engine (issue 11): messages go to the reader as they arrive, within its
 * credit, in receive order, through the removal path of a plain receive — journal copies, acknowledgments,
 * time-to-be-received — and a transactional stream commits or puts back what it was handed.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass, QkError, type MessageInfo } from '@qk/model';
import type { Consumption, StreamReader } from '@qk/engine';
import { openHarness, settle, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\stream';
const TX = '.\\private$\\stream-tx';
const ADMIN = '.\\private$\\admin';
const NEG_RECEIVE = 0x08;
const POS_RECEIVE = 0x02;

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q, journal: true });
  h.qm.createQueue({ path: TX, transactional: true });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

async function ticks(n = 6): Promise<void> {
  for (let i = 0; i < n; i++) await settle();
}

/** A reader that takes what the test grants it, and can be told to fail (its connection gone). */
function testReader(credit: number) {
  const got: MessageInfo[] = [];
  let available = credit;
  let wake: (() => void) | undefined;
  let broken = false;
  const reader: StreamReader = {
    credit: () => available,
    ready: () => (available > 0 ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
    prepare: async (message) => {
      if (broken) throw new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed before the reply left.');
      if (available <= 0) throw new QkError('INTERNAL', 'no credit');
      available--;
      return async () => void got.push(message);
    },
  };
  return {
    reader,
    got,
    bodies: () => got.map((m) => m.body),
    grant(n: number) {
      available += n;
      wake?.();
      wake = undefined;
    },
    breakConnection() {
      broken = true;
    },
  };
}

function open(path: string, credit: number, transactional = false, timeoutMs?: number) {
  const r = testReader(credit);
  const aborter = new AbortController();
  const stream = h.qm.consume({ path, reader: r.reader, signal: aborter.signal, transactional, timeoutMs });
  return { ...r, stream, close: () => aborter.abort() };
}

/** Tells, without awaiting it, whether a stream has ended well so far. */
function watchEnd(stream: Consumption): { readonly ended: boolean } {
  const end = { ended: false };
  stream.done.then(
    () => (end.ended = true),
    () => undefined,
  );
  return end;
}

async function closed(stream: Consumption, close: () => void): Promise<void> {
  close();
  await stream.done;
}

describe('streaming receive', () => {
  test('R-O1 messages reach the reader in receive order, those already there and those that arrive later, within its credit', async () => {
    for (const [body, priority] of [
      ['low-1', 1],
      ['high', 6],
      ['low-2', 1],
    ] as const)
      await h.qm.send(Q, { body, priority });
    const s = open(Q, 4);
    await ticks();
    expect(s.bodies()).toEqual(['high', 'low-1', 'low-2']);
    await h.qm.send(Q, { body: 'later' });
    await h.qm.send(Q, { body: 'past the credit' });
    await ticks();
    expect(s.bodies()).toEqual(['high', 'low-1', 'low-2', 'later']);
    // Not taken: still in the queue for anyone else.
    expect(h.qm.showQueue(Q).messageCount).toBe(1);
    s.grant(1);
    await ticks();
    expect(s.bodies().at(-1)).toBe('past the credit');
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
    await closed(s.stream, s.close);
    expect(s.stream.received).toBe(5);
  });

  test('R-T1 R-A3 a streamed message leaves as a received one: journal copy and receive acknowledgment', async () => {
    await h.qm.send(Q, { body: 'x', acknowledge: POS_RECEIVE, adminQueue: ADMIN });
    const s = open(Q, 10);
    await ticks();
    expect(s.bodies()).toEqual(['x']);
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(1);
    const acks = h.qm.browse({ path: ADMIN }).messages;
    expect(acks.map((m) => m.classCode)).toEqual([MessageClass.ACK_RECEIVE]);
    await closed(s.stream, s.close);
  });

  test('R-X7 a message whose time to be received runs out while the reader has no credit expires and is never handed over', async () => {
    const s = open(Q, 0);
    await h.qm.send(Q, { body: 'short-lived', timeToBeReceived: 1, acknowledge: NEG_RECEIVE, adminQueue: ADMIN });
    await ticks();
    h.clock.advance(1_500);
    await ticks();
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
    s.grant(5);
    await ticks();
    expect(s.got).toEqual([]);
    expect(h.qm.browse({ path: ADMIN }).messages.map((m) => m.classCode)).toEqual([MessageClass.NACK_RECEIVE_TIMEOUT]);
    await closed(s.stream, s.close);
  });

  test('a message that cannot reach the reader (its connection closed) stays in the queue, where it was', async () => {
    await h.qm.sendBatch([1, 2, 3].map((i) => ({ path: Q, message: { body: `m${i}` } })));
    const before = h.qm.browse({ path: Q }).messages.map((m) => m.lookupId);
    const s = open(Q, 0);
    s.breakConnection();
    s.grant(3);
    await ticks();
    expect(s.got).toEqual([]);
    expect(h.qm.browse({ path: Q }).messages.map((m) => m.lookupId)).toEqual(before);
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(0);
    // The stream cannot go on: it ends with the transport's error (a real connection has closed it anyway).
    await expect(s.stream.done).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
  });

  test('a stream and a waiting receive share arrivals: each arrival wakes one of them, and neither starves', async () => {
    const s = open(Q, 1);
    await ticks();
    const waiting = h.qm.receive({ path: Q, timeoutMs: 60_000 });
    await ticks();
    await h.qm.send(Q, { body: 'first' });
    await h.qm.send(Q, { body: 'second' });
    await ticks();
    const received = (await waiting).body;
    expect([...s.bodies(), received].sort()).toEqual(['first', 'second']);
    expect(s.bodies()).toHaveLength(1);
    await closed(s.stream, s.close);
  });

  test('the stream of a deleted queue ends with QUEUE_DELETED; a stopped queue manager ends them with SERVICE_NOT_AVAILABLE', async () => {
    const s = open(Q, 1);
    const other = h.qm.createQueue({ path: '.\\private$\\other' });
    const t = open(other.path, 0);
    await ticks();
    await h.qm.deleteQueue(Q);
    await expect(s.stream.done).rejects.toMatchObject({ code: 'QUEUE_DELETED' });
    await h.qm.close();
    await expect(t.stream.done).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
    h.qm = (await import('@qk/engine')).openQueueManager({ dataDir: h.dir, name: 'ALPHA', clock: h.clock });
  });
});

describe('a stream on a subqueue', () => {
  test('R-S1 an open stream is an open handle: its empty subqueue stays while it waits, and gets what is moved in', async () => {
    const held = `${Q};held`;
    const s = open(held, 0);
    await ticks();
    h.clock.advance(15_000); // past the time an empty, unused subqueue stays
    await ticks();
    expect(h.qm.listQueues().map((q) => q.path)).toContain(held);
    await h.qm.send(Q, { body: 'moved in' });
    const [m] = h.qm.browse({ path: Q }).messages;
    await h.qm.moveMessage(Q, m?.lookupId ?? 0, held);
    s.grant(1);
    await ticks();
    expect(s.bodies()).toEqual(['moved in']);
    await closed(s.stream, s.close);
  });
});

describe('transactional stream', () => {
  test('R-M4 a transactional stream needs a transactional queue', () => {
    expect(() => open(Q, 1, true)).toThrow(expect.objectContaining({ code: 'TRANSACTION_USAGE' }));
  });

  test('handed-over messages stay held until the reader commits; commit removes them, one by one or in batches', async () => {
    await h.qm.sendBatch([1, 2, 3].map((i) => ({ path: TX, message: { body: `m${i}` }, transactional: true })));
    const s = open(TX, 10, true);
    await ticks();
    expect(s.bodies()).toEqual(['m1', 'm2', 'm3']);
    // Held by the stream's transaction: no other receive gets them, but they are still in the queue.
    expect(h.qm.showQueue(TX).messageCount).toBe(3);
    await expect(h.qm.receive({ path: TX, timeoutMs: 0 })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    expect(await s.stream.commit()).toBe(3);
    expect(h.qm.showQueue(TX).messageCount).toBe(0);
    await h.qm.send(TX, { body: 'm4' }, { transactional: true });
    await ticks();
    expect(await s.stream.commit()).toBe(1);
    expect(h.qm.showQueue(TX).messageCount).toBe(0);
    await closed(s.stream, s.close);
  });

  test('commit(count) commits only the first messages handed over; the later ones stay held until later', async () => {
    await h.qm.sendBatch([1, 2, 3].map((i) => ({ path: TX, message: { body: `m${i}` }, transactional: true })));
    const s = open(TX, 3, true);
    await ticks();
    expect(s.bodies()).toEqual(['m1', 'm2', 'm3']);
    expect(await s.stream.commit(1)).toBe(1);
    expect(h.qm.browse({ path: TX, includeBody: true }).messages.map((m) => m.body)).toEqual(['m2', 'm3']);
    expect(s.stream.abort()).toBe(2);
    await ticks();
    expect(h.qm.showQueue(TX).messageCount).toBe(2);
    await closed(s.stream, s.close);
  });

  test('R-D5 an abort, or the end of the stream, puts back what was not committed, in place and not dead-lettered', async () => {
    await h.qm.sendBatch([1, 2, 3].map((i) => ({ path: TX, message: { body: `m${i}` }, transactional: true })));
    const before = h.qm.browse({ path: TX }).messages.map((m) => m.lookupId);
    const s = open(TX, 2, true);
    await ticks();
    expect(s.bodies()).toEqual(['m1', 'm2']);
    expect(s.stream.abort()).toBe(2);
    await ticks();
    expect(h.qm.browse({ path: TX }).messages.map((m) => m.lookupId)).toEqual(before);
    s.grant(3);
    await ticks();
    // The put-back messages come again first, in order.
    expect(s.bodies()).toEqual(['m1', 'm2', 'm1', 'm2', 'm3']);
    await closed(s.stream, s.close);
    expect(h.qm.browse({ path: TX }).messages.map((m) => m.lookupId)).toEqual(before);
    expect(h.qm.showQueue('.\\XACTDEADLETTER$').messageCount).toBe(0);
  });
});

describe('a stream with a timeout (timeoutMs)', () => {
  test('R-O1 timeout 0 hands over what is ready, in receive order, then ends with timedOut', async () => {
    await h.qm.sendBatch([1, 2, 3].map((i) => ({ path: Q, message: { body: `m${i}`, priority: i } })));
    const s = open(Q, 10, false, 0);
    await ticks();
    h.clock.advance(0);
    await s.stream.done;
    expect(s.bodies()).toEqual(['m3', 'm2', 'm1']);
    expect(s.stream.timedOut).toBe(true);
    expect(s.stream.received).toBe(3);
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
  });

  test('the timeout counts from the last time the queue ran empty: an arrival within it is handed over and the wait starts again', async () => {
    const s = open(Q, 10, false, 1_000);
    const end = watchEnd(s.stream);
    await ticks();
    h.clock.advance(900);
    await h.qm.send(Q, { body: 'late' });
    await ticks();
    expect(s.bodies()).toEqual(['late']);
    h.clock.advance(900);
    await ticks();
    expect(end.ended).toBe(false);
    h.clock.advance(100);
    await s.stream.done;
    expect(s.stream.timedOut).toBe(true);
  });

  test('without a timeout the stream waits as long as it runs; ended by its signal, timedOut stays false', async () => {
    const s = open(Q, 10);
    await ticks();
    h.clock.advance(100_000);
    await ticks();
    await h.qm.send(Q, { body: 'still there' });
    await ticks();
    expect(s.bodies()).toEqual(['still there']);
    await closed(s.stream, s.close);
    expect(s.stream.timedOut).toBe(false);
  });

  test('R-D5 a transactional stream does not time out while its reader holds uncommitted messages: it ends after the commit, nothing put back', async () => {
    await h.qm.sendBatch([1, 2].map((i) => ({ path: TX, message: { body: `m${i}` }, transactional: true })));
    const s = open(TX, 10, true, 0);
    const end = watchEnd(s.stream);
    await ticks();
    h.clock.advance(0);
    await ticks();
    expect(s.bodies()).toEqual(['m1', 'm2']);
    // Ending now would put m1 and m2 back while the reader has them.
    expect(end.ended).toBe(false);
    expect(await s.stream.commit()).toBe(2);
    await ticks();
    h.clock.advance(0);
    await s.stream.done;
    expect(s.stream.timedOut).toBe(true);
    expect(h.qm.showQueue(TX).messageCount).toBe(0);
    expect(h.qm.showQueue('.\\XACTDEADLETTER$').messageCount).toBe(0);
  });

  test('a transactional stream whose reader aborts ends once the queue stays empty again, the aborted messages handed over anew first', async () => {
    await h.qm.send(TX, { body: 'only' }, { transactional: true });
    const s = open(TX, 10, true, 0);
    await ticks();
    h.clock.advance(0);
    await ticks();
    expect(s.bodies()).toEqual(['only']);
    expect(s.stream.abort()).toBe(1);
    await ticks();
    h.clock.advance(0);
    await ticks();
    // Put back, the message is ready again: the stream hands it over before it may end.
    expect(s.bodies()).toEqual(['only', 'only']);
    expect(await s.stream.commit()).toBe(1);
    await ticks();
    h.clock.advance(0);
    await s.stream.done;
    expect(s.stream.timedOut).toBe(true);
    expect(h.qm.showQueue(TX).messageCount).toBe(0);
  });
});
