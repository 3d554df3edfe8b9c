/**
 * R-E3 across computers: a transactional message carries its sequence number and its previous number — the
 * greatest number below it that the source may still deliver (or one the destination has) — worked out afresh
 * each time it leaves. A number the source abandoned (expired or purged in its outgoing queue) leaves no gap
 * that blocks the stream (R-E1: what follows still arrives, once and in order; R-E2: transactions whole), and
 * the destination still never takes a number before one the source holds. A routing server keeps one copy of
 * a message its source sends again (R-E4) and passes on the newer previous number.
 */
import { describe, expect, test } from 'vitest';
import type { TransitMessage } from '@qk/engine';
import { settle, settleUntil } from './helpers.js';
import { classOf, labEachTest, type Computer } from './network-helpers.js';

const lab = labEachTest();

const PATH = 'BETA\\private$\\orders';
const ORDERS = 'DIRECT=OS:BETA\\private$\\orders';
const LOCAL = '.\\private$\\orders';

function twoComputers(): { alpha: Computer; beta: Computer } {
  const alpha = lab().open('ALPHA');
  const beta = lab().open('BETA');
  beta.qm.createQueue({ path: LOCAL, transactional: true });
  return { alpha, beta };
}

const bodiesAt = (c: Computer): string[] =>
  c.qm.browse({ path: LOCAL, includeBody: true, limit: 1000 }).messages.map((m) => m.body ?? '');

/** Number and previous number of each message of a lease. */
const numbers = (messages: readonly TransitMessage[] | undefined): [number, number | undefined][] =>
  (messages ?? []).map((m) => [m.sequence?.number ?? 0, m.sequence?.previous]);

async function sendTransaction(c: Computer, bodies: string[], message: { timeToReachQueue?: number } = {}) {
  const tx = c.qm.beginTransaction();
  for (const body of bodies) await c.qm.send(PATH, { body, ...message }, { transaction: tx });
  await c.qm.commitTransaction(tx);
}

/** Runs the engine's timers past `ms` and lets the outgoing queue's expiry pass finish. */
async function expire(c: Computer, ms: number, left: number): Promise<void> {
  lab().clock.advance(ms);
  await settleUntil(() => c.qm.showQueue(ORDERS).messageCount === left, 50);
}

describe('R-E3 a number abandoned at the source leaves no gap', () => {
  test('R-E3 R-E1 a transactional message that runs out of time-to-reach-queue in the outgoing queue: the next one still arrives, in order', async () => {
    const { alpha, beta } = twoComputers();
    await alpha.qm.send(PATH, { body: 'first' }, { transactional: true });
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    // Number 2 never leaves: its time-to-reach-queue runs out while it waits (a paused outgoing queue).
    await alpha.qm.send(PATH, { body: 'expires', timeToReachQueue: 1, journal: 1 }, { transactional: true });
    await expire(alpha, 1_500, 0);
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
    await alpha.qm.send(PATH, { body: 'after-expiry' }, { transactional: true });
    const lease = alpha.qm.networkPort.lease(ORDERS, 256, 1 << 20);
    // Nothing below 3 is held here; the destination confirmed 1.
    expect(numbers(lease?.messages)).toEqual([[3, 1]]);
    alpha.qm.networkPort.release(lease!);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    await alpha.qm.send(PATH, { body: 'and-on' }, { transactional: true });
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    expect(bodiesAt(beta)).toEqual(['first', 'after-expiry', 'and-on']);
    expect(alpha.qm.networkPort.outgoing()).toEqual([expect.objectContaining({ formatName: ORDERS, unconfirmed: 0 })]);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
  });

  test('R-E3 R-E1 a purge of the outgoing queue: the messages sent after it still arrive, in order', async () => {
    const { alpha, beta } = twoComputers();
    await alpha.qm.send(PATH, { body: 'first' }, { transactional: true });
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    for (const body of ['purged-1', 'purged-2']) await alpha.qm.send(PATH, { body }, { transactional: true });
    expect(await alpha.qm.purgeQueue(ORDERS)).toBe(2);
    await settle();
    for (const body of ['after-purge-1', 'after-purge-2']) await alpha.qm.send(PATH, { body }, { transactional: true });
    const lease = alpha.qm.networkPort.lease(ORDERS, 256, 1 << 20);
    expect(numbers(lease?.messages)).toEqual([
      [4, 1],
      [5, 4],
    ]);
    alpha.qm.networkPort.release(lease!);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }, { outcome: 'accepted' }]);
    expect(bodiesAt(beta)).toEqual(['first', 'after-purge-1', 'after-purge-2']);
  });

  test('R-E3 R-E2 R-E1 a transaction in the middle of the stream runs out of time: the one after it still arrives whole and in order', async () => {
    const { alpha, beta } = twoComputers();
    await sendTransaction(alpha, ['t1-a', 't1-b', 't1-c']);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toHaveLength(3);
    // Both wait (the outgoing queue is held); the middle one runs out of time-to-reach-queue, the later one not.
    await sendTransaction(alpha, ['t2-a', 't2-b', 't2-c'], { timeToReachQueue: 1 });
    await sendTransaction(alpha, ['t3-a', 't3-b', 't3-c']);
    await expire(alpha, 1_500, 3);
    const lease = alpha.qm.networkPort.lease(ORDERS, 256, 1 << 20);
    // Worked out when it leaves, not when it was sent: 4–6 are gone.
    expect(numbers(lease?.messages)).toEqual([
      [7, 3],
      [8, 7],
      [9, 8],
    ]);
    const from = { name: 'ALPHA', id: alpha.qm.id };
    // The transaction is placed in one unit of work, all of it at once (R-E2).
    expect(await beta.qm.networkPort.deliver(from, lease!.messages, false)).toEqual([
      { outcome: 'accepted' },
      { outcome: 'accepted' },
      { outcome: 'accepted' },
    ]);
    await alpha.qm.networkPort.settle(lease!, [
      { outcome: 'accepted' },
      { outcome: 'accepted' },
      { outcome: 'accepted' },
    ]);
    expect(bodiesAt(beta)).toEqual(['t1-a', 't1-b', 't1-c', 't3-a', 't3-b', 't3-c']);
    // And the stream goes on.
    await sendTransaction(alpha, ['t4-a', 't4-b']);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }, { outcome: 'accepted' }]);
    expect(bodiesAt(beta).slice(6)).toEqual(['t4-a', 't4-b']);
  });
});

describe('R-E3 the destination never takes a number before one the source still holds', () => {
  test('R-E3 R-E1 a later message while an earlier one is in a call, or waits: out of sequence, sent again later', async () => {
    const { alpha, beta } = twoComputers();
    await alpha.qm.send(PATH, { body: 'first' }, { transactional: true });
    await lab().drain('ALPHA', 'BETA', ORDERS);
    await alpha.qm.send(PATH, { body: 'second' }, { transactional: true });
    const port = alpha.qm.networkPort;
    const inCall = port.lease(ORDERS, 1, 1 << 20);
    expect(numbers(inCall?.messages)).toEqual([[2, 1]]);
    // Sent meanwhile: 2 is still here (in a call), so 3 names it as its previous number.
    await alpha.qm.send(PATH, { body: 'third' }, { transactional: true });
    const later = port.lease(ORDERS, 1, 1 << 20);
    expect(numbers(later?.messages)).toEqual([[3, 2]]);
    const from = { name: 'ALPHA', id: alpha.qm.id };
    expect(await beta.qm.networkPort.deliver(from, later!.messages, false)).toEqual([
      { outcome: 'retry', reason: expect.stringContaining('out of sequence') },
    ]);
    // A sender from before the previous number: the number before it, as ever.
    const bare = later!.messages.map((m) => ({ ...m, sequence: { ...m.sequence!, previous: undefined } }));
    expect((await beta.qm.networkPort.deliver(from, bare, false))[0]?.outcome).toBe('retry');
    port.release(later!);
    expect(await beta.qm.networkPort.deliver(from, inCall!.messages, false)).toEqual([{ outcome: 'accepted' }]);
    await port.settle(inCall!, [{ outcome: 'accepted' }]);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    expect(bodiesAt(beta)).toEqual(['first', 'second', 'third']);
  });

  test('R-E2 R-E3 a transaction one of whose messages is out of sequence is placed not at all, then whole', async () => {
    const { alpha, beta } = twoComputers();
    await sendTransaction(alpha, ['a', 'b', 'c']);
    const lease = alpha.qm.networkPort.lease(ORDERS, 256, 1 << 20);
    expect(numbers(lease?.messages)).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    const [a, , c] = lease!.messages;
    // 2 went missing on the way: 1 could be placed, 3 not — so none of it is.
    const from = { name: 'ALPHA', id: alpha.qm.id };
    const outcomes = await beta.qm.networkPort.deliver(from, [a!, c!], false);
    expect(outcomes.map((o) => o.outcome)).toEqual(['retry', 'retry']);
    expect(beta.qm.showQueue(LOCAL).messageCount).toBe(0);
    expect(await beta.qm.networkPort.deliver(from, lease!.messages, false)).toEqual([
      { outcome: 'accepted' },
      { outcome: 'accepted' },
      { outcome: 'accepted' },
    ]);
    alpha.qm.networkPort.release(lease!);
    expect(bodiesAt(beta)).toEqual(['a', 'b', 'c']);
  });
});

describe('R-E3 through a routing server', () => {
  test('R-E4 R-E3 a resend stores no second copy on the routing server; the copy takes the newer previous number, and what follows a gap arrives', async () => {
    const alpha = lab().open('ALPHA');
    const relay = lab().open('RELAY', { routing: true });
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: LOCAL, transactional: true });
    await alpha.qm.send(PATH, { body: 'first' }, { transactional: true });
    await lab().drain('ALPHA', 'RELAY', ORDERS);
    expect(await lab().drain('RELAY', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    await lab().control('BETA', 'ALPHA');
    // 2 runs out of time on the routing server (and on the source); 3 reached the routing server after it.
    await alpha.qm.send(PATH, { body: 'expires', timeToReachQueue: 1 }, { transactional: true });
    await alpha.qm.send(PATH, { body: 'after' }, { transactional: true });
    expect(await lab().drain('ALPHA', 'RELAY', ORDERS)).toEqual([{ outcome: 'stored' }, { outcome: 'stored' }]);
    lab().clock.advance(1_500);
    await settleUntil(
      () => relay.qm.showQueue(ORDERS).messageCount === 1 && alpha.qm.showQueue(ORDERS).messageCount === 1,
      50,
    );
    // The routing server's copy still says 2 comes first: the destination waits for it.
    expect((await lab().hop('RELAY', 'BETA', ORDERS))?.map((o) => o.outcome)).toEqual(['retry']);
    // The source sends 3 again (R-E4, 30 s): nothing below it is held there any more.
    lab().clock.advance(30_000);
    const resend = alpha.qm.networkPort.lease(ORDERS, 256, 1 << 20);
    expect(numbers(resend?.messages)).toEqual([[3, 1]]);
    alpha.qm.networkPort.release(resend!);
    for (let i = 0; i < 3; i++) {
      expect(await lab().hop('ALPHA', 'RELAY', ORDERS)).toEqual([{ outcome: 'stored' }]);
      alpha.qm.networkPort.resendNow([ORDERS]);
    }
    expect(relay.qm.showQueue(ORDERS).messageCount).toBe(1); // one copy, however often it came
    expect(await lab().hop('RELAY', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    expect(bodiesAt(beta)).toEqual(['first', 'after']);
    expect(await lab().control('BETA', 'ALPHA')).toBeGreaterThan(0);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
  });
});
