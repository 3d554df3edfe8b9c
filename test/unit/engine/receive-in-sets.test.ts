/**
 * Issue 11: the messages one receiveBatch or one round of a stream takes leave with their rows deleted in one
 * statement (removal.ts removeReceived); everything each owes — journal copies, acknowledgments, retention,
 * counters, events — stays what a single receive of each does.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass, type QkEvent } from '@qk/model';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
const JOURNALED = '.\\private$\\journaled';
const PLAIN = '.\\private$\\plain';
const ADMIN = '.\\private$\\admin';
const RETAINING = '.\\private$\\retaining';
/** MQMSG_ACKNOWLEDGMENT_POS_RECEIVE. */
const ACK_POSITIVE_RECEIVE = 0x02;

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: JOURNALED, journal: true });
  h.qm.createQueue({ path: PLAIN });
  h.qm.createQueue({ path: ADMIN });
  h.qm.createQueue({ path: RETAINING, retention: true });
});
afterEach(async () => {
  await h.dispose();
});

const bodies = (path: string): (string | null)[] =>
  h.qm.browse({ path, includeBody: true }).messages.map((m) => m.body);

/** The same four messages: one asking for a receive acknowledgment, one express, two plain recoverable ones. */
async function sendFour(path: string): Promise<string[]> {
  return [
    await h.qm.send(path, {
      body: 'a',
      delivery: 'recoverable',
      acknowledge: ACK_POSITIVE_RECEIVE,
      adminQueue: ADMIN,
    }),
    await h.qm.send(path, { body: 'b', delivery: 'express' }),
    await h.qm.send(path, { body: 'c', delivery: 'recoverable' }),
    await h.qm.send(path, { body: 'd', delivery: 'recoverable' }),
  ];
}

describe('received in sets', () => {
  test('R-J2 R-A3 a receiveBatch leaves what single receives leave: journal copies in order, the acknowledgment, counters, events', async () => {
    const events: QkEvent[] = [];
    h.qm.on((event) => events.push(event));
    const ids = await sendFour(JOURNALED);
    const got = await h.qm.receiveBatch({ path: JOURNALED, max: 10 });
    expect(got.map((m) => m.body)).toEqual(['a', 'b', 'c', 'd']);
    expect(h.qm.showQueue(JOURNALED)).toMatchObject({ messageCount: 0, journalMessageCount: 4 });
    expect(bodies(`${JOURNALED}\\JOURNAL$`)).toEqual(['a', 'b', 'c', 'd']);
    const acks = h.qm.browse({ path: ADMIN }).messages;
    expect(acks.map((m) => [m.classCode, m.correlationId])).toEqual([[MessageClass.ACK_RECEIVE, ids[0]]]);
    const removed = events.flatMap((e) => (e.type === 'messageRemoved' ? [[e.lookupId, e.reason]] : []));
    expect(removed).toEqual(got.map((m) => [m.lookupId, 'received']));

    // The same messages received one at a time leave the same traces.
    await sendFour(PLAIN);
    for (let i = 0; i < 4; i++) await h.qm.receive({ path: PLAIN });
    expect(h.qm.showQueue(PLAIN).messageCount).toBe(0);
    expect(h.qm.browse({ path: ADMIN }).messages).toHaveLength(2);
  });

  test('seed 002 a retaining queue keeps what a receiveBatch takes, as status 0, never receivable again', async () => {
    await sendFour(RETAINING);
    expect(await h.qm.receiveBatch({ path: RETAINING, max: 10 })).toHaveLength(4);
    expect(h.qm.browse({ path: RETAINING }).messages.map((m) => m.status)).toEqual([0, 0, 0, 0]);
    await expect(h.qm.receive({ path: RETAINING })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
  });

  test('R-J2 express single receives in flight leave together: each its own message, in order, journal copies in order', async () => {
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) sent.push(await h.qm.send(JOURNALED, { body: `x${i}`, delivery: 'express' }));
    const events: QkEvent[] = [];
    h.qm.on((event) => events.push(event));
    const got = await Promise.all(Array.from({ length: 20 }, () => h.qm.receive({ path: JOURNALED })));
    expect(got.map((m) => m.id)).toEqual(sent);
    expect(h.qm.showQueue(JOURNALED)).toMatchObject({ messageCount: 0, journalMessageCount: 20 });
    expect(bodies(`${JOURNALED}\\JOURNAL$`)).toEqual(got.map((m) => m.body));
    const removed = events.flatMap((e) => (e.type === 'messageRemoved' ? [e.lookupId] : []));
    expect(removed).toEqual(got.map((m) => m.lookupId));
    await expect(h.qm.receive({ path: JOURNALED })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
  });

  test('messages received in a set stay gone after a restart, recoverable and express alike', async () => {
    await sendFour(PLAIN);
    await h.qm.send(PLAIN, { body: 'left', delivery: 'recoverable' });
    expect(await h.qm.receiveBatch({ path: PLAIN, max: 4 })).toHaveLength(4);
    await h.reopen();
    expect(bodies(PLAIN)).toEqual(['left']);
  });
});
