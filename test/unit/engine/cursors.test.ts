import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openHarness, settle, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\cursor';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
});
afterEach(async () => {
  await h.dispose();
});

async function fill(...labels: [string, number][]): Promise<void> {
  for (const [label, priority] of labels) await h.qm.send(Q, { label, priority });
}

describe('cursors (R-C2–R-C5)', () => {
  test('R-C2 a new cursor stands before the first message: its first current is the first message', async () => {
    await fill(['a', 3], ['top', 7], ['b', 3]);
    const cursor = h.qm.openCursor(Q);
    expect((await h.qm.cursorPeek({ cursor })).label).toBe('top');
    expect((await h.qm.cursorPeek({ cursor })).label).toBe('top');
    expect((await h.qm.cursorPeek({ cursor, action: 'next' })).label).toBe('a');
    expect((await h.qm.cursorPeek({ cursor, action: 'next' })).label).toBe('b');
    await expect(h.qm.cursorPeek({ cursor, action: 'next' })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
  });

  test('R-C3 after a receive at the cursor, current is the next message: peeking next skips it', async () => {
    await fill(['a', 3], ['b', 3], ['c', 3], ['d', 3]);
    const cursor = h.qm.openCursor(Q);
    expect((await h.qm.cursorReceive({ cursor })).label).toBe('a');
    expect((await h.qm.cursorPeek({ cursor })).label).toBe('b');
    expect((await h.qm.cursorReceive({ cursor })).label).toBe('b');
    // The receive moved the cursor to c; PEEK_NEXT right after moves on from there, past c, as MSMQ's does.
    expect((await h.qm.cursorPeek({ cursor, action: 'next' })).label).toBe('d');
    expect((await h.qm.cursorPeek({ cursor })).label).toBe('d');
    expect(h.qm.browse({ path: Q }).messages.map((m) => m.label)).toEqual(['c', 'd']);
    // After receiving the last one there is nothing past the cursor's position.
    expect((await h.qm.cursorReceive({ cursor })).label).toBe('d');
    await expect(h.qm.cursorPeek({ cursor, action: 'next' })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
  });

  test('R-C4 a cursor waiting at the end takes the message that arrives, wherever its priority puts it', async () => {
    await fill(['low', 1]);
    const cursor = h.qm.openCursor(Q);
    expect((await h.qm.cursorPeek({ cursor })).label).toBe('low');
    const waiting = h.qm.cursorPeek({ cursor, action: 'next', timeoutMs: 10_000 });
    await settle();
    await h.qm.send(Q, { label: 'high', priority: 7 }); // lands before the cursor's position
    await settle();
    expect((await waiting).label).toBe('high');
  });

  test('R-C5 when another receiver takes the message under a cursor, the cursor gets MESSAGE_ALREADY_RECEIVED', async () => {
    await fill(['a', 3], ['b', 3]);
    const cursor = h.qm.openCursor(Q);
    expect((await h.qm.cursorPeek({ cursor })).label).toBe('a');
    await h.qm.receive({ path: Q });
    await expect(h.qm.cursorPeek({ cursor })).rejects.toMatchObject({ code: 'MESSAGE_ALREADY_RECEIVED' });
    await expect(h.qm.cursorReceive({ cursor })).rejects.toMatchObject({ code: 'MESSAGE_ALREADY_RECEIVED' });
    expect((await h.qm.cursorPeek({ cursor, action: 'next' })).label).toBe('b');
  });

  test('a transactional receive at a cursor goes back on abort; the cursor has moved on', async () => {
    h.qm.createQueue({ path: '.\\private$\\cursor-tx', transactional: true });
    const TX = '.\\private$\\cursor-tx';
    await h.qm.send(TX, { label: 'x' }, { transactional: true });
    await h.qm.send(TX, { label: 'y' }, { transactional: true });
    const cursor = h.qm.openCursor(TX);
    const tx = h.qm.beginTransaction();
    expect((await h.qm.cursorReceive({ cursor, transaction: tx })).label).toBe('x');
    h.qm.abortTransaction(tx);
    expect((await h.qm.cursorPeek({ cursor })).label).toBe('y');
    expect(h.qm.browse({ path: TX }).messages.map((m) => [m.label, m.abortCount])).toEqual([
      ['x', 1],
      ['y', 0],
    ]);
    await expect(h.qm.cursorReceive({ cursor: h.qm.openCursor(Q), transactional: true })).rejects.toMatchObject({
      code: 'TRANSACTION_USAGE',
    });
  });

  test('a closed or idle cursor is INVALID_HANDLE; a cursor on a deleted queue is QUEUE_DELETED', async () => {
    await fill(['a', 3]);
    const closed = h.qm.openCursor(Q);
    h.qm.closeCursor(closed);
    await expect(h.qm.cursorPeek({ cursor: closed })).rejects.toMatchObject({ code: 'INVALID_HANDLE' });
    const idle = h.qm.openCursor(Q);
    h.clock.advance(5 * 60_000 + 500);
    await expect(h.qm.cursorPeek({ cursor: idle })).rejects.toMatchObject({ code: 'INVALID_HANDLE' });
    const orphan = h.qm.openCursor(Q);
    await h.qm.deleteQueue(Q);
    await expect(h.qm.cursorPeek({ cursor: orphan })).rejects.toMatchObject({ code: 'QUEUE_DELETED' });
  });

  test('a cursor on a deleted queue never reads a queue created after it, nor keeps an unused subqueue (R-S1)', async () => {
    // The deleted queue held the highest ID, the one SQLite alone would give the next queue again.
    const gone = '.\\private$\\gone';
    h.qm.createQueue({ path: gone });
    const orphan = h.qm.openCursor(gone);
    await h.qm.deleteQueue(gone);
    const later = '.\\private$\\later';
    h.qm.createQueue({ path: later });
    await h.qm.send(later, { label: 'not for the orphan' });
    await expect(h.qm.cursorReceive({ cursor: orphan })).rejects.toMatchObject({ code: 'QUEUE_DELETED' });
    expect(h.qm.browse({ path: later }).messages.map((m) => m.label)).toEqual(['not for the orphan']);

    const another = h.qm.openCursor(later);
    await h.qm.deleteQueue(later);
    // A refused call names a subqueue: it opens for the call and goes with it, the orphan cursor notwithstanding.
    expect(() => h.qm.deleteMessage(`${Q};poison`, 49)).toThrow(expect.objectContaining({ code: 'MESSAGE_NOT_FOUND' }));
    await settle();
    expect(h.qm.listQueues().map((q) => q.path)).not.toContain(`${Q};poison`);
    await expect(h.qm.cursorPeek({ cursor: another })).rejects.toMatchObject({ code: 'QUEUE_DELETED' });
  });

  test('a cursor on a subqueue walks it', async () => {
    await fill(['p', 3]);
    const [m] = h.qm.browse({ path: Q }).messages;
    await h.qm.moveMessage(Q, m?.lookupId ?? 0, `${Q};poison`);
    const cursor = h.qm.openCursor(`${Q};poison`);
    expect((await h.qm.cursorReceive({ cursor })).label).toBe('p');
  });
});
