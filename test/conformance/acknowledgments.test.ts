/**
 * Delivery semantics: acknowledgments (R-A1–R-A7) and which classes each PROPID_M_ACKNOWLEDGE value
 * yields (the R-A11 table). Acks go to the queue given with --admin-queue.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { sameQueue } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';
import { bodyOfSize } from '../helpers/temp-files.js';

const file = serviceForFile();

const ID_RE = /^\{([0-9a-f-]{36})\}\\(\d+)$/i;

/**
 * Waits (up to 6 s) until `adminQueue` holds at least `count` messages, lets stragglers land, and returns
 * them all — also when fewer came, so the assertions say which acknowledgments are missing.
 */
async function settledAcks(adminQueue: string, count: number): Promise<QkMessage[]> {
  if (count > 0) {
    await waitFor(
      async () => (await file.q.messages(adminQueue)).length >= count,
      `${count} acks in ${adminQueue}`,
      6_000,
    ).catch(() => undefined);
  }
  await delay(count > 0 ? 300 : 800);
  return file.q.messages(adminQueue);
}

function classesFor(acks: QkMessage[], id: string): number[] {
  return acks
    .filter((a) => a.correlationId === id)
    .map((a) => a.classCode)
    .sort((a, b) => a - b);
}

describe.concurrent('acknowledgments', () => {
  test('R-A1 acknowledgments are ordinary messages sent to the administration queue and can be received from it', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('a1'), q.newQueue('a1-adm')]);
    const id = await q.send(dest, '--ack', 'pos-arrival', '--admin-queue', adm);
    const [ack] = await settledAcks(adm, 1);
    expect(ack).toMatchObject({ class: 'ACK_REACH_QUEUE', classCode: 0x0002, correlationId: id, status: 1 });
    expect(sameQueue(ack?.destinationQueue, adm)).toBe(true);
    const received = await q.receive(adm);
    expect(received.lookupId).toBe(ack?.lookupId);
    expect((await q.show(adm)).messageCount).toBe(0);
    // The original is untouched by its acknowledgment.
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([id]);
  });

  test('R-A2 POS_ARRIVAL yields ACK_REACH_QUEUE (0x0002) as soon as the message is placed in the queue', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('a2'), q.newQueue('a2-adm')]);
    const id = await q.send(dest, '--ack', 'pos-arrival', '--admin-queue', adm);
    const acks = await settledAcks(adm, 1);
    expect(classesFor(acks, id)).toEqual([0x0002]);
    expect((await q.show(dest)).messageCount).toBe(1); // not received yet
  });

  test('R-A3 POS_RECEIVE yields ACK_RECEIVE (0x4000) when the message is received — not when it is peeked', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('a3'), q.newQueue('a3-adm')]);
    const id = await q.send(dest, '--ack', 'pos-receive', '--admin-queue', adm);
    await q.peek(dest);
    expect(await settledAcks(adm, 0), 'after peek').toHaveLength(0);
    await q.receive(dest);
    const acks = await settledAcks(adm, 1);
    expect(classesFor(acks, id)).toEqual([0x4000]);
    expect(acks[0]?.class).toBe('ACK_RECEIVE');
  });

  test('R-A4 NEG_RECEIVE yields NACK_Q_DELETED 0xC000 / NACK_Q_PURGED 0xC001 / NACK_RECEIVE_TIMEOUT 0xC002 when the message leaves unreceived', async () => {
    const { q, svc } = file;
    const [deleted, purged, expired, adm] = await Promise.all([
      q.newQueue('a4-del'),
      q.newQueue('a4-purge'),
      q.newQueue('a4-ttbr'),
      q.newQueue('a4-adm'),
    ]);
    const [idDeleted, idPurged, idExpired] = await Promise.all([
      q.send(deleted, '--ack', 'neg-receive', '--admin-queue', adm),
      q.send(purged, '--ack', 'neg-receive', '--admin-queue', adm),
      q.send(expired, '--ack', 'neg-receive', '--admin-queue', adm, '--ttbr', '1'),
    ]);
    ok(await svc.qk('queue', 'delete', deleted));
    await q.purge(purged);
    const acks = await settledAcks(adm, 3);
    expect(classesFor(acks, idDeleted)).toEqual([0xc000]);
    expect(classesFor(acks, idPurged)).toEqual([0xc001]);
    expect(classesFor(acks, idExpired)).toEqual([0xc002]);
    const names = new Map(acks.map((a) => [a.classCode, a.class]));
    expect(names.get(0xc000)).toBe('NACK_Q_DELETED');
    expect(names.get(0xc001)).toBe('NACK_Q_PURGED');
    expect(names.get(0xc002)).toBe('NACK_RECEIVE_TIMEOUT');
  });

  test('R-A5 NEG_ARRIVAL yields NACK_Q_EXCEED_QUOTA 0x8003 / NACK_NOT_TRANSACTIONAL_MSG 0x800A when the message cannot reach the queue', async () => {
    const { q } = file;
    const [full, tx, adm] = await Promise.all([
      q.newQueue('a5-full', '--quota', '1'),
      q.newQueue('a5-tx', '--transactional'),
      q.newQueue('a5-adm'),
    ]);
    await q.send(full, '--body', bodyOfSize(700)); // 124 + 700 + 2 × the path: most of 1 KB
    const [overQuota, mismatch] = await Promise.all([
      q.send(full, '--body', bodyOfSize(500), '--ack', 'nack-reach-queue', '--admin-queue', adm),
      q.send(tx, '--body', 'x', '--ack', 'nack-reach-queue', '--admin-queue', adm),
    ]);
    const acks = await settledAcks(adm, 2);
    expect(classesFor(acks, overQuota)).toEqual([0x8003]);
    expect(classesFor(acks, mismatch)).toEqual([0x800a]);
    expect(acks.find((a) => a.correlationId === overQuota)?.class).toBe('NACK_Q_EXCEED_QUOTA');
    expect(acks.find((a) => a.correlationId === mismatch)?.class).toBe('NACK_NOT_TRANSACTIONAL_MSG');
  });

  test('R-A6 ack contents: new ID, correlationId = original ID, label/appSpecific/priority/delivery/journal copied, no ack/admin queue, responseQueue = original destination; positive acks have no body', async () => {
    const { q, svc } = file;
    const [dest, adm, resp] = await Promise.all([q.newQueue('a6'), q.newQueue('a6-adm'), q.newQueue('a6-resp')]);
    const appCorrelation = `{${'12345678-1234-1234-1234-123456789abc'}}\\7`;
    const id = await q.send(
      dest,
      '--ack',
      'pos-arrival',
      '--admin-queue',
      adm,
      '--response-queue',
      resp,
      '--label',
      'ack me',
      '--app-specific',
      '4242',
      '--priority',
      '5',
      '--recoverable',
      '--journal',
      'deadletter',
      '--correlation-id',
      appCorrelation,
      '--body',
      'original body',
      '--ttbr',
      '3600',
    );
    await settledAcks(adm, 1);
    const ack = await q.peek(adm);
    expect(ack.id).not.toBe(id);
    expect(ack.id).toMatch(ID_RE);
    expect(ack.id.replace(/[{}]/g, '').toLowerCase()).toContain(svc.id.replace(/[{}]/g, '').toLowerCase());
    expect(ack).toMatchObject({
      class: 'ACK_REACH_QUEUE',
      classCode: 0x0002,
      correlationId: id,
      label: 'ack me',
      appSpecific: 4242,
      priority: 5,
      delivery: 'recoverable',
      journal: 1,
      acknowledge: 0,
      adminQueue: null,
      bodySize: 0,
      timeToBeReceived: null,
    });
    expect(ack.correlationId).not.toBe(appCorrelation);
    expect(sameQueue(ack.responseQueue, dest), `responseQueue ${ack.responseQueue}`).toBe(true);
  });

  test('R-A6 negative acks carry the original body', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('a6n'), q.newQueue('a6n-adm')]);
    const id = await q.send(
      dest,
      '--ack',
      'nack-receive',
      '--admin-queue',
      adm,
      '--label',
      'nack me',
      '--body',
      'the original body',
      '--app-specific',
      '9',
    );
    await q.purge(dest);
    await settledAcks(adm, 1);
    const nack = await q.receive(adm);
    expect(nack).toMatchObject({
      class: 'NACK_Q_PURGED',
      classCode: 0xc001,
      correlationId: id,
      label: 'nack me',
      appSpecific: 9,
      body: 'the original body',
      bodySize: 'the original body'.length,
    });
    expect(nack.id).not.toBe(id);
    expect(sameQueue(nack.responseQueue, dest)).toBe(true);
  });

  test('R-A7 an ack for a recoverable message is recoverable; for an express message, express', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('a7'), q.newQueue('a7-adm')]);
    const recoverable = await q.send(dest, '--recoverable', '--ack', 'pos-arrival', '--admin-queue', adm);
    const express = await q.send(dest, '--express', '--ack', 'pos-arrival', '--admin-queue', adm);
    const acks = await settledAcks(adm, 2);
    expect(acks.find((a) => a.correlationId === recoverable)?.delivery).toBe('recoverable');
    expect(acks.find((a) => a.correlationId === express)?.delivery).toBe('express');
  });
});

describe('R-A11 which classes each acknowledgment level yields', () => {
  const levels = [0x00, 0x01, 0x02, 0x04, 0x05, 0x08, 0x0c, 0x0e, 0x0f];
  const hex = (n: number): string => `0x${n.toString(16).toUpperCase().padStart(2, '0')}`;
  /** Per level: the IDs of a message that was received, one that was purged, one refused at arrival. */
  const sent = new Map<number, { received: string; purged: string; refused: string }>();
  let acks: QkMessage[] = [];

  // One scenario for all levels (acks are told apart by correlation ID): every level sends a message
  // that is received, one that is purged from its queue, and one refused by a transactional queue.
  beforeAll(async () => {
    const { q } = file;
    const [adm, recvQ, purgeQ, txQ] = await Promise.all([
      q.newQueue('a11-adm'),
      q.newQueue('a11-recv'),
      q.newQueue('a11-purge'),
      q.newQueue('a11-tx', '--transactional'),
    ]);
    await Promise.all(
      levels.map(async (level) => {
        const ack = ['--ack', String(level), '--admin-queue', adm, '--label', hex(level)];
        const [received, purged, refused] = await Promise.all([
          q.send(recvQ, ...ack),
          q.send(purgeQ, ...ack),
          q.send(txQ, ...ack),
        ]);
        sent.set(level, { received, purged, refused });
      }),
    );
    await Promise.all(levels.map(() => q.receive(recvQ)));
    await q.purge(purgeQ);
    const expectedTotal = levels.reduce(
      (n, l) => n + ((l & 1) * 2 + (l & 2 ? 1 : 0) + (l & 4 ? 1 : 0) + (l & 8 ? 1 : 0)),
      0,
    );
    acks = await settledAcks(adm, expectedTotal);
  });

  test.each(levels.map((level) => [hex(level), level] as const))(
    'R-A11 ack level %s: received → 0x0002?/0x4000?, purged → 0x0002?/0xC001?, refused (type mismatch) → 0x800A?',
    (_name, level) => {
      const ids = sent.get(level);
      expect(ids, 'the scenario ran').toBeDefined();
      const arrival = level & 0x01 ? [0x0002] : [];
      const expected = {
        received: [...arrival, ...(level & 0x02 ? [0x4000] : [])],
        purged: [...arrival, ...(level & 0x08 ? [0xc001] : [])],
        refused: level & 0x04 ? [0x800a] : [],
      };
      expect({
        received: classesFor(acks, ids?.received ?? ''),
        purged: classesFor(acks, ids?.purged ?? ''),
        refused: classesFor(acks, ids?.refused ?? ''),
      }).toEqual(expected);
    },
  );
});
