/**
 * Foundation: what a message is and how it comes back — every property through send → messages → peek →
 * receive, IDs and lookup IDs, queue order, paging, waiting receives, transactional queues, purge and
 * deleting one message.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { failsWith, ok } from '../helpers/qk-expect.js';
import { sameQueue } from '../helpers/qk-ops.js';
import type { QkMessage, QkQueue } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { writeTempFile } from '../helpers/temp-files.js';

const file = serviceForFile();

const ID_RE = /^\{([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}\\(\d+)$/i;
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function bareGuid(text: string): string {
  return text.replace(/[{}]/g, '').toLowerCase();
}

/** The properties a sender set, as every read of the message must show them. */
function expectSentProperties(m: QkMessage, expected: Record<string, unknown>, where: string): void {
  for (const [key, value] of Object.entries(expected)) {
    expect((m as unknown as Record<string, unknown>)[key], `${where}: ${key}`).toEqual(value);
  }
}

function expectTimeBetween(iso: string, fromMs: number, toMs: number, what: string): void {
  expect(iso, what).toMatch(ISO_RE);
  const t = Date.parse(iso);
  // MSMQ times have one-second resolution: allow a second either side.
  expect(t, what).toBeGreaterThanOrEqual(fromMs - 1_000);
  expect(t, what).toBeLessThanOrEqual(toMs + 1_000);
}

describe.concurrent('message properties', () => {
  test('§1 every message property round-trips through send → messages → peek → receive (text body from --body-file)', async () => {
    const { q, svc } = file;
    const [dest, adm, resp] = await Promise.all([q.newQueue('rt'), q.newQueue('rt-adm'), q.newQueue('rt-resp')]);
    const text = 'héllo ✓ wörld — Queuekeeper';
    const correlation = `{${randomUUID()}}\\42`;
    const before = Date.now();
    const id = await q.send(
      dest,
      '--body-file',
      writeTempFile(text),
      '--label',
      'round trip',
      '--priority',
      '6',
      '--recoverable',
      '--journal',
      'both',
      '--ack',
      'full-receive',
      '--admin-queue',
      adm,
      '--response-queue',
      resp,
      '--ttrq',
      '600',
      '--ttbr',
      '3600',
      '--correlation-id',
      correlation,
      '--app-specific',
      '123456',
      '--conversation',
      'conv-round-trip',
    );
    const after = Date.now();

    // id is {GUID}\N with the computer's GUID.
    const match = ID_RE.exec(id);
    expect(match, `message id ${id}`).not.toBeNull();
    expect(bareGuid(match?.[1] ?? '')).toBe(bareGuid(svc.id));

    const expected = {
      id,
      class: 'NORMAL',
      classCode: 0,
      label: 'round trip',
      body: text,
      bodyBase64: Buffer.from(text, 'utf8').toString('base64'),
      bodySize: Buffer.byteLength(text, 'utf8'),
      priority: 6,
      delivery: 'recoverable',
      journal: 3,
      acknowledge: 14,
      correlationId: correlation,
      appSpecific: 123456,
      sourceMachine: svc.name,
      sourceMachineId: svc.id,
      timeToReachQueue: 600,
      transactional: false,
      conversation: 'conv-round-trip',
      status: 1,
    };
    const { body: _b, bodyBase64: _b64, ...withoutBody } = expected;

    const browsed = await q.messages(dest);
    expect(browsed).toHaveLength(1);
    const peeked = await q.peek(dest);
    const received = await q.receive(dest);

    const reads: [string, QkMessage, Record<string, unknown>][] = [
      // A browse page may leave bodies out (a page is a list); every other property must be there.
      ['messages', browsed[0] as QkMessage, withoutBody],
      ['peek', peeked, expected],
      ['receive', received, expected],
    ];
    for (const [where, m, props] of reads) {
      expectSentProperties(m, props, where);
      expect(sameQueue(m.adminQueue, adm), `${where}: adminQueue ${m.adminQueue}`).toBe(true);
      expect(sameQueue(m.responseQueue, resp), `${where}: responseQueue ${m.responseQueue}`).toBe(true);
      expect(sameQueue(m.destinationQueue, dest), `${where}: destinationQueue ${m.destinationQueue}`).toBe(true);
      expect(m.lookupId, `${where}: lookupId`).toBeGreaterThan(0);
      // What remains of 3,600 s (reference §1.1): less, never more, and not much less on any machine.
      expect(m.timeToBeReceived, `${where}: ttbr is the remaining time`).toBeGreaterThan(3_300);
      expect(m.timeToBeReceived, `${where}: ttbr is the remaining time`).toBeLessThanOrEqual(3600);
      expectTimeBetween(m.sentTime, before, after, `${where}: sentTime`);
      expectTimeBetween(m.arrivedTime, before, after, `${where}: arrivedTime`);
    }
    expect(peeked.lookupId).toBe(received.lookupId);
    expect((browsed[0] as QkMessage).lookupId).toBe(received.lookupId);
    expect(await q.messages(dest)).toHaveLength(0);
  });

  test('§1 a binary body sent with --body-file comes back byte for byte (body null, bodyBase64 exact)', async () => {
    const { q } = file;
    const dest = await q.newQueue('binary');
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0xc3]), randomBytes(2_000)]);
    await q.send(dest, '--body-file', writeTempFile(bytes), '--label', 'bin');
    const peeked = await q.peek(dest);
    const received = await q.receive(dest);
    for (const m of [peeked, received]) {
      expect(m.body).toBeNull();
      expect(m.bodyBase64).toBe(bytes.toString('base64'));
      expect(m.bodySize).toBe(bytes.length);
    }
  });

  test('§1 a UTF-8 body that starts with a byte-order mark keeps it in body (U+FEFF), as in bodyBase64 and bodySize', async () => {
    const { q } = file;
    const dest = await q.newQueue('bom');
    const bytes = Buffer.from('\uFEFFtext after a BOM', 'utf8');
    await q.send(dest, '--body-file', writeTempFile(bytes));
    await q.send(dest, '--body', '\uFEFFsent as text');
    const [fromFile, fromText] = [await q.receive(dest), await q.receive(dest)];
    expect(fromFile.body).toBe('\uFEFFtext after a BOM');
    expect(Buffer.from(fromFile.body ?? '', 'utf8').equals(bytes)).toBe(true);
    expect(fromFile.bodyBase64).toBe(bytes.toString('base64'));
    expect(fromFile.bodySize).toBe(bytes.length);
    expect(fromText.body).toBe('\uFEFFsent as text');
  });

  test('§1.1 R-X1 defaults: priority 3, express, journal none, no ack, TTRQ = LongLiveTime 345600, TTBR unlimited (null)', async () => {
    const { q } = file;
    const dest = await q.newQueue('defaults');
    await q.send(dest, '--body', 'plain');
    const m = await q.receive(dest);
    expect(m).toMatchObject({
      priority: 3,
      delivery: 'express',
      journal: 0,
      acknowledge: 0,
      adminQueue: null,
      responseQueue: null,
      correlationId: null,
      appSpecific: 0,
      timeToReachQueue: 345_600,
      timeToBeReceived: null,
      class: 'NORMAL',
      classCode: 0,
      status: 1,
      transactional: false,
      label: '',
      body: 'plain',
    });
  });

  test('§2.2 §2.3 --journal and --ack accept the MSMQ numbers as well as the names', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('numbers'), q.newQueue('numbers-adm')]);
    await q.send(dest, '--journal', '1', '--ack', '12', '--admin-queue', adm);
    await q.send(dest, '--journal', 'deadletter', '--ack', 'nack-receive', '--admin-queue', adm);
    const [a, b] = await q.messages(dest);
    expect(a).toMatchObject({ journal: 1, acknowledge: 12 });
    expect(b).toMatchObject({ journal: 1, acknowledge: 12 });
  });

  test('R-L1 lookup IDs are strictly increasing in queue order; message IDs are unique with the same computer GUID', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('lookup');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await q.send(dest, '--label', `m${i}`));
    const messages = await q.messages(dest);
    expect(messages.map((m) => m.label)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(messages.map((m) => m.id)).toEqual(ids);
    const lookupIds = messages.map((m) => m.lookupId);
    for (let i = 1; i < lookupIds.length; i++) expect(lookupIds[i]).toBeGreaterThan(lookupIds[i - 1] as number);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(bareGuid(ID_RE.exec(id)?.[1] ?? '')).toBe(bareGuid(svc.id));
    // The sequence part of the ID is unique per sending computer and grows with each send.
    const seqs = ids.map((id) => Number(ID_RE.exec(id)?.[2]));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1] as number);
  });

  test('R-O1 higher priority first (7 before 0), FIFO within one priority — for receive and for browse', async () => {
    const { q } = file;
    const dest = await q.newQueue('order');
    const sends: [string, number][] = [
      ['p0-a', 0],
      ['p7-a', 7],
      ['p3-a', 3],
      ['p7-b', 7],
      ['p0-b', 0],
      ['p3-b', 3],
      ['p7-c', 7],
    ];
    for (const [label, priority] of sends) await q.send(dest, '--label', label, '--priority', String(priority));
    const expectedOrder = ['p7-a', 'p7-b', 'p7-c', 'p3-a', 'p3-b', 'p0-a', 'p0-b'];
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(expectedOrder);
    const received: string[] = [];
    for (let i = 0; i < sends.length; i++) received.push((await q.receive(dest)).label);
    expect(received).toEqual(expectedOrder);
  });

  test('R-C1 browsing pages: messages --offset/--limit return the slice and the total', async () => {
    const { q } = file;
    const dest = await q.newQueue('paging');
    for (let i = 0; i < 7; i++) await q.send(dest, '--label', `m${i}`);
    const all = await q.page(dest);
    expect(all.total).toBe(7);
    expect(all.messages.map((m) => m.label)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    const middle = await q.page(dest, '--offset', '2', '--limit', '3');
    expect(middle.total).toBe(7);
    expect(middle.messages.map((m) => m.label)).toEqual(['m2', 'm3', 'm4']);
    const tail = await q.page(dest, '--offset', '5', '--limit', '10');
    expect(tail.total).toBe(7);
    expect(tail.messages.map((m) => m.label)).toEqual(['m5', 'm6']);
    const beyond = await q.page(dest, '--offset', '7');
    expect(beyond).toMatchObject({ total: 7, messages: [] });
    // Browsing removed nothing.
    expect((await q.show(dest)).messageCount).toBe(7);
  });

  test('R-C1 peek leaves the message, receive removes it', async () => {
    const { q } = file;
    const dest = await q.newQueue('peek');
    const id = await q.send(dest, '--body', 'x');
    expect((await q.peek(dest)).id).toBe(id);
    expect((await q.peek(dest)).id).toBe(id);
    expect((await q.show(dest)).messageCount).toBe(1);
    expect((await q.receive(dest)).id).toBe(id);
    expect((await q.show(dest)).messageCount).toBe(0);
  });
});

describe.concurrent('receive and peek timeouts', () => {
  test('R-C4 receive --timeout on an empty queue exits 3 after about the timeout', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('empty');
    const [recv, peek, recvNow] = await Promise.all([
      svc.qk('receive', dest, '--timeout', '1'),
      svc.qk('peek', dest, '--timeout', '1'),
      svc.qk('receive', dest, '--timeout', '0'),
    ]);
    expect(recv.exitCode, recv.stderr).toBe(3);
    expect(peek.exitCode, peek.stderr).toBe(3);
    expect(recvNow.exitCode, recvNow.stderr).toBe(3);
    // It waited for the timeout before giving up.
    expect(recv.elapsedMs).toBeGreaterThanOrEqual(900);
    expect(peek.elapsedMs).toBeGreaterThanOrEqual(900);
  });

  test('R-C4 a receive waiting with --timeout 3 returns promptly when a message is sent meanwhile', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('wait');
    let receivedAt = 0;
    const waiting = svc.qk<QkMessage>('receive', dest, '--timeout', '3').then((r) => {
      receivedAt = Date.now();
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const id = await q.send(dest, '--label', 'late');
    const sendReturnedAt = Date.now();
    const result = await waiting;
    const m = ok(result);
    expect(m.id).toBe(id);
    // It returned on arrival — about when the send did — not at the end of its 3 s timeout.
    expect(receivedAt - sendReturnedAt).toBeLessThan(1_200);
    expect((await q.show(dest)).messageCount).toBe(0);
  });
});

describe.concurrent('transactional queues', () => {
  test('R-E6 a transactional send and receive: the message is transactional, priority 0 and recoverable', async () => {
    const { q } = file;
    const dest = await q.newQueue('tx', '--transactional');
    expect((await q.show(dest)).transactional).toBe(true);
    const id = await q.send(
      dest,
      '--transactional',
      '--priority',
      '7',
      '--label',
      'tx-1',
      '--body',
      'in a transaction',
    );
    const peeked = await q.peek(dest);
    expect(peeked).toMatchObject({ id, transactional: true, priority: 0, delivery: 'recoverable' });
    const m = await q.receive(dest, '--transactional');
    expect(m).toMatchObject({
      id,
      transactional: true,
      priority: 0,
      delivery: 'recoverable',
      body: 'in a transaction',
    });
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('R-E1 messages of single-message transactions to one queue arrive in send order', async () => {
    const { q } = file;
    const dest = await q.newQueue('tx-order', '--transactional');
    for (let i = 0; i < 4; i++) await q.send(dest, '--transactional', '--label', `t${i}`, '--priority', String(7 - i));
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['t0', 't1', 't2', 't3']);
  });

  test('§4.1 PROPID_Q_TRANSACTION cannot change after creation (queue set refuses, the type stays)', async () => {
    const { q, svc } = file;
    const [plain, tx] = await Promise.all([q.newQueue('plain'), q.newQueue('txq', '--transactional')]);
    const attempt = await svc.qk('queue', 'set', plain, '--transactional');
    expect(attempt.exitCode, `${attempt.command}: ${attempt.stdout}`).not.toBe(0);
    expect((await q.show(plain)).transactional).toBe(false);
    const relabel = ok(await svc.qk<QkQueue>('queue', 'set', tx, '--label', 'still transactional'));
    expect(relabel).toMatchObject({ transactional: true, label: 'still transactional' });
    expect((await q.show(tx)).transactional).toBe(true);
  });
});

describe.concurrent('purge and delete', () => {
  test('R-P3 queue purge removes every message and returns {purged: N}', async () => {
    const { q } = file;
    const dest = await q.newQueue('purge');
    await Promise.all([0, 1, 2, 3].map((i) => q.send(dest, '--label', `p${i}`)));
    expect(await q.purge(dest)).toBe(4);
    expect(await q.messages(dest)).toHaveLength(0);
    expect((await q.show(dest)).messageCount).toBe(0);
    expect(await q.purge(dest)).toBe(0);
  });

  test('R-L2 message delete removes exactly the message with that lookup ID; a missing one is MESSAGE_NOT_FOUND', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('msgdel');
    for (const label of ['a', 'b', 'c']) await q.send(dest, '--label', label);
    const [, b] = await q.messages(dest);
    ok(await svc.qk('message', 'delete', dest, String(b?.lookupId)));
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['a', 'c']);
    failsWith(await svc.qk('message', 'delete', dest, String(b?.lookupId)), 'MESSAGE_NOT_FOUND');
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['a', 'c']);
  });

  test('R-Q1 queue delete removes the queue; it is then QUEUE_NOT_FOUND', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('qdel');
    await q.send(dest, '--label', 'doomed');
    ok(await svc.qk('queue', 'delete', dest));
    failsWith(await svc.qk('queue', 'show', dest), 'QUEUE_NOT_FOUND');
    expect((await q.list()).some((queue) => sameQueue(queue.path, dest))).toBe(false);
  });
});
