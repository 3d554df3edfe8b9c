/**
 * Transactional messages that leave their queue unreceived are dead-lettered at their source (R-D2, R-D3):
 * purge, queue deletion, an administrator's delete (a purge of one) and rejection. Acknowledgments never
 * enter a transactional administration queue (R-M1); a per-application dead-letter queue takes the dead
 * letters of the messages that name it (R-D9).
 */
import { describe, expect, test } from 'vitest';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';

const file = serviceForFile();

/** Waits until acknowledgments of `id` are in `adm`, then returns them. */
async function acksIn(adm: string, id: string): Promise<QkMessage[]> {
  return waitFor(
    async () => {
      const acks = await file.q.acksFor(adm, id);
      return acks.length > 0 ? acks : undefined;
    },
    `acknowledgments of ${id}`,
    15_000,
  );
}

/** Waits until the message's copy is in `path`, then returns it. */
async function copyIn(path: string, id: string): Promise<QkMessage> {
  return waitFor(async () => (await file.q.copiesOf(path, id))[0], `${id} in ${path}`, 15_000);
}

describe.concurrent('transactional dead letters when a message leaves unreceived', () => {
  test('R-D2 purging a transactional queue: NACK_Q_PURGED to the sender and the dead letter in .\\XACTDEADLETTER$', async () => {
    const { q } = file;
    const [tx, adm] = await Promise.all([q.newQueue('xp', '--transactional'), q.newQueue('xp-adm')]);
    const id = await q.send(
      tx,
      '--transactional',
      '--journal',
      'deadletter',
      '--ack',
      'nack-receive',
      '--admin-queue',
      adm,
      '--body',
      'purged',
    );
    const unflagged = await q.send(tx, '--transactional', '--label', 'no DL flag');
    expect(await q.purge(tx)).toBe(2);
    const copy = await copyIn(SYSTEM.xactDeadLetter, id);
    expect(copy).toMatchObject({ class: 'NACK_Q_PURGED', classCode: 0xc001, body: 'purged', transactional: true });
    const [nack] = await acksIn(adm, id);
    expect(nack).toMatchObject({ class: 'NACK_Q_PURGED' });
    await delay(500);
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, unflagged)).toHaveLength(0); // R-D3: no flag, no dead letter
  });

  test('R-P5 a purge dead-letters no nontransactional message, even one with the dead-letter flag', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('p5'), q.newQueue('p5-adm')]);
    const id = await q.send(dest, '--journal', 'deadletter', '--ack', 'nack-receive', '--admin-queue', adm);
    expect(await q.purge(dest)).toBe(1);
    expect((await acksIn(adm, id)).map((a) => a.classCode)).toEqual([0xc001]);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, id)).toHaveLength(0);
  });

  test('R-D2 deleting a transactional queue: the dead letter has class NACK_Q_DELETED 0xC000', async () => {
    const { q, svc } = file;
    const tx = await q.newQueue('xd', '--transactional');
    const id = await q.send(tx, '--transactional', '--journal', 'deadletter');
    ok(await svc.qk('queue', 'delete', tx));
    expect(await copyIn(SYSTEM.xactDeadLetter, id)).toMatchObject({ class: 'NACK_Q_DELETED', classCode: 0xc000 });
  });
});

describe.concurrent("an administrator's delete is a purge of one", () => {
  test("an administrator's delete of one message is a purge of one: NACK 0xC001 when asked, the transactional dead letter, never a journal copy", async () => {
    const { q, svc } = file;
    const [tx, adm] = await Promise.all([q.newQueue('xm', '--transactional', '--journal'), q.newQueue('xm-adm')]);
    const id = await q.send(tx, '--transactional', '--journal', 'both', '--ack', 'nack-receive', '--admin-queue', adm);
    const [m] = await q.messages(tx);
    ok(await svc.qk('message', 'delete', tx, String(m?.lookupId)));
    expect(await copyIn(SYSTEM.xactDeadLetter, id)).toMatchObject({ classCode: 0xc001 });
    expect((await acksIn(adm, id)).map((a) => a.classCode)).toEqual([0xc001]);
    expect((await q.show(tx)).journalMessageCount).toBe(0);
    expect(await q.copiesOf(SYSTEM.journal, id)).toHaveLength(0);
  });

  test('an administrator deleting a nontransactional message tells the sender NACK_Q_PURGED when asked (no dead letter)', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('xn'), q.newQueue('xn-adm')]);
    const id = await q.send(dest, '--ack', 'nack-receive', '--admin-queue', adm, '--journal', 'deadletter');
    const [m] = await q.messages(dest);
    ok(await svc.qk('message', 'delete', dest, String(m?.lookupId)));
    const nacks = await acksIn(adm, id);
    expect(nacks.map((n) => n.class)).toEqual(['NACK_Q_PURGED']);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });
});

describe.concurrent('acknowledgments and administration queues', () => {
  test('R-M1 acknowledgments are never delivered into a transactional administration queue', async () => {
    const { q } = file;
    const [dest, txAdmin] = await Promise.all([q.newQueue('am'), q.newQueue('am-adm', '--transactional')]);
    await q.send(dest, '--ack', 'full-receive', '--admin-queue', txAdmin);
    await q.send(dest, '--ack', 'pos-arrival', '--admin-queue', txAdmin);
    await q.receive(dest);
    await delay(500);
    expect((await q.show(txAdmin)).messageCount).toBe(0);
  });
});

describe.concurrent('per-application dead-letter queue (R-D9)', () => {
  test('R-D9 --dead-letter-queue: the dead letter goes to that transactional queue instead of .\\XACTDEADLETTER$', async () => {
    const { q } = file;
    const [tx, appDlq] = await Promise.all([
      q.newQueue('d9', '--transactional'),
      q.newQueue('d9-dlq', '--transactional'),
    ]);
    const id = await q.send(
      tx,
      '--transactional',
      '--journal',
      'deadletter',
      '--dead-letter-queue',
      appDlq,
      '--ttbr',
      '1',
    );
    const copy = await copyIn(appDlq, id);
    expect(copy).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT', classCode: 0xc002 });
    expect(copy.deadLetterQueue?.toLowerCase()).toBe(appDlq.toLowerCase());
    expect(await q.copiesOf(SYSTEM.xactDeadLetter, id)).toHaveLength(0);
  });

  test('R-D9 the send fails for a nontransactional message, without the dead-letter flag, or naming a nontransactional queue, a system queue or a subqueue', async () => {
    const { q, svc } = file;
    const [tx, plain, appDlq] = await Promise.all([
      q.newQueue('d9b', '--transactional'),
      q.newQueue('d9b-plain'),
      q.newQueue('d9b-dlq', '--transactional'),
    ]);
    failsWith(
      await svc.qk('send', plain, '--journal', 'deadletter', '--dead-letter-queue', appDlq),
      'INVALID_PARAMETER',
    );
    failsWith(await svc.qk('send', tx, '--transactional', '--dead-letter-queue', appDlq), 'INVALID_PARAMETER');
    failsWith(
      await svc.qk('send', tx, '--transactional', '--journal', 'deadletter', '--dead-letter-queue', plain),
      'INVALID_PARAMETER',
    );
    for (const notAnApplicationQueue of [SYSTEM.xactDeadLetter, `${appDlq};poison`])
      failsWith(
        await svc.qk(
          'send',
          tx,
          '--transactional',
          '--journal',
          'deadletter',
          '--dead-letter-queue',
          notAnApplicationQueue,
        ),
        'INVALID_PARAMETER',
      );
    expect((await q.show(tx)).messageCount + (await q.show(plain)).messageCount).toBe(0);
  });
});
