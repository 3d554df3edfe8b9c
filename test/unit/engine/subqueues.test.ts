import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass } from '@qk/model';
import { openHarness, settle, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\orders';
const POISON = `${Q};poison`;
const RETRY = `${Q};retry`;
const OTHER = '.\\private$\\other';
const ADMIN = '.\\private$\\admin';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q, quotaKB: 4 });
  h.qm.createQueue({ path: OTHER });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

const lookupIds = (path: string): number[] => h.qm.browse({ path }).messages.map((m) => m.lookupId);

describe('subqueues (R-S1–R-S6)', () => {
  test("R-S1 R-S4 created on first move, listed after their queue with type subqueue and parent, its properties its queue's", async () => {
    await h.qm.send(Q, { body: 'bad' });
    const [m] = h.qm.browse({ path: Q }).messages;
    await h.qm.moveMessage(Q, m?.lookupId ?? 0, POISON);
    const list = h.qm.listQueues();
    const at = list.findIndex((q) => q.path === Q);
    expect(list[at + 1]).toMatchObject({
      path: POISON,
      type: 'subqueue',
      parent: Q,
      messageCount: 1,
      quotaKB: 4,
      formatName: `DIRECT=OS:ALPHA\\private$\\orders;poison`,
    });
    expect(h.qm.showQueue(`DIRECT=OS:.\\private$\\orders;POISON`).path).toBe(POISON);
    // Journaling and retention too: what its queue has set is what it shows (and does, R-T5).
    h.qm.setQueue({ path: Q, journal: true, retention: true });
    expect(h.qm.showQueue(POISON)).toMatchObject({ journal: true, retention: true, quotaKB: 4 });
  });

  test('R-S1 creating a subqueue by name is refused; R-S2 nobody sends to one', async () => {
    expect(() => h.qm.createQueue({ path: POISON })).toThrow(
      expect.objectContaining({ code: 'ILLEGAL_QUEUE_PATHNAME' }),
    );
    await expect(h.qm.send(POISON, { body: 'x' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  test('R-S3 a move keeps the lookup ID, counts one move and resets the abort count; back and to a sibling too', async () => {
    h.qm.createQueue({ path: '.\\private$\\tx', transactional: true });
    const TX = '.\\private$\\tx';
    await h.qm.send(TX, { body: 'p' }, { transactional: true });
    const tx = h.qm.beginTransaction();
    const received = await h.qm.receive({ path: TX, transaction: tx });
    h.qm.abortTransaction(tx);
    expect(h.qm.getMessage(TX, received.lookupId).abortCount).toBe(1);
    await h.qm.moveMessage(TX, received.lookupId, `${TX};retry`);
    let moved = h.qm.getMessage(`${TX};retry`, received.lookupId);
    expect(moved).toMatchObject({ lookupId: received.lookupId, moveCount: 1, abortCount: 0 });
    expect(moved.lastMoveTime).toBe(new Date(h.clock.now()).toISOString());
    await h.qm.moveMessage(`${TX};retry`, received.lookupId, `${TX};poison`);
    await h.qm.moveMessage(`${TX};poison`, received.lookupId, TX);
    moved = h.qm.getMessage(TX, received.lookupId);
    expect(moved.moveCount).toBe(3);
  });

  test("R-S3 never into another queue's subqueue", async () => {
    await h.qm.send(OTHER, { body: 'x' });
    const [m] = h.qm.browse({ path: OTHER }).messages;
    await expect(h.qm.moveMessage(OTHER, m?.lookupId ?? 0, POISON)).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
    });
    expect(lookupIds(OTHER)).toEqual([m?.lookupId]);
  });

  test('R-Q5 subqueues share their queue quota; moving does not change what is used', async () => {
    await h.qm.send(Q, { body: 'x'.repeat(1_500) });
    await h.qm.send(Q, { body: 'y'.repeat(1_500) });
    const before = h.qm.showQueue(Q).bytes;
    const [first] = lookupIds(Q);
    await h.qm.moveMessage(Q, first ?? 0, POISON);
    expect(h.qm.showQueue(Q).bytes + h.qm.showQueue(POISON).bytes).toBe(before);
    await h.qm.send(Q, { body: 'z'.repeat(1_500), acknowledge: 0x04, adminQueue: ADMIN });
    expect(h.qm.classCounts(ADMIN)).toEqual([{ class: 'NACK_Q_EXCEED_QUOTA', classCode: 0x8003, count: 1 }]);
  });

  test('R-T5 a message received from a subqueue is journaled in its queue journal; acks as from the queue', async () => {
    h.qm.setQueue({ path: Q, journal: true });
    await h.qm.send(Q, { body: 'j', acknowledge: 0x02, adminQueue: ADMIN });
    const [id] = lookupIds(Q);
    await h.qm.moveMessage(Q, id ?? 0, POISON);
    await h.qm.receive({ path: POISON });
    expect(h.qm.showQueue(Q).journalMessageCount).toBe(1);
    expect(h.qm.classCounts(ADMIN)).toEqual([{ class: 'ACK_RECEIVE', classCode: 0x4000, count: 1 }]);
  });

  test('a subqueue is browsable, purgeable (NACK 0xC001) and goes with its queue (NACK 0xC000)', async () => {
    for (const n of [1, 2, 3]) await h.qm.send(Q, { body: `m${n}`, acknowledge: 0x08, adminQueue: ADMIN });
    const [a, b] = lookupIds(Q);
    await h.qm.moveMessage(Q, a ?? 0, POISON);
    await h.qm.moveMessage(Q, b ?? 0, RETRY);
    expect(h.qm.browse({ path: POISON }).total).toBe(1);
    expect(await h.qm.purgeQueue(POISON)).toBe(1);
    await h.qm.deleteQueue(Q);
    expect(h.qm.listQueues().some((q) => q.path.startsWith(Q))).toBe(false);
    expect(h.qm.classCounts(ADMIN).map((c) => [c.classCode, c.count])).toEqual([
      [MessageClass.NACK_Q_DELETED, 2],
      [MessageClass.NACK_Q_PURGED, 1],
    ]);
  });

  test('R-S1 an empty subqueue nobody waits on goes after a while; one a receive waits on stays', async () => {
    await h.qm.send(Q, { body: 'x' });
    const [id] = lookupIds(Q);
    await h.qm.moveMessage(Q, id ?? 0, POISON);
    await h.qm.receive({ path: POISON });
    const waiting = h.qm.receive({ path: RETRY, timeoutMs: 60_000 });
    h.clock.advance(15_000);
    const paths = h.qm.listQueues().map((q) => q.path);
    expect(paths).not.toContain(POISON);
    expect(paths).toContain(RETRY);
    await h.qm.send(Q, { body: 'y' });
    const [y] = lookupIds(Q);
    await h.qm.moveMessage(Q, y ?? 0, RETRY);
    await settle();
    await expect(waiting).resolves.toMatchObject({ body: 'y' });
  });
});

describe('rejecting and aborting (R-S7, R-S8)', () => {
  test('R-S8 reject: the message goes and its sender gets NACK_RECEIVE_REJECTED 0xC004', async () => {
    await h.qm.send(Q, { body: 'no', acknowledge: 0x08, adminQueue: ADMIN });
    const [id] = lookupIds(Q);
    await h.qm.rejectMessage(Q, id ?? 0);
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
    const [nack] = h.qm.browse({ path: ADMIN, includeBody: true }).messages;
    expect(nack).toMatchObject({ class: 'NACK_RECEIVE_REJECTED', classCode: 0xc004, body: 'no' });
  });

  test('R-S8 a rejected transactional message is dead-lettered at its source as flagged', async () => {
    h.qm.createQueue({ path: '.\\private$\\tx', transactional: true });
    await h.qm.send('.\\private$\\tx', { body: 't', journal: 1 }, { transactional: true });
    const [id] = lookupIds('.\\private$\\tx');
    await h.qm.rejectMessage('.\\private$\\tx', id ?? 0);
    expect(h.qm.browse({ path: '.\\XACTDEADLETTER$' }).messages.map((m) => m.classCode)).toEqual([0xc004]);
  });

  test('R-S7 every aborted receiving transaction counts; the count survives a restart', async () => {
    h.qm.createQueue({ path: '.\\private$\\tx', transactional: true });
    await h.qm.send('.\\private$\\tx', { body: 't' }, { transactional: true });
    for (let i = 0; i < 3; i++) {
      const tx = h.qm.beginTransaction();
      await h.qm.receive({ path: '.\\private$\\tx', transaction: tx });
      h.qm.abortTransaction(tx);
    }
    await h.reopen();
    expect((await h.qm.peek({ path: '.\\private$\\tx' })).abortCount).toBe(3);
  });

  test('R-S7 a message moved to another queue starts counting its aborts again there', async () => {
    const [TX, TX2] = ['.\\private$\\tx', '.\\private$\\tx2'];
    h.qm.createQueue({ path: TX, transactional: true });
    h.qm.createQueue({ path: TX2, transactional: true });
    await h.qm.send(TX, { body: 't' }, { transactional: true });
    const tx = h.qm.beginTransaction();
    const received = await h.qm.receive({ path: TX, transaction: tx });
    h.qm.abortTransaction(tx);
    expect((await h.qm.peek({ path: TX })).abortCount).toBe(1);
    await h.qm.moveMessage(TX, received.lookupId, TX2);
    expect(await h.qm.peek({ path: TX2 })).toMatchObject({ body: 't', abortCount: 0 });
  });
});

describe('R-S1 a subqueue opened by naming it lasts as long as the call', () => {
  const subqueuePaths = (): string[] => h.qm.listQueues().flatMap((q) => (q.type === 'subqueue' ? [q.path] : []));
  const afterCall = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  test('a refused call leaves no subqueue behind', async () => {
    await expect(h.qm.receive({ path: POISON, lookupId: 47 })).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
    await afterCall();
    expect(subqueuePaths()).toEqual([]);
  });

  test('a read of a missing subqueue shows it empty, then it is gone, and no watcher hears of it', async () => {
    const queueEvents: string[] = [];
    const off = h.qm.on((e) => {
      if (e.type === 'queueCreated' || e.type === 'queueDeleted') queueEvents.push(`${e.type} ${e.path}`);
    });
    expect(h.qm.browse({ path: POISON })).toMatchObject({ total: 0, messages: [] });
    await afterCall();
    off();
    expect(subqueuePaths()).toEqual([]);
    // A console showing the queue family answered each created/deleted pair with a new read: a loop.
    expect(queueEvents).toEqual([]);
  });

  test('a receive that waited on a missing subqueue and timed out leaves nothing behind (a refused call changes nothing)', async () => {
    const receiving = h.qm.receive({ path: POISON, timeoutMs: 5 });
    const peeking = h.qm.peek({ path: RETRY, timeoutMs: 5 });
    await afterCall();
    expect(subqueuePaths().sort()).toEqual([POISON, RETRY]);
    h.clock.advance(10);
    await expect(receiving).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    await expect(peeking).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    await afterCall();
    expect(subqueuePaths()).toEqual([]);
  });

  test('a timed-out wait on a missing subqueue is gone by the time its refusal reaches the caller, not a turn later', async () => {
    // The API fuzz saw it: a request read in the same event-loop turn as the refusal still found the subqueue.
    const stillThere: string[] = [];
    const refused =
      (path: string) =>
      (error: unknown): never => {
        if (subqueuePaths().includes(path)) stillThere.push(path);
        throw error;
      };
    const receiving = h.qm.receive({ path: POISON, timeoutMs: 5 }).catch(refused(POISON));
    const peeking = h.qm.peek({ path: RETRY, timeoutMs: 5 }).catch(refused(RETRY));
    await afterCall();
    expect(subqueuePaths().sort()).toEqual([POISON, RETRY]);
    h.clock.advance(10);
    await expect(receiving).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    await expect(peeking).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    expect(stillThere).toEqual([]);
  });

  test('a receive waiting on a subqueue keeps it open, and a move into it wakes that receive', async () => {
    await h.qm.send(Q, { body: 'bad' });
    const created: string[] = [];
    const off = h.qm.on((e) => void (e.type === 'queueCreated' && created.push(e.path)));
    const waiting = h.qm.receive({ path: POISON, timeoutMs: 5_000 });
    await afterCall();
    off();
    expect(subqueuePaths()).toEqual([POISON]);
    expect(created).toEqual([POISON]);
    const [m] = h.qm.browse({ path: Q }).messages;
    await h.qm.moveMessage(Q, m?.lookupId ?? 0, POISON);
    await expect(waiting).resolves.toMatchObject({ body: 'bad', moveCount: 1 });
  });

  test('a cursor open on a subqueue is an open handle: the subqueue stays and the cursor sees a message moved in', async () => {
    const cursor = h.qm.openCursor(POISON);
    await afterCall();
    expect(subqueuePaths()).toEqual([POISON]);
    await h.qm.send(Q, { body: 'later' });
    const waiting = h.qm.cursorPeek({ cursor, timeoutMs: 5_000 });
    const [m] = h.qm.browse({ path: Q }).messages;
    await h.qm.moveMessage(Q, m?.lookupId ?? 0, POISON);
    await expect(waiting).resolves.toMatchObject({ body: 'later', moveCount: 1 });
    h.qm.closeCursor(cursor);
  });
});
