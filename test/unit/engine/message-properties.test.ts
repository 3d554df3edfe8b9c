/**
 * A reader names the message properties it wants (MQMSGPROPS, MessageReadPropertyFilter): receive, receiveBatch,
 * peek, a cursor's peek and receive, and the streaming receive return those and the message's id and lookupId. Only what is returned changes:
 * the removal is a plain receive's.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass, type MessageInfo, type MessageProperty } from '@qk/model';
import { openHarness, settle, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\props';
const ADMIN = '.\\private$\\props-admin';
const POS_RECEIVE = 0x02;

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q, journal: true });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

const keysOf = (m: MessageInfo): string[] => Object.keys(m).sort();

describe('message properties a reader asks for', () => {
  test('receive returns the properties named, with id and lookupId, and their values', async () => {
    const id = await h.qm.send(Q, { body: 'hello', label: 'greeting', priority: 5 });
    const m = await h.qm.receive({ path: Q, properties: ['body', 'label', 'priority'] });
    expect(keysOf(m)).toEqual(['body', 'id', 'label', 'lookupId', 'priority']);
    expect(m).toMatchObject({ id, body: 'hello', label: 'greeting', priority: 5 });
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
  });

  test('an empty list returns only id and lookupId; each body form only when named', async () => {
    await h.qm.send(Q, { body: 'a' });
    await h.qm.send(Q, { body: 'b' });
    expect(keysOf(await h.qm.peek({ path: Q, properties: [] }))).toEqual(['id', 'lookupId']);
    const base64 = await h.qm.peek({ path: Q, properties: ['bodyBase64'] });
    expect(base64.bodyBase64).toBe(Buffer.from('a').toString('base64'));
    expect('body' in base64).toBe(false);
    expect((await h.qm.peek({ path: Q, properties: ['body'] })).body).toBe('a');
    expect(h.qm.showQueue(Q).messageCount).toBe(2);
  });

  test('without a list every property is returned, as before', async () => {
    await h.qm.send(Q, { body: 'all' });
    const m = await h.qm.receive({ path: Q });
    expect(m.bodyBase64).toBe(Buffer.from('all').toString('base64'));
    expect(m.class).toBe('NORMAL');
    expect(keysOf(m)).toHaveLength(30);
  });

  test('R-O1 receiveBatch returns the named properties of each message, in receive order', async () => {
    for (const [body, priority] of [
      ['low', 1],
      ['high', 6],
    ] as const)
      await h.qm.send(Q, { body, priority });
    const properties: MessageProperty[] = ['body', 'priority'];
    const got = await h.qm.receiveBatch({ path: Q, max: 10, properties });
    expect(got.map((m) => m.body)).toEqual(['high', 'low']);
    for (const m of got) expect(keysOf(m)).toEqual(['body', 'id', 'lookupId', 'priority']);
  });

  test('the streaming receive hands the reader the named properties only', async () => {
    await h.qm.send(Q, { body: 'streamed', label: 'L' });
    const got: MessageInfo[] = [];
    const aborter = new AbortController();
    const stream = h.qm.consume({
      path: Q,
      properties: ['label'],
      signal: aborter.signal,
      reader: {
        credit: () => 10,
        ready: () => Promise.resolve(),
        prepare: async (message) => async () => void got.push(message),
      },
    });
    for (let i = 0; i < 6 && got.length === 0; i++) await settle();
    aborter.abort();
    await stream.done;
    expect(got.map(keysOf)).toEqual([['id', 'label', 'lookupId']]);
    expect(got[0]?.label).toBe('L');
  });

  test('R-C3 a cursor peeks and receives with the named properties; the cursor moves on as without them', async () => {
    await h.qm.send(Q, { body: 'first', label: 'one' });
    await h.qm.send(Q, { body: 'second', label: 'two' });
    const cursor = h.qm.openCursor(Q);
    const peeked = await h.qm.cursorPeek({ cursor, properties: ['label'] });
    expect(keysOf(peeked)).toEqual(['id', 'label', 'lookupId']);
    expect(peeked.label).toBe('one');
    const received = await h.qm.cursorReceive({ cursor, properties: ['body'] });
    expect(keysOf(received)).toEqual(['body', 'id', 'lookupId']);
    expect(received.body).toBe('first');
    expect((await h.qm.cursorPeek({ cursor, properties: ['body'] })).body).toBe('second');
    expect(h.qm.showQueue(Q).messageCount).toBe(1);
  });

  test('R-T1 R-A3 a receive that asks for the body only still journals the whole message and acknowledges it', async () => {
    await h.qm.send(Q, { body: 'kept', label: 'journaled', acknowledge: POS_RECEIVE, adminQueue: ADMIN });
    await h.qm.receive({ path: Q, properties: ['body'] });
    await settle();
    const [copy] = h.qm.browse({ path: `${Q}\\JOURNAL$`, includeBody: true }).messages;
    expect(copy).toMatchObject({ label: 'journaled', body: 'kept' });
    expect(h.qm.browse({ path: ADMIN }).messages.map((m) => m.classCode)).toEqual([MessageClass.ACK_RECEIVE]);
  });
});
