/**
 * Delivery semantics: negative source journaling — dead-letter queues (R-D*), seeds 000 and 001.
 * Failures on one computer: TTBR expiry in the destination queue, queue quota, transactional mismatch.
 */
import { describe, expect, test } from 'vitest';
import { QkClient } from '@qk/client';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM, uniqueName } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';
import { bodyOfSize } from '../helpers/temp-files.js';

const file = serviceForFile();

/** Waits until `id` has a copy in `path` and returns it. */
async function deadLettered(path: string, id: string, timeoutMs = 6_000): Promise<QkMessage> {
  return waitFor(async () => (await file.q.copiesOf(path, id))[0], `${id} in ${path}`, timeoutMs);
}

/** Waits until the queue at `path` no longer holds `id`. */
async function gone(path: string, id: string): Promise<void> {
  await waitFor(async () => !(await file.q.messages(path)).some((m) => m.id === id), `${id} to leave ${path}`);
}

describe.concurrent('nontransactional dead letters', () => {
  test('R-D1 nontransactional dead letter goes to .\\DEADLETTER$ with the failure class; without DL it is only discarded', async () => {
    const { q } = file;
    const dest = await q.newQueue('d1');
    const withDl = await q.send(dest, '--ttbr', '1', '--journal', 'deadletter', '--label', 'd1-dl', '--body', 'dead');
    const withoutDl = await q.send(dest, '--ttbr', '1', '--label', 'd1-none');
    const copy = await deadLettered(SYSTEM.deadLetter, withDl);
    expect(copy).toMatchObject({
      id: withDl,
      class: 'NACK_RECEIVE_TIMEOUT',
      classCode: 0xc002,
      label: 'd1-dl',
      bodySize: 4,
    });
    await gone(dest, withoutDl);
    expect(await q.messages(dest)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.deadLetter, withoutDl)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, withDl)).toHaveLength(0);
  });

  test('R-D4 a dead-lettered message has its class rewritten to the failure class (quota 0x8003, mismatch 0x800A, TTBR 0xC002)', async () => {
    const { q } = file;
    const [full, tx, timed] = await Promise.all([
      q.newQueue('d4-full', '--quota', '1'),
      q.newQueue('d4-tx', '--transactional'),
      q.newQueue('d4-ttbr'),
    ]);
    await q.send(full, '--body', bodyOfSize(700)); // with its 124-byte header and path, most of the 1 KB quota
    const [overQuota, mismatch, expired] = await Promise.all([
      q.send(full, '--body', bodyOfSize(500), '--journal', 'deadletter', '--label', 'over quota'),
      q.send(tx, '--body', 'not transactional', '--journal', 'deadletter', '--label', 'mismatch'),
      q.send(timed, '--body', 'too late', '--ttbr', '1', '--journal', 'deadletter', '--label', 'expired'),
    ]);
    const copies = await Promise.all([
      deadLettered(SYSTEM.deadLetter, overQuota),
      deadLettered(SYSTEM.deadLetter, mismatch),
      deadLettered(SYSTEM.deadLetter, expired),
    ]);
    expect(copies.map((m) => [m.label, m.class, m.classCode])).toEqual([
      ['over quota', 'NACK_Q_EXCEED_QUOTA', 0x8003],
      ['mismatch', 'NACK_NOT_TRANSACTIONAL_MSG', 0x800a],
      ['expired', 'NACK_RECEIVE_TIMEOUT', 0xc002],
    ]);
    expect(copies.map((m) => m.bodySize)).toEqual([500, 'not transactional'.length, 'too late'.length]);
    expect((await q.show(full)).messageCount).toBe(1);
    expect((await q.show(tx)).messageCount).toBe(0);
  });

  test('R-D5 access-denied sends are not dead-lettered', async () => {
    const { q, svc } = file;
    const label = uniqueName('denied');
    failsWith(await svc.qk('send', SYSTEM.journal, '--journal', 'deadletter', '--label', label), 'ACCESS_DENIED');
    await delay(300);
    const all = [...(await q.messages(SYSTEM.deadLetter)), ...(await q.messages(SYSTEM.xactDeadLetter))];
    expect(all.filter((m) => m.label === label)).toHaveLength(0);
  });

  test('R-D5 R-M4 a transactional receive from a nontransactional queue fails (TRANSACTION_USAGE): the message stays and is not dead-lettered', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('d5-rx');
    const id = await q.send(dest, '--journal', 'deadletter', '--label', 'stays');
    failsWith(await svc.qk('receive', dest, '--transactional'), 'TRANSACTION_USAGE');
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([id]);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });
});

describe.concurrent('a failed receiving transaction (through the client library)', () => {
  /** A transactional queue holding one dead-letter-flagged message whose acknowledgments go to an admin queue. */
  async function oneMessage(prefix: string): Promise<{ dest: string; adm: string; id: string; lookupId: number }> {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue(prefix, '--transactional'), q.newQueue(`${prefix}-adm`)]);
    const id = await q.send(
      dest,
      '--transactional',
      '--journal',
      'deadletter',
      '--ack',
      'full-receive',
      '--admin-queue',
      adm,
      '--label',
      'returns',
    );
    const [stored] = await q.messages(dest);
    return { dest, adm, id, lookupId: stored?.lookupId ?? -1 };
  }

  /**
   * Receives the message for good, then waits for its positive receive acknowledgment: acknowledgments are
   * sent in the order things happen, so a NACK or dead letter the failed transaction had caused is there by now.
   */
  async function receiveForGood(dest: string, adm: string, id: string): Promise<QkMessage[]> {
    const { q } = file;
    expect((await q.receive(dest, '--transactional')).id).toBe(id);
    await waitFor(
      async () => (await q.acksFor(adm, id)).some((ack) => ack.class === 'ACK_RECEIVE') || undefined,
      `the ACK_RECEIVE of ${id}`,
    );
    return q.acksFor(adm, id);
  }

  test('R-D5 R-S7 an aborted receiving transaction returns the message to its place and does not dead-letter it', async () => {
    const { q, svc } = file;
    const { dest, adm, id, lookupId } = await oneMessage('d5-abort');
    const client = await QkClient.fromDataDir(svc.dataDir, { transport: 'ws' });
    const failure = new Error('the application could not process the message');
    try {
      const work = client.transaction(async (transaction) => {
        const taken = await client.receive({ path: dest, transaction });
        expect(taken).toMatchObject({ id, lookupId });
        throw failure;
      });
      await expect(work).rejects.toBe(failure);
    } finally {
      await client.close();
    }
    const [back] = await q.messages(dest);
    expect(back).toMatchObject({ id, lookupId, label: 'returns', abortCount: 1 });
    const acks = await receiveForGood(dest, adm, id);
    expect(acks.map((ack) => ack.class)).toEqual(['ACK_RECEIVE']);
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, id)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });

  test('R-D5 a receiving transaction abandoned by its connection is aborted by the service: the message returns, no dead letter', async () => {
    const { q, svc } = file;
    const { dest, adm, id, lookupId } = await oneMessage('d5-gone');
    const client = await QkClient.fromDataDir(svc.dataDir, { transport: 'ws' });
    const { transaction } = await client.transactionBegin({});
    expect(await client.receive({ path: dest, transaction })).toMatchObject({ id, lookupId });
    expect((await q.show(dest)).messageCount).toBe(1); // still counted: it is only held by the open transaction
    await client.close(); // neither commit nor abort
    const back = await waitFor(
      async () => (await q.messages(dest)).find((m) => m.id === id && m.abortCount === 1),
      'the message back in its queue',
    );
    expect(back).toMatchObject({ lookupId, label: 'returns' });
    expect((await receiveForGood(dest, adm, id)).map((ack) => ack.class)).toEqual(['ACK_RECEIVE']);
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, id)).toHaveLength(0);
  });
});

describe.concurrent('transactional dead letters', () => {
  test('R-D2 transactional + DL: a message not received (TTBR expiry) goes to .\\XACTDEADLETTER$ of the source with the failure class', async () => {
    const { q } = file;
    const dest = await q.newQueue('d2', '--transactional');
    const id = await q.send(
      dest,
      '--transactional',
      '--ttbr',
      '1',
      '--journal',
      'deadletter',
      '--label',
      'd2',
      '--body',
      'xact',
    );
    const copy = await deadLettered(SYSTEM.xactDeadLetter, id, 8_000);
    expect(copy).toMatchObject({
      id,
      class: 'NACK_RECEIVE_TIMEOUT',
      classCode: 0xc002,
      label: 'd2',
      transactional: true,
    });
    expect(await q.messages(dest)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });

  test('R-D2 transactional + DL sent to a nontransactional queue goes to .\\XACTDEADLETTER$ as NACK_NOT_TRANSACTIONAL_Q', async () => {
    const { q } = file;
    const dest = await q.newQueue('d2-mismatch');
    const id = await q.send(dest, '--transactional', '--journal', 'deadletter', '--label', 'wrong type');
    const copy = await deadLettered(SYSTEM.xactDeadLetter, id);
    expect(copy).toMatchObject({ id, class: 'NACK_NOT_TRANSACTIONAL_Q', classCode: 0x8009 });
    expect(await q.messages(dest)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });

  test('R-D2 a transactional DL message that is received is never dead-lettered', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('d2-ok', '--transactional');
    // The receive waits before the send, so a slow machine cannot let the 3 s TTBR run out first.
    const receiving = svc.qk<QkMessage>('receive', dest, '--transactional', '--timeout', '30');
    await delay(500);
    const id = await q.send(dest, '--transactional', '--journal', 'deadletter', '--ttbr', '3', '--label', 'delivered');
    const sentAt = Date.now();
    expect(ok(await receiving).id).toBe(id);
    await delay(Math.max(0, sentAt + 6_500 - Date.now())); // past its TTBR and the receive-NACK delay
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, id)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });

  test('R-D3 without DL (XactDeadLetterAlways = 0) an undelivered transactional message is not dead-lettered', async () => {
    const { q } = file;
    expect((await q.setting('XactDeadLetterAlways')).value).toBe(0);
    const [dest, plain] = await Promise.all([q.newQueue('d3', '--transactional'), q.newQueue('d3-plain')]);
    const expired = await q.send(dest, '--transactional', '--ttbr', '1', '--label', 'no dl');
    const mismatch = await q.send(plain, '--transactional', '--label', 'no dl mismatch');
    await gone(dest, expired);
    await delay(1_500); // the receive-NACK delay of a 1 s TTBR
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, expired)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, mismatch)).toHaveLength(0);
    expect(await q.messages(plain)).toHaveLength(0);
  });
});

describe.concurrent('the dead-letter queues themselves', () => {
  test('seed 001 applications cannot send to the dead-letter queues (path or MACHINE= format name)', async () => {
    const { q, svc } = file;
    const guid = svc.id.replace(/[{}]/g, '');
    const label = uniqueName('dlq-send');
    const targets = [
      SYSTEM.deadLetter,
      SYSTEM.xactDeadLetter,
      `MACHINE=${guid};DEADLETTER`,
      `MACHINE=${guid};DEADXACT`,
    ];
    const results = await Promise.all(targets.map((t) => svc.qk('send', t, '--body', 'x', '--label', label)));
    results.forEach((r) => failsWith(r, 'ACCESS_DENIED'));
    const all = [...(await q.messages(SYSTEM.deadLetter)), ...(await q.messages(SYSTEM.xactDeadLetter))];
    expect(all.filter((m) => m.label === label)).toHaveLength(0);
  });
});
