/**
 * Delivery semantics: positive source journaling to the computer journal (R-J*) and target journaling to
 * queue journals (R-T*), seed 000.
 */
import { describe, expect, test } from 'vitest';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM, journalOf } from '../helpers/qk-ops.js';
import type { QkQueue } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';
import { bodyOfSize } from '../helpers/temp-files.js';

const file = serviceForFile();

describe.concurrent('source journaling (computer journal)', () => {
  test('R-J2 JR message to a local queue without target journaling: copied to the computer journal only after it is received', async () => {
    const { q } = file;
    const dest = await q.newQueue('j2');
    const id = await q.send(dest, '--journal', 'journal', '--label', 'j2', '--body', 'journal me');
    await q.peek(dest);
    expect(await q.copiesOf(SYSTEM.journal, id), 'before receive').toHaveLength(0);
    await q.receive(dest);
    const copies = await q.copiesOf(SYSTEM.journal, id);
    expect(copies, 'after receive').toHaveLength(1);
    expect(copies[0]).toMatchObject({ id, label: 'j2', bodySize: 'journal me'.length });
    // Never a second copy anywhere else on this computer.
    expect(await q.messages(journalOf(dest))).toHaveLength(0);
  });

  test('R-J3 JR message to a queue with target journaling: the copy goes to the queue journal only, never also to the computer journal', async () => {
    const { q } = file;
    const dest = await q.newQueue('j3', '--journal');
    const id = await q.send(dest, '--journal', 'journal', '--label', 'j3');
    await q.receive(dest);
    expect(await q.copiesOf(journalOf(dest), id)).toHaveLength(1);
    expect(await q.copiesOf(SYSTEM.journal, id)).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });
});

describe.concurrent('target journaling (queue journal)', () => {
  test('R-T1 a queue with journaling copies every received message to its journal', async () => {
    const { q } = file;
    const dest = await q.newQueue('t1', '--journal');
    const a = await q.send(dest, '--label', 'a', '--body', 'alpha');
    const b = await q.send(dest, '--label', 'b', '--body', 'beta');
    await q.receive(dest);
    let queue: QkQueue = await q.show(dest);
    expect(queue).toMatchObject({ messageCount: 1, journalMessageCount: 1 });
    expect((await q.messages(journalOf(dest))).map((m) => m.id)).toEqual([a]);
    await q.receive(dest);
    queue = await q.show(dest);
    expect(queue).toMatchObject({
      messageCount: 0,
      journalMessageCount: 2,
      // Each copy takes what its message took: a 124-byte header, the body, label and destination in UTF-16.
      journalBytes: 2 * 124 + 'alpha'.length + 'beta'.length + 2 * 2 * (1 + dest.length),
    });
    const journal = await q.messages(journalOf(dest));
    expect(journal.map((m) => m.id)).toEqual([a, b]);
    expect(journal.map((m) => m.label)).toEqual(['a', 'b']);
    // R-L1: journal copies get their own lookup IDs, increasing in the journal's order.
    expect(journal[1]?.lookupId).toBeGreaterThan(journal[0]?.lookupId ?? Infinity);
  });

  test('§3.1 a queue journal is shown as type "journal" and applications may read and remove its messages (never send to it)', async () => {
    const { q } = file;
    const dest = await q.newQueue('jread', '--journal');
    const id = await q.send(dest, '--label', 'journal me', '--body', 'kept');
    await q.receive(dest);
    const journal = await q.show(journalOf(dest));
    expect(journal).toMatchObject({ type: 'journal', messageCount: 1 });
    const copy = await q.receive(journalOf(dest));
    expect(copy).toMatchObject({ id, body: 'kept' });
    expect((await q.show(dest)).journalMessageCount).toBe(0);
  });

  test('R-T2 messages removed by purge or by TTBR expiry are not journaled (queue or computer journal)', async () => {
    const { q } = file;
    const dest = await q.newQueue('t2', '--journal');
    const expiring = await q.send(dest, '--ttbr', '1', '--journal', 'journal', '--label', 'expires');
    const purged = await q.send(dest, '--journal', 'journal', '--label', 'purged');
    await waitFor(async () => !(await q.messages(dest)).some((m) => m.id === expiring), 'the TTBR-1 message to expire');
    expect(await q.purge(dest)).toBe(1);
    await delay(300);
    expect(await q.messages(journalOf(dest))).toHaveLength(0);
    expect((await q.show(dest)).journalMessageCount).toBe(0);
    const computerJournal = await q.messages(SYSTEM.journal);
    expect(computerJournal.filter((m) => m.id === expiring || m.id === purged)).toHaveLength(0);
  });

  test('R-T3 peeks and browses never journal', async () => {
    const { q } = file;
    const dest = await q.newQueue('t3', '--journal');
    const id = await q.send(dest, '--journal', 'journal', '--label', 'peeked');
    await q.peek(dest);
    await q.peek(dest, '--timeout', '1');
    await q.messages(dest);
    expect((await q.show(dest)).journalMessageCount).toBe(0);
    expect(await q.messages(journalOf(dest))).toHaveLength(0);
    expect(await q.copiesOf(SYSTEM.journal, id)).toHaveLength(0);
    expect((await q.show(dest)).messageCount).toBe(1);
  });

  test('R-T4 when the queue-journal quota is exceeded the journal copy is silently skipped', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('t4', '--journal');
    const first = await q.send(dest, '--body', bodyOfSize(2_048));
    await q.receive(dest);
    expect((await q.messages(journalOf(dest))).map((m) => m.id)).toEqual([first]);
    const changed = ok(await svc.qk<QkQueue>('queue', 'set', dest, '--journal-quota', '1'));
    expect(changed.journalQuotaKB).toBe(1);
    const second = await q.send(dest, '--body', bodyOfSize(2_048));
    const received = await q.receive(dest);
    expect(received.id).toBe(second);
    expect((await q.messages(journalOf(dest))).map((m) => m.id)).toEqual([first]);
  });

  test('R-T6 arrivedTime: a queue-journal copy keeps the original arrival, a computer-journal copy shows when it entered the journal', async () => {
    const { q } = file;
    const [journaled, plain] = await Promise.all([q.newQueue('t6q', '--journal'), q.newQueue('t6c')]);
    const [inQueueJournal, inComputerJournal] = await Promise.all([
      q.send(journaled, '--label', 'queue journal'),
      q.send(plain, '--journal', 'journal', '--label', 'computer journal'),
    ]);
    const [origQ, origC] = await Promise.all([q.peek(journaled), q.peek(plain)]);
    await delay(2_100);
    await Promise.all([q.receive(journaled), q.receive(plain)]);
    const receivedAt = Date.now();
    const [copyQ] = await q.copiesOf(journalOf(journaled), inQueueJournal);
    const [copyC] = await q.copiesOf(SYSTEM.journal, inComputerJournal);
    expect(copyQ?.arrivedTime).toBe(origQ.arrivedTime);
    const enteredJournal = Date.parse(copyC?.arrivedTime ?? '');
    // Two seconds later, at one-second resolution: at least one second after the original arrival.
    expect(enteredJournal - Date.parse(origC.arrivedTime)).toBeGreaterThanOrEqual(1_000);
    expect(enteredJournal).toBeLessThanOrEqual(receivedAt + 1_000);
  });
});
