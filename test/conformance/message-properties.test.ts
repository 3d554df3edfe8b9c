/**
 * The message property filter (MSMQ's MQMSGPROPS, .NET's MessageReadPropertyFilter): a receive, peek, batch
 * receive, cursor peek or receive, or streaming receive that names the properties it wants gets those, with `id` and `lookupId`, and
 * nothing else. The filter changes only what comes back: a filtered receive removes, journals and acknowledges
 * as a plain one does (R-C1, R-T1, R-A3). Through the client library, over both of its transports.
 */
import { describe, expect, test } from 'vitest';
import { QkClient } from '@qk/client';
import type { MessageProperty } from '@qk/model';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { journalOf } from '../helpers/qk-ops.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();

type Transport = 'http' | 'ws';

/** Runs `work` with a client of this file's service on `transport`, and closes it. */
async function withClient<T>(transport: Transport, work: (client: QkClient) => Promise<T>): Promise<T> {
  const client = await QkClient.fromDataDir(file.svc.dataDir, { transport });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

/** The keys of a returned message, sorted. */
function keysOf(message: object): string[] {
  return Object.keys(message).sort();
}

/** `names` with `id` and `lookupId`, sorted: the keys a filtered message has. */
function filteredKeys(...names: string[]): string[] {
  return [...new Set(['id', 'lookupId', ...names])].sort();
}

/** A name no message has, as a caller that misspelled one would send it. */
const UNKNOWN = ['bodyy'] as unknown as MessageProperty[];

/** Every field CLI.md lists for a message ("A message"). */
const EVERY_PROPERTY = [
  'id',
  'lookupId',
  'class',
  'classCode',
  'label',
  'body',
  'bodyBase64',
  'bodySize',
  'priority',
  'delivery',
  'journal',
  'acknowledge',
  'adminQueue',
  'responseQueue',
  'destinationQueue',
  'correlationId',
  'appSpecific',
  'sourceMachine',
  'sourceMachineId',
  'sentTime',
  'arrivedTime',
  'timeToReachQueue',
  'timeToBeReceived',
  'transactional',
  'conversation',
  'status',
  'moveCount',
  'abortCount',
  'lastMoveTime',
  'deadLetterQueue',
];

describe.concurrent.each(['http', 'ws'] as const)('MQMSGPROPS through the client library over %s', (transport) => {
  test('R-C1 receive with properties [body, label]: exactly id, lookupId, body, label, with their values; the message is gone', async () => {
    const { q } = file;
    const dest = await q.newQueue(`mp-rx-${transport}`);
    const id = await q.send(dest, '--label', 'greeting', '--body', 'hello', '--priority', '6');
    const [stored] = await q.messages(dest);
    const got = await withClient(transport, (c) => c.receive({ path: dest, properties: ['body', 'label'] }));
    expect(keysOf(got)).toEqual(['body', 'id', 'label', 'lookupId']);
    expect(got).toEqual({ id, lookupId: stored?.lookupId, body: 'hello', label: 'greeting' });
    expect((await q.show(dest)).messageCount).toBe(0);
    expect(await q.messages(dest)).toEqual([]);
  });

  test('R-C1 peek with properties [priority, bodyBase64]: only those keys (no text body), and nothing is removed', async () => {
    const { q } = file;
    const dest = await q.newQueue(`mp-peek-${transport}`);
    const id = await q.send(dest, '--label', 'stays', '--body', 'peek me', '--priority', '2');
    const got = await withClient(transport, (c) => c.peek({ path: dest, properties: ['priority', 'bodyBase64'] }));
    expect(keysOf(got)).toEqual(filteredKeys('priority', 'bodyBase64'));
    expect(got).toMatchObject({ id, priority: 2, bodyBase64: Buffer.from('peek me').toString('base64') });
    expect((await q.show(dest)).messageCount).toBe(1);
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([id]);
  });

  test('R-C3 a cursor peeks and receives with properties [label]; it stands after the message it received', async () => {
    const { q } = file;
    const dest = await q.newQueue(`mp-cursor-${transport}`);
    const first = await q.send(dest, '--label', 'one', '--body', 'first');
    const second = await q.send(dest, '--label', 'two', '--body', 'second');
    const [peeked, received, next] = await withClient(transport, async (c) => {
      const { cursor } = await c.cursorOpen({ path: dest });
      try {
        const p = await c.cursorPeek({ cursor, properties: ['label'] });
        const r = await c.cursorReceive({ cursor, properties: ['label'] });
        const n = await c.cursorPeek({ cursor, properties: ['label'] });
        return [p, r, n];
      } finally {
        await c.cursorClose({ cursor });
      }
    });
    expect(keysOf(peeked)).toEqual(filteredKeys('label'));
    expect(peeked).toMatchObject({ id: first, label: 'one' });
    expect(received).toMatchObject({ id: first, label: 'one' });
    expect(keysOf(received)).toEqual(filteredKeys('label'));
    expect(next).toMatchObject({ id: second, label: 'two' });
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([second]);
  });

  test('R-O1 receiveBatch with properties [label, priority]: every message has exactly those + id + lookupId, in receive order', async () => {
    const { q } = file;
    const dest = await q.newQueue(`mp-batch-${transport}`);
    const ids: Record<string, string> = {};
    for (const [label, priority] of [
      ['p0-a', 0],
      ['p7-a', 7],
      ['p3-a', 3],
      ['p7-b', 7],
    ] as const)
      ids[label] = await q.send(dest, '--label', label, '--priority', String(priority), '--body', `body of ${label}`);
    const { messages } = await withClient(transport, (c) =>
      c.receiveBatch({ path: dest, max: 10, properties: ['label', 'priority'] }),
    );
    expect(messages.map((m) => m.label)).toEqual(['p7-a', 'p7-b', 'p3-a', 'p0-a']);
    expect(messages.map((m) => m.priority)).toEqual([7, 7, 3, 0]);
    expect(messages.map((m) => m.id)).toEqual(['p7-a', 'p7-b', 'p3-a', 'p0-a'].map((label) => ids[label]));
    for (const m of messages) expect(keysOf(m), m.label).toEqual(filteredKeys('label', 'priority'));
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('R-C1 without properties a receive returns every property of the message', async () => {
    const { q } = file;
    const dest = await q.newQueue(`mp-all-${transport}`);
    const id = await q.send(dest, '--label', 'whole', '--body', 'all of it');
    const got = await withClient(transport, (c) => c.receive({ path: dest }));
    for (const key of EVERY_PROPERTY) expect(got, key).toHaveProperty(key);
    expect(got).toMatchObject({
      id,
      label: 'whole',
      body: 'all of it',
      bodyBase64: Buffer.from('all of it').toString('base64'),
      bodySize: 'all of it'.length,
      class: 'NORMAL',
      classCode: 0,
      destinationQueue: expect.any(String),
      sentTime: expect.any(String),
    });
  });

  test('naming id or a property twice changes nothing; an empty list returns id and lookupId alone', async () => {
    const { q } = file;
    const dest = await q.newQueue(`mp-dup-${transport}`);
    const first = await q.send(dest, '--label', 'first');
    const second = await q.send(dest, '--label', 'second');
    const [a, b] = await withClient(transport, async (c) => [
      await c.receive({ path: dest, properties: ['id', 'label', 'label'] }),
      await c.receive({ path: dest, properties: [] }),
    ]);
    expect(a).toEqual({ id: first, lookupId: expect.any(Number), label: 'first' });
    expect(keysOf(b ?? {})).toEqual(['id', 'lookupId']);
    expect(b?.id).toBe(second);
  });

  test('an unknown property name (bodyy) is INVALID_PARAMETER for receive, peek and receiveBatch; nothing is removed', async () => {
    const { q } = file;
    const dest = await q.newQueue(`mp-bad-${transport}`);
    const id = await q.send(dest, '--label', 'stays');
    await withClient(transport, async (c) => {
      await expect(c.receive({ path: dest, properties: UNKNOWN })).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
      await expect(c.peek({ path: dest, properties: UNKNOWN })).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
      await expect(c.receiveBatch({ path: dest, max: 5, properties: UNKNOWN })).rejects.toMatchObject({
        code: 'INVALID_PARAMETER',
      });
      expect((await c.queueShow({ path: dest })).messageCount).toBe(1);
    });
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([id]);
  });
});

describe.concurrent('MQMSGPROPS on the streaming receive (client.consume)', () => {
  test('R-O1 consume with properties [label, priority]: the handler gets exactly those + id + lookupId, in receive order', async () => {
    const { q } = file;
    const dest = await q.newQueue('mp-consume');
    for (const [label, priority] of [
      ['c0', 0],
      ['c7', 7],
      ['c3', 3],
    ] as const)
      await q.send(dest, '--label', label, '--priority', String(priority), '--body', `body of ${label}`);
    const seen = await withClient('ws', async (c) => {
      const handed: object[] = [];
      const consumer = c.consume(dest, { credit: 10, max: 3, properties: ['label', 'priority'] }, (m) => {
        handed.push(m);
      });
      await consumer.done;
      return handed;
    });
    expect(seen.map((m) => (m as { label: string }).label)).toEqual(['c7', 'c3', 'c0']);
    for (const m of seen) expect(keysOf(m)).toEqual(filteredKeys('label', 'priority'));
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('consume with an unknown property name (bodyy) is INVALID_PARAMETER; nothing is taken', async () => {
    const { q } = file;
    const dest = await q.newQueue('mp-consume-bad');
    const id = await q.send(dest, '--label', 'stays');
    const handed: unknown[] = [];
    await withClient('ws', async (c) => {
      const consumer = c.consume(dest, { credit: 10, max: 1, properties: UNKNOWN }, (m) => void handed.push(m));
      await expect(consumer.done).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
    });
    expect(handed).toEqual([]);
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([id]);
  });
});

describe.concurrent('a filtered receive is the same removal', () => {
  test('R-T1 a receive with properties [body] from a queue with journaling still puts the whole message in its journal', async () => {
    const { q } = file;
    const dest = await q.newQueue('mp-t1', '--journal');
    const id = await q.send(dest, '--label', 'journaled', '--body', 'whole copy', '--priority', '5');
    const got = await withClient('ws', (c) => c.receive({ path: dest, properties: ['body'] }));
    expect(keysOf(got)).toEqual(filteredKeys('body'));
    expect(got).toMatchObject({ id, body: 'whole copy' });
    expect((await q.show(dest)).journalMessageCount).toBe(1);
    const copy = await q.peek(journalOf(dest));
    expect(copy).toMatchObject({
      id,
      label: 'journaled',
      body: 'whole copy',
      bodyBase64: Buffer.from('whole copy').toString('base64'),
      bodySize: 'whole copy'.length,
      priority: 5,
      class: 'NORMAL',
    });
  });

  test('R-A3 a receive with properties [label] still yields ACK_RECEIVE (0x4000) for POS_RECEIVE', async () => {
    const { q } = file;
    const dest = await q.newQueue('mp-a3');
    const adm = await q.newQueue('mp-a3-admin');
    const id = await q.send(dest, '--ack', 'pos-receive', '--admin-queue', adm, '--label', 'acked');
    const got = await withClient('http', (c) => c.receive({ path: dest, properties: ['label'] }));
    expect(got).toEqual({ id, lookupId: expect.any(Number), label: 'acked' });
    const acks = await waitFor(async () => {
      const found = await q.acksFor(adm, id);
      return found.length > 0 && found;
    }, 'the receive acknowledgment');
    expect(acks.map((m) => m.classCode)).toEqual([0x4000]);
  });
});

describe.concurrent('MQMSGPROPS through qk --json --properties', () => {
  test('R-C1 qk peek and receive print only the named fields (peek leaves the message, receive takes it); so does receive --follow', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('mp-qk');
    const first = await q.send(dest, '--label', 'one', '--body', 'first body', '--priority', '4');
    const second = await q.send(dest, '--label', 'two', '--body', 'second body', '--priority', '4');
    const peeked = ok(await svc.qk<object>('peek', dest, '--properties', 'body'));
    expect(peeked).toEqual({ id: first, lookupId: expect.any(Number), body: 'first body' });
    expect((await q.show(dest)).messageCount).toBe(2);
    const received = ok(await svc.qk<object>('receive', dest, '--properties', 'body,label'));
    expect(keysOf(received)).toEqual(['body', 'id', 'label', 'lookupId']);
    expect(received).toMatchObject({ id: first, body: 'first body', label: 'one' });
    const streamed = await svc.qk('receive', dest, '--follow', '--count', '1', '--properties', 'priority');
    ok(streamed);
    const lines = streamed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toEqual({ id: second, lookupId: expect.any(Number), priority: 4 });
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('qk receive --properties with a name no message has: INVALID_PARAMETER (exit 1), nothing taken', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('mp-qk-bad');
    const id = await q.send(dest, '--label', 'stays');
    failsWith(await svc.qk('receive', dest, '--properties', 'body,bodyy'), 'INVALID_PARAMETER');
    failsWith(await svc.qk('receive', dest, '--follow', '--count', '1', '--properties', 'bodyy'), 'INVALID_PARAMETER');
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([id]);
  });
});
