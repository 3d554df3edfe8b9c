/**
 * Subqueues and poison messages (MSMQ 4.0, R-S1–R-S8) through `qk message move|reject`, `qk queue list`,
 * `qk messages`, `qk queue purge`; the abort count of a message whose receiving transaction was aborted
 * through the HTTP API (qk has no command that aborts).
 */
import { describe, expect, test } from 'vitest';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { callApi } from '../helpers/http-api.js';
import { SYSTEM, sameQueue } from '../helpers/qk-ops.js';
import type { QkMessage, QkQueue } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';

/** The properties subqueues add to the CLI.md shapes. */
type SubqueueInfo = QkQueue;

const file = serviceForFile();

async function lookupIdOf(path: string, index = 0): Promise<number> {
  const m = (await file.q.messages(path))[index];
  if (!m) throw new Error(`no message ${index} in ${path}`);
  return m.lookupId;
}

describe.concurrent('subqueues', () => {
  test('R-S1 qk message move to PATH;poison opens the subqueue; qk queue list shows it after its queue with type subqueue and parent', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('s1');
    await q.send(dest, '--label', 'poisonous');
    const id = await lookupIdOf(dest);
    ok(await svc.qk('message', 'move', dest, String(id), `${dest};poison`));
    const list = ok(await svc.qk<SubqueueInfo[]>('queue', 'list'));
    const at = list.findIndex((x) => sameQueue(x.path, dest));
    expect(list[at + 1]).toMatchObject({ type: 'subqueue', messageCount: 1 });
    expect(sameQueue(list[at + 1]?.path, `${dest};poison`)).toBe(true);
    expect(sameQueue(list[at + 1]?.parent, dest)).toBe(true);
    const moved = await q.messages(`${dest};poison`);
    expect(moved.map((m) => [m.lookupId, m.label, m.moveCount, m.abortCount])).toEqual([[id, 'poisonous', 1, 0]]);
    expect((await q.show(dest)).messageCount).toBe(0);
    const direct = `DIRECT=OS:.\\${dest.slice(2)};poison`;
    expect(ok(await svc.qk<QkQueue>('queue', 'show', direct)).messageCount).toBe(1);
  });

  test('R-S2 nobody sends to a subqueue; R-S1 one is never created by name', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('s2');
    failsWith(await svc.qk('send', `${dest};poison`, '--body', 'x'), 'ACCESS_DENIED');
    failsWith(await svc.qk('queue', 'create', `${dest};poison`), 'ILLEGAL_QUEUE_PATHNAME');
  });

  test("R-S3 moves go queue ↔ subqueue ↔ sibling, each one counted; never into another queue's subqueue", async () => {
    const { q, svc } = file;
    const [dest, other] = await Promise.all([q.newQueue('s3'), q.newQueue('s3-other')]);
    await q.send(dest, '--label', 'walker');
    const id = String(await lookupIdOf(dest));
    ok(await svc.qk('message', 'move', dest, id, `${dest};retry`));
    ok(await svc.qk('message', 'move', `${dest};retry`, id, `${dest};poison`));
    ok(await svc.qk('message', 'move', `${dest};poison`, id, dest));
    const [back] = await q.messages(dest);
    expect(back).toMatchObject({ lookupId: Number(id), moveCount: 3 });
    failsWith(await svc.qk('message', 'move', dest, id, `${other};poison`), 'INVALID_PARAMETER');
    expect((await q.messages(dest)).map((m) => m.lookupId)).toEqual([Number(id)]);
  });

  test('a subqueue is browsable and purgeable; purging it sends NACK_Q_PURGED as for its queue', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('sp'), q.newQueue('sp-adm')]);
    const msgId = await q.send(dest, '--ack', 'nack-receive', '--admin-queue', adm);
    ok(await svc.qk('message', 'move', dest, String(await lookupIdOf(dest)), `${dest};poison`));
    expect((await q.page(`${dest};poison`)).total).toBe(1);
    expect(await q.purge(`${dest};poison`)).toBe(1);
    const nacks = await waitFor(async () => {
      const acks = await q.acksFor(adm, msgId);
      return acks.length > 0 ? acks : undefined;
    }, 'the NACK');
    expect(nacks.map((n) => n.classCode)).toEqual([0xc001]);
  });

  test('R-Q5 subqueues take from their queue quota; a move leaves the use unchanged', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('sq', '--quota', '1');
    await q.send(dest, '--body', 'x'.repeat(300));
    await q.send(dest, '--body', 'y'.repeat(300));
    const before = (await q.show(dest)).bytes;
    ok(await svc.qk('message', 'move', dest, String(await lookupIdOf(dest)), `${dest};poison`));
    const [main, poison] = [await q.show(dest), await q.show(`${dest};poison`)];
    expect(main.bytes + poison.bytes).toBe(before);
    await svc.qk('send', dest, '--body', 'z'.repeat(300), '--label', 'no room');
    expect((await q.messages(dest)).map((m) => m.label)).not.toContain('no room');
  });
});

describe.concurrent('what a subqueue inherits', () => {
  test("R-S4 R-S6 R-T5 a subqueue has its queue's type and quota, no properties or deletion of its own; a message received from it goes to its queue's journal", async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('inh', '--transactional', '--journal', '--quota', '64');
    await q.send(dest, '--transactional', '--label', 'journaled');
    ok(await svc.qk('message', 'move', dest, String(await lookupIdOf(dest)), `${dest};retry`));
    const sub = await q.show(`${dest};retry`);
    expect(sub).toMatchObject({ type: 'subqueue', transactional: true, quotaKB: 64 });
    // R-S6: properties and deletion are its queue's business, not the subqueue's.
    failsWith(await svc.qk('queue', 'set', `${dest};retry`, '--quota', '1'), 'UNSUPPORTED_FORMATNAME_OPERATION');
    failsWith(await svc.qk('queue', 'delete', `${dest};retry`), 'UNSUPPORTED_FORMATNAME_OPERATION');
    const received = await q.receive(`${dest};retry`, '--transactional');
    expect(received.label).toBe('journaled');
    expect((await q.messages(`${dest}\\JOURNAL$`)).map((m) => m.id)).toEqual([received.id]);
  });
});

describe.concurrent('poison messages', () => {
  test('R-S8 qk message reject: the message goes and the sender gets NACK_RECEIVE_REJECTED 0xC004', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('rj', '--transactional'), q.newQueue('rj-adm')]);
    const msgId = await q.send(
      dest,
      '--transactional',
      '--ack',
      'nack-receive',
      '--admin-queue',
      adm,
      '--body',
      'bad',
      '--journal',
      'deadletter',
    );
    ok(await svc.qk('message', 'reject', dest, String(await lookupIdOf(dest))));
    expect((await q.show(dest)).messageCount).toBe(0);
    const nacks = await waitFor(async () => {
      const acks = await q.acksFor(adm, msgId);
      return acks.length > 0 ? acks : undefined;
    }, 'the NACK');
    expect(nacks[0]).toMatchObject({ class: 'NACK_RECEIVE_REJECTED', classCode: 0xc004, body: 'bad' });
    expect((await q.copiesOf(SYSTEM.xactDeadLetter, msgId))[0]).toMatchObject({ classCode: 0xc004 });
  });

  test('R-S7 each aborted receiving transaction adds to the abort count; a move to a subqueue starts it again', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('ab', '--transactional');
    await q.send(dest, '--transactional', '--label', 'hard to process');
    for (let i = 0; i < 2; i++) {
      const { transaction } = await callApi<{ transaction: string }>(svc.dataDir, 'transactionBegin', {});
      await callApi(svc.dataDir, 'receive', { path: dest, transaction });
      await callApi(svc.dataDir, 'transactionAbort', { transaction });
    }
    const [m] = await q.messages(dest);
    expect(m).toMatchObject({ abortCount: 2, moveCount: 0 });
    ok(await svc.qk('message', 'move', dest, String(m?.lookupId), `${dest};poison`));
    const [moved] = await q.messages(`${dest};poison`);
    expect(moved).toMatchObject({ abortCount: 0, moveCount: 1 });
  });
});

// A block of its own: suites run one after the other, so these do not share the qk slots with the ones above.
describe.concurrent('subqueues that come and go, and what has none', () => {
  test('R-S1 a subqueue that is not there reads as empty and is not kept; a refused call leaves none; an emptied one goes by itself', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('s1-gone');
    const sub = `${dest};look`;
    const listed = async (path: string): Promise<boolean> => (await q.list()).some((x) => sameQueue(x.path, path));
    expect(await q.show(sub)).toMatchObject({ type: 'subqueue', messageCount: 0 });
    expect((await q.page(sub)).total).toBe(0);
    expect((await svc.qk('peek', sub)).exitCode).toBe(3);
    const missing = await svc.qk('receive', sub, '--lookup-id', '1');
    expect([missing.exitCode, missing.json]).toMatchObject([3, { error: { code: 'MESSAGE_NOT_FOUND' } }]);
    expect(await listed(sub)).toBe(false);
    await q.send(dest, '--label', 'in and out');
    ok(await svc.qk('message', 'move', dest, String(await lookupIdOf(dest)), sub));
    expect(await listed(sub)).toBe(true);
    expect((await q.receive(sub)).label).toBe('in and out');
    await waitFor(async () => !(await listed(sub)), 'the emptied subqueue to go', 30_000, 1_000);
  });

  test('R-S5 journals, system queues and subqueues have no subqueues: ILLEGAL_QUEUE_PATHNAME, nothing created', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('s5');
    await q.send(dest, '--label', 'stays');
    const id = String(await lookupIdOf(dest));
    for (const path of [
      `${SYSTEM.deadLetter};x`,
      `${SYSTEM.xactDeadLetter};x`,
      `${SYSTEM.journal};x`,
      `${dest}\\JOURNAL$;x`,
      `${dest};a;b`,
    ])
      failsWith(await svc.qk('queue', 'show', path), 'ILLEGAL_QUEUE_PATHNAME');
    for (const path of [`${SYSTEM.deadLetter};x`, `${dest};a;b`])
      failsWith(await svc.qk('message', 'move', dest, id, path), 'ILLEGAL_QUEUE_PATHNAME');
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['stays']);
    expect((await q.list()).filter((x) => x.type === 'subqueue' && sameQueue(x.parent, dest))).toEqual([]);
  });

  test('R-S6 R-L2 a subqueue is read by lookup ID too; R-S8 a poison message is rejected from its subqueue with 0xC004', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('s6'), q.newQueue('s6-adm')]);
    const poison = `${dest};poison`;
    const msgId = await q.send(dest, '--label', 'poison', '--ack', 'nack-receive', '--admin-queue', adm);
    await q.send(dest, '--label', 'fine');
    const id = String(await lookupIdOf(dest));
    ok(await svc.qk('message', 'move', dest, id, poison));
    expect(ok(await svc.qk<QkMessage>('peek', poison, '--action', 'first'))).toMatchObject({ label: 'poison' });
    expect(ok(await svc.qk<QkMessage>('peek', poison, '--lookup-id', id))).toMatchObject({ moveCount: 1 });
    expect((await svc.qk('peek', poison, '--lookup-id', id, '--action', 'next')).exitCode).toBe(3);
    ok(await svc.qk('message', 'reject', poison, id));
    expect((await q.show(poison)).messageCount).toBe(0);
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['fine']);
    const nacks = await waitFor(async () => {
      const acks = await q.acksFor(adm, msgId);
      return acks.length > 0 ? acks : undefined;
    }, 'the NACK');
    expect(nacks.map((n) => [n.class, n.classCode])).toEqual([['NACK_RECEIVE_REJECTED', 0xc004]]);
  });
});
