/**
 * Delivery semantics: purge (R-P*), queue deletion (R-Q1), quotas (R-Q2–R-Q4) and the transactional
 * type mismatch (R-M1).
 */
import { describe, expect, test } from 'vitest';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM, journalOf, uniqueName } from '../helpers/qk-ops.js';
import type { QkMessage, QkQueue } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';
import { bodyOfSize } from '../helpers/temp-files.js';

const file = serviceForFile();

/** Waits (up to 5 s) for `count` messages in `path`, then returns what is there, enough or not. */
async function settled(path: string, count: number): Promise<QkMessage[]> {
  if (count > 0)
    await waitFor(async () => (await file.q.messages(path)).length >= count, `${count} messages in ${path}`).catch(
      () => undefined,
    );
  await delay(300);
  return file.q.messages(path);
}

describe.concurrent('purge', () => {
  test('R-P3 purge: messages with NEG_RECEIVE yield NACK_Q_PURGED 0xC001, the others no ack at all', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('p3'), q.newQueue('p3-adm')]);
    const nacked = await q.send(dest, '--ack', 'nack-receive', '--admin-queue', adm);
    const fullReceive = await q.send(dest, '--ack', 'full-receive', '--admin-queue', adm);
    await q.send(dest, '--ack', 'pos-receive', '--admin-queue', adm);
    await q.send(dest, '--label', 'no ack');
    expect(await q.purge(dest)).toBe(4);
    const acks = await settled(adm, 2);
    expect(acks.map((a) => [a.correlationId, a.class, a.classCode]).sort()).toEqual(
      [
        [nacked, 'NACK_Q_PURGED', 0xc001],
        [fullReceive, 'NACK_Q_PURGED', 0xc001],
      ].sort(),
    );
  });

  test('R-P4 purged messages are journaled neither in the queue journal nor in the computer journal', async () => {
    const { q } = file;
    const dest = await q.newQueue('p4', '--journal');
    const ids = await Promise.all([0, 1, 2].map((i) => q.send(dest, '--journal', 'journal', '--label', `p4-${i}`)));
    expect(await q.purge(dest)).toBe(3);
    await delay(300);
    expect((await q.show(dest)).journalMessageCount).toBe(0);
    const computerJournal = await q.messages(SYSTEM.journal);
    expect(computerJournal.filter((m) => ids.includes(m.id))).toHaveLength(0);
  });

  test('§3.1 purge accepts a queue journal and returns how many messages went', async () => {
    const { q } = file;
    const dest = await q.newQueue('pj', '--journal');
    await Promise.all([0, 1].map((i) => q.send(dest, '--label', `pj-${i}`)));
    await q.receive(dest);
    await q.receive(dest);
    expect((await q.show(dest)).journalMessageCount).toBe(2);
    expect(await q.purge(journalOf(dest))).toBe(2);
    expect((await q.show(dest)).journalMessageCount).toBe(0);
  });
});

describe.concurrent('purging an outgoing queue', () => {
  test('R-P6 purging an outgoing queue yields NACK_PURGED 0x8001 (an arrival NACK) for messages with NEG_ARRIVAL', async () => {
    const { q } = file;
    const adm = await q.newQueue('p6-adm');
    const host = uniqueName('NOHOSTP6').toUpperCase();
    const id = await q.send(
      `${host}\\private$\\x`,
      '--ack',
      'nack-reach-queue',
      '--admin-queue',
      adm,
      '--label',
      'p6',
      '--body',
      'never sent',
    );
    const outgoing = (await q.list()).find(
      (queue) => queue.type === 'outgoing' && queue.path.toUpperCase().includes(host),
    );
    expect(outgoing, `an outgoing queue for ${host}`).toBeDefined();
    expect(await q.purge(outgoing?.path ?? '')).toBe(1);
    const [nack] = await settled(adm, 1);
    expect(nack).toMatchObject({ class: 'NACK_PURGED', classCode: 0x8001, correlationId: id, body: 'never sent' });
  });
});

describe.concurrent('queue deletion', () => {
  test('R-Q1 deleting a queue yields NACK_Q_DELETED 0xC000 for messages that asked for negative receive acks', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('q1'), q.newQueue('q1-adm')]);
    const a = await q.send(dest, '--ack', 'nack-receive', '--admin-queue', adm, '--body', 'a');
    const b = await q.send(dest, '--ack', 'neg-receive', '--admin-queue', adm, '--body', 'b');
    await q.send(dest, '--ack', 'pos-arrival', '--admin-queue', adm); // one ACK_REACH_QUEUE now, nothing at delete
    ok(await svc.qk('queue', 'delete', dest));
    const acks = await settled(adm, 3);
    const deletes = acks.filter((x) => x.classCode === 0xc000);
    expect(deletes.map((x) => x.correlationId).sort()).toEqual([a, b].sort());
    expect(deletes.every((x) => x.class === 'NACK_Q_DELETED')).toBe(true);
    expect(acks.filter((x) => x.classCode !== 0xc000).map((x) => x.classCode)).toEqual([0x0002]);
    failsWith(await svc.qk('send', dest, '--body', 'x'), 'QUEUE_NOT_FOUND');
  });
});

describe.concurrent('quotas', () => {
  test('R-Q2 a full queue (quota in KB; a message counts its 124-byte header, body and UTF-16 strings) refuses arrivals: NACK 0x8003 and dead-lettered as flagged', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('q2', '--quota', '1'), q.newQueue('q2-adm')]);
    expect((await q.show(dest)).quotaKB).toBe(1);
    // Two messages that fill 1 KB exactly: each is 124 + body + 2 × its destination's length.
    const overhead = 124 + 2 * dest.length;
    await q.send(dest, '--body', bodyOfSize(300));
    await q.send(dest, '--body', bodyOfSize(1_024 - 2 * overhead - 300));
    let queue: QkQueue = await q.show(dest);
    expect(queue).toMatchObject({ messageCount: 2, bytes: 1_024 });
    // The next one does not fit. (Whether the local send call itself reports it is not specified.)
    const refused = await svc.qk<{ id: string }>(
      'send',
      dest,
      '--body',
      bodyOfSize(100),
      '--journal',
      'deadletter',
      '--ack',
      'nack-reach-queue',
      '--admin-queue',
      adm,
      '--label',
      'over',
    );
    queue = await q.show(dest);
    expect(queue).toMatchObject({ messageCount: 2, bytes: 1_024 });
    const nacks = await settled(adm, 1);
    expect(nacks.map((n) => [n.class, n.classCode, n.label])).toEqual([['NACK_Q_EXCEED_QUOTA', 0x8003, 'over']]);
    const id = nacks[0]?.correlationId as string;
    if (refused.exitCode === 0) expect(refused.json.id).toBe(id);
    const [copy] = await q.copiesOf(SYSTEM.deadLetter, id);
    expect(copy).toMatchObject({ class: 'NACK_Q_EXCEED_QUOTA', classCode: 0x8003, bodySize: 100 });
  });

  test('R-Q3 changing a queue quota affects only messages that arrive afterwards', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('q3');
    await Promise.all([0, 1, 2].map(() => q.send(dest, '--body', bodyOfSize(500))));
    ok(await svc.qk('queue', 'set', dest, '--quota', '1'));
    expect((await q.show(dest)).messageCount).toBe(3); // already over the new quota: nothing leaves
    await svc.qk('send', dest, '--body', bodyOfSize(10), '--label', 'refused');
    expect((await q.show(dest)).messageCount).toBe(3);
    const unlimited = ok(await svc.qk<QkQueue>('queue', 'set', dest, '--quota', 'unlimited'));
    expect(unlimited.quotaKB).toBeNull();
    await q.send(dest, '--body', bodyOfSize(10), '--label', 'accepted');
    const labels = (await q.messages(dest)).map((m) => m.label);
    expect(labels).toContain('accepted');
    expect(labels).not.toContain('refused');
  });
});

describe.concurrent('transactional mismatch', () => {
  test('R-M1 a transactional message to a nontransactional queue: the send succeeds, it is not delivered, NACK 0x8009, XACT dead letter', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('m1-plain'), q.newQueue('m1-adm')]);
    const result = await svc.qk<{ id: string }>(
      'send',
      dest,
      '--transactional',
      '--journal',
      'deadletter',
      '--ack',
      'nack-reach-queue',
      '--admin-queue',
      adm,
    );
    const id = ok(result).id;
    const [nack] = await settled(adm, 1);
    expect(nack).toMatchObject({ class: 'NACK_NOT_TRANSACTIONAL_Q', classCode: 0x8009, correlationId: id });
    expect((await q.show(dest)).messageCount).toBe(0);
    const copy = await waitFor(async () => (await q.copiesOf(SYSTEM.xactDeadLetter, id))[0], 'the XACT dead letter');
    expect(copy.classCode).toBe(0x8009);
  });

  test('R-M1 a nontransactional message to a transactional queue: the send succeeds, it is not delivered, NACK 0x800A, dead letter', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('m1-tx', '--transactional'), q.newQueue('m1-adm2')]);
    const id = ok(
      await svc.qk<{ id: string }>(
        'send',
        dest,
        '--journal',
        'deadletter',
        '--ack',
        'nack-reach-queue',
        '--admin-queue',
        adm,
      ),
    ).id;
    const [nack] = await settled(adm, 1);
    expect(nack).toMatchObject({ class: 'NACK_NOT_TRANSACTIONAL_MSG', classCode: 0x800a, correlationId: id });
    expect((await q.show(dest)).messageCount).toBe(0);
    const copy = await waitFor(async () => (await q.copiesOf(SYSTEM.deadLetter, id))[0], 'the dead letter');
    expect(copy.classCode).toBe(0x800a);
  });
});
