import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass } from '@qk/model';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\q';
const ADMIN = '.\\private$\\admin';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

const classes = (path: string): number[] => h.qm.browse({ path }).messages.map((m) => m.classCode);
const count = (path: string): number => h.qm.showQueue(path).messageCount;

describe('journaling', () => {
  test('R-J2 computer journal gets the copy only after receive', async () => {
    await h.qm.send(Q, { body: 'j', journal: 2 });
    expect(count('.\\JOURNAL$')).toBe(0);
    await h.qm.receive({ path: Q });
    expect(count('.\\JOURNAL$')).toBe(1);
  });

  test('R-J3 with target journaling the copy goes to the queue journal only', async () => {
    h.qm.setQueue({ path: Q, journal: true });
    await h.qm.send(Q, { body: 'j', journal: 2 });
    await h.qm.receive({ path: Q });
    expect(count('.\\JOURNAL$')).toBe(0);
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(1);
    const copy = h.qm.browse({ path: `${Q}\\JOURNAL$` }).messages[0];
    expect(copy?.class).toBe('NORMAL');
  });

  test('R-T2 purge and R-T3 peek never journal', async () => {
    h.qm.setQueue({ path: Q, journal: true });
    await h.qm.send(Q, { body: 'a' });
    await h.qm.peek({ path: Q });
    expect(await h.qm.purgeQueue(Q)).toBe(1);
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(0);
  });

  test('R-T4 a full journal quota drops the copy silently', async () => {
    h.qm.setQueue({ path: Q, journal: true, journalQuotaKB: 1 });
    await h.qm.send(Q, { body: 'x'.repeat(800) });
    await h.qm.send(Q, { body: 'y'.repeat(800) });
    await h.qm.receive({ path: Q });
    await h.qm.receive({ path: Q });
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(1);
  });
});

describe('dead letters and acknowledgments', () => {
  test('R-X7 TTBR expiry: removed, dead letter 0xC002, NACK 0xC002', async () => {
    await h.qm.send(Q, { body: 'b', timeToBeReceived: 2, journal: 1, acknowledge: 0x0c, adminQueue: ADMIN });
    h.clock.advance(1_000);
    expect(count(Q)).toBe(1);
    h.clock.advance(1_200);
    expect(count(Q)).toBe(0);
    expect(classes('.\\DEADLETTER$')).toEqual([MessageClass.NACK_RECEIVE_TIMEOUT]);
    const nack = h.qm.browse({ path: ADMIN, includeBody: true }).messages[0];
    expect(nack?.classCode).toBe(MessageClass.NACK_RECEIVE_TIMEOUT);
    expect(nack?.body).toBe('b');
  });

  test('R-A6 acknowledgment contents', async () => {
    const id = await h.qm.send(Q, {
      body: 'payload',
      label: 'lbl',
      appSpecific: 42,
      priority: 6,
      acknowledge: 0x0f,
      adminQueue: ADMIN,
    });
    await h.qm.receive({ path: Q });
    const acks = h.qm.browse({ path: ADMIN, includeBody: true }).messages;
    expect(acks.map((a) => a.class).sort()).toEqual(['ACK_REACH_QUEUE', 'ACK_RECEIVE']);
    for (const a of acks) {
      expect(a.id).not.toBe(id);
      expect(a.correlationId).toBe(id);
      expect(a.label).toBe('lbl');
      expect(a.appSpecific).toBe(42);
      expect(a.priority).toBe(6);
      expect(a.body).toBe('');
      expect(a.responseQueue).toBe(Q);
    }
    expect(h.qm.acknowledgmentsFor(id)).toHaveLength(2);
  });

  test('R-P3 purge sends NACK_Q_PURGED; R-Q1 delete sends NACK_Q_DELETED', async () => {
    await h.qm.send(Q, { body: 'p', acknowledge: 0x08, adminQueue: ADMIN });
    await h.qm.purgeQueue(Q);
    h.qm.createQueue({ path: '.\\private$\\gone' });
    await h.qm.send('.\\private$\\gone', { body: 'd', acknowledge: 0x08, adminQueue: ADMIN });
    await h.qm.deleteQueue('.\\private$\\gone');
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_Q_PURGED, MessageClass.NACK_Q_DELETED]);
  });

  test('R-Q2 full queue: NACK 0x8003 and dead letter; R-M1 mismatch NACK 0x800A', async () => {
    h.qm.setQueue({ path: Q, quotaKB: 1 });
    // 124-byte header + body + UTF-16 strings: the first takes 848 of 1,024 bytes, the second does not fit.
    await h.qm.send(Q, { body: 'x'.repeat(700) });
    await h.qm.send(Q, { body: 'y'.repeat(700), journal: 1, acknowledge: 0x04, adminQueue: ADMIN });
    expect(count(Q)).toBe(1);
    h.qm.createQueue({ path: '.\\private$\\tx', transactional: true });
    await h.qm.send('.\\private$\\tx', { body: 'n', acknowledge: 0x04, adminQueue: ADMIN });
    expect(count('.\\private$\\tx')).toBe(0);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_Q_EXCEED_QUOTA, MessageClass.NACK_NOT_TRANSACTIONAL_MSG]);
    expect(classes('.\\DEADLETTER$')).toEqual([MessageClass.NACK_Q_EXCEED_QUOTA]);
  });

  test('R-Q4 full computer: local send fails with INSUFFICIENT_RESOURCES and no acknowledgment', async () => {
    h.qm.setSetting('MachineQuota', 1);
    await h.qm.send(Q, { body: 'x'.repeat(800) });
    await expect(h.qm.send(Q, { body: 'y'.repeat(100), acknowledge: 0x04, adminQueue: ADMIN })).rejects.toMatchObject({
      code: 'INSUFFICIENT_RESOURCES',
    });
    expect(count(ADMIN)).toBe(0);
  });

  test('R-X6 TTRQ expiry in an outgoing queue: NACK 0x8002 and dead letter', async () => {
    await h.qm.send('FARAWAY\\private$\\q', {
      body: 'r',
      timeToReachQueue: 1,
      journal: 1,
      acknowledge: 0x04,
      adminQueue: ADMIN,
    });
    expect(h.qm.listQueues().some((q) => q.type === 'outgoing' && q.messageCount === 1)).toBe(true);
    h.clock.advance(1_200);
    expect(classes('.\\DEADLETTER$')).toEqual([MessageClass.NACK_REACH_QUEUE_TIMEOUT]);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_REACH_QUEUE_TIMEOUT]);
  });

  test('R-D3 transactional failure dead-letters only when asked or XactDeadLetterAlways=1', async () => {
    await h.qm.send(Q, { body: 't1' }, { transactional: true });
    expect(count('.\\XACTDEADLETTER$')).toBe(0);
    await h.qm.send(Q, { body: 't2', journal: 1 }, { transactional: true });
    expect(classes('.\\XACTDEADLETTER$')).toEqual([MessageClass.NACK_NOT_TRANSACTIONAL_Q]);
    h.qm.setSetting('XactDeadLetterAlways', 1);
    expect(h.qm.status().settingsPendingRestart).toEqual(['XactDeadLetterAlways']);
    await h.reopen();
    await h.qm.send(Q, { body: 't3' }, { transactional: true });
    expect(count('.\\XACTDEADLETTER$')).toBe(2);
  });
});

describe('transactions', () => {
  test('abort puts received messages back where they were; commit releases sends', async () => {
    const TX = '.\\private$\\txq';
    h.qm.createQueue({ path: TX, transactional: true });
    await h.qm.send(TX, { body: 'first' }, { transactional: true });
    const tx = h.qm.beginTransaction();
    const got = await h.qm.receive({ path: TX, transaction: tx });
    expect(got.body).toBe('first');
    await h.qm.send(TX, { body: 'second' }, { transaction: tx });
    expect(count(TX)).toBe(1);
    await expect(h.qm.receive({ path: TX })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    h.qm.abortTransaction(tx);
    expect(count(TX)).toBe(1);
    const tx2 = h.qm.beginTransaction();
    await h.qm.receive({ path: TX, transaction: tx2 });
    await h.qm.send(TX, { body: 'third', priority: 7 }, { transaction: tx2 });
    await h.qm.commitTransaction(tx2);
    const left = h.qm.browse({ path: TX, includeBody: true }).messages;
    expect(left.map((m) => [m.body, m.priority, m.delivery])).toEqual([['third', 0, 'recoverable']]);
  });

  test('R-P2 a message held by an open receive is purged when its transaction aborts', async () => {
    const TX = '.\\private$\\txp';
    h.qm.createQueue({ path: TX, transactional: true });
    await h.qm.send(TX, { body: 'held', acknowledge: 0x08, adminQueue: ADMIN }, { transactional: true });
    const tx = h.qm.beginTransaction();
    await h.qm.receive({ path: TX, transaction: tx });
    expect(await h.qm.purgeQueue(TX)).toBe(0);
    h.qm.abortTransaction(tx);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(count(TX)).toBe(0);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_Q_PURGED]);
  });

  test('transactional receive from a nontransactional queue is TRANSACTION_USAGE (R-M4)', async () => {
    await h.qm.send(Q, { body: 'n' });
    await expect(h.qm.receive({ path: Q, transactional: true })).rejects.toMatchObject({ code: 'TRANSACTION_USAGE' });
  });
});

describe('receive waits', () => {
  test('a waiting receive wakes when a message arrives', async () => {
    const pending = h.qm.receive({ path: Q, timeoutMs: 5_000 });
    await h.qm.send(Q, { body: 'late' });
    expect((await pending).body).toBe('late');
  });
});

describe('duplicates, settings, retention', () => {
  const source = '5f0e9a51-3c1f-4c8e-9a4c-1f2e3d4c5b6a';
  test('R-U2 a second arrival of the same nontransactional message is dropped; transactional ones are not', async () => {
    const m = { id: `{${source}}\\7`, sourceMachineId: source, sourceMachine: 'BETA', body: 'dup' };
    expect(await h.qm.arrive(Q, m)).toEqual({ accepted: true, reason: null });
    expect(await h.qm.arrive(Q, m)).toEqual({ accepted: false, reason: 'duplicate' });
    expect(h.qm.status().duplicateCache).toEqual({ entries: 1, capacity: 10_000, duplicatesRemoved: 1 });
    h.qm.createQueue({ path: '.\\private$\\t', transactional: true });
    const t = { ...m, id: `{${source}}\\8`, transactional: true };
    await h.qm.arrive('.\\private$\\t', t);
    expect((await h.qm.arrive('.\\private$\\t', t)).accepted).toBe(true);
  });

  test('R-U3 entries older than RemoveDuplicateCleanup leave the cache; a restart empties it', async () => {
    await h.qm.arrive(Q, { id: `{${source}}\\9`, sourceMachineId: source, sourceMachine: 'BETA' });
    expect(h.qm.status().duplicateCache.entries).toBe(1);
    h.clock.advance(1_800_100);
    expect(h.qm.status().duplicateCache.entries).toBe(0);
    await h.qm.arrive(Q, { id: `{${source}}\\10`, sourceMachineId: source, sourceMachine: 'BETA' });
    await h.reopen();
    expect(h.qm.status().duplicateCache.entries).toBe(0);
  });

  test('settings: restart-required values wait as pending; invalid ones are refused', async () => {
    const s = h.qm.setSetting('RemoveDuplicateSize', 5);
    expect([s.value, s.pending]).toEqual([10_000, 5]);
    expect(() => h.qm.setSetting('LongLiveTime', -1)).toThrow(/LongLiveTime/);
    expect(() => h.qm.setSetting('Nope', 1)).toThrow(/Unknown setting/);
    await h.reopen();
    expect(h.qm.status().duplicateCache.capacity).toBe(5);
    expect(h.qm.listSettings().find((x) => x.name === 'RemoveDuplicateSize')?.pending).toBeNull();
  });

  test('retention keeps received (status 0) and sent (status 3) copies until the conversation ends', async () => {
    const R = '.\\private$\\ret';
    h.qm.createQueue({ path: R, retention: true });
    await h.qm.send(R, { body: 'in', conversation: 'c1' });
    await h.qm.receive({ path: R });
    await expect(h.qm.receive({ path: R })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    await h.qm.send(Q, { body: 'out', conversation: 'c1', from: R });
    const statuses = h.qm.browse({ path: R }).messages.map((m) => m.status);
    expect(statuses).toEqual([0, 3]);
    expect(h.qm.endConversation('c1')).toBe(3);
    expect(count(R)).toBe(0);
  });
});

describe('arrivals from other computers', () => {
  const source = '5f0e9a51-3c1f-4c8e-9a4c-1f2e3d4c5b6a';
  test('R-D5 an arrival for a queue that does not exist is NACK_BAD_DST_Q and dead-lettered as flagged', async () => {
    const outcome = await h.qm.arrive('.\\private$\\nosuch', {
      id: `{${source}}\\11`,
      sourceMachineId: source,
      sourceMachine: 'BETA',
      body: 'lost',
      journal: 1,
      acknowledge: 0x04,
      adminQueue: ADMIN,
    });
    expect(outcome).toEqual({ accepted: false, reason: 'NACK_BAD_DST_Q' });
    expect(classes('.\\DEADLETTER$')).toEqual([MessageClass.NACK_BAD_DST_Q]);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_BAD_DST_Q]);
  });
});

describe('browsing', () => {
  test('pages in receive order from either end, sorted and filtered by the store', async () => {
    for (let i = 0; i < 30; i++)
      await h.qm.send(Q, {
        body: `body-${i}`,
        label: `L${String(29 - i).padStart(2, '0')}`,
        priority: i % 2 === 0 ? 5 : 1,
      });
    const all = h.qm.browse({ path: Q, limit: 1000 }).messages;
    expect(all).toHaveLength(30);
    const last = h.qm.browse({ path: Q, offset: 25, limit: 10 });
    expect(last.total).toBe(30);
    expect(last.messages.map((m) => m.lookupId)).toEqual(all.slice(25).map((m) => m.lookupId));
    const byLabel = h.qm.browse({ path: Q, sort: { column: 'label' }, limit: 3 }).messages.map((m) => m.label);
    expect(byLabel).toEqual(['L00', 'L01', 'L02']);
    const filtered = h.qm.browse({ path: Q, filter: { bodyText: 'BODY-1' }, includeBody: true });
    expect(filtered.total).toBe(11);
    expect(filtered.messages.every((m) => m.body?.startsWith('body-1'))).toBe(true);
  });
});

describe('outgoing queues', () => {
  test('R-P6 purging an outgoing queue sends NACK_PURGED 0x8001 to messages with NEG_ARRIVAL', async () => {
    await h.qm.send('FARAWAY\\private$\\q', { body: 'never sent', acknowledge: 0x04, adminQueue: ADMIN });
    const outgoing = h.qm.listQueues().find((q) => q.type === 'outgoing');
    expect(await h.qm.purgeQueue(outgoing?.path ?? '')).toBe(1);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_PURGED]);
  });
});
