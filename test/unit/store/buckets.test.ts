/**
 * The store's side of a logical purge (core/store/src/buckets.ts): after a cut the queue's rows are gone for
 * every statement that reads messages, rows stored afterwards are the queue's, held rows moved back stay, the
 * dead rows are handed out in chunks, and all of it survives closing and opening the store again.
 */
import { expect, test } from 'vitest';
import { Store, type MessageRecord, type MessageTable } from '@qk/store';
import { messageRecord, tempDirs } from './fixtures.js';

const tempDir = tempDirs('qk-buckets-');

const QUEUE = 7;

function record(lookupId: number, extra: Partial<MessageRecord> = {}): MessageRecord {
  return messageRecord(lookupId, QUEUE, {
    body: Buffer.from('x'),
    bodySize: 1,
    destQueue: 'q',
    correlationId: 'c',
    sentMs: 1,
    arrivedMs: 1,
    timerBaseMs: 1,
    ttrq: 1,
    ttbr: 10,
    expiresMs: 10_000,
    ...extra,
  });
}

const ids = (store: Store): number[] => store.messages.firstReady(QUEUE, 100).map((m) => m.lookupId);

test('a cut purges every row of the queue for every read; later rows and rows moved back are the queue’s', () => {
  const dir = tempDir();
  let store = Store.open(dir);
  try {
    const tables: MessageTable[] = ['main', 'main', 'mem', 'main'];
    store.transaction(() =>
      tables.forEach((t, i) =>
        store.messages.insert(
          t,
          record(i + 1, i === 3 ? { ack: 0x08, adminQueue: 'admin', expiresMs: 12_000 } : { expiresMs: 20_000 }),
        ),
      ),
    );
    expect(ids(store)).toEqual([1, 2, 3, 4]);
    const cut = store.transaction(() => {
      const made = store.buckets.cut(QUEUE, 'private', 'purged');
      // Message 2 is held by a receive (R-P2): it stays with the queue.
      store.messages.rebucket('main', [2], QUEUE);
      store.messages.insert('main', record(5));
      return made;
    });
    expect(ids(store)).toEqual([2, 5]);
    expect(store.messages.get(1)).toBeUndefined();
    expect(store.messages.get(2)?.queueId).toBe(QUEUE);
    expect(store.messages.rows([{ lookupId: 3, table: 'mem' }])).toEqual([]);
    expect(store.messages.byCorrelation('c').map((m) => m.lookupId)).toEqual([2, 5]);
    expect(
      store.messages
        .expired(20_000)
        .map((m) => m.lookupId)
        .sort(),
    ).toEqual([2, 5]);
    expect(store.messages.usage()).toEqual([{ queueId: QUEUE, count: 2, bytes: 260, retained: 0 }]);
    expect(store.messages.classCounts(QUEUE)).toEqual([{ classCode: 0, count: 2 }]);
    expect(store.readyOrder.after(QUEUE, null, 10).keys.map((k) => k.lookupId)).toEqual([2, 5]);
    expect(store.messages.browse(browseQuery()).messages.map((m) => m.lookupId)).toEqual([2, 5]);
    expect(store.buckets.deadBuckets()).toEqual([cut.dead]);

    store.close();
    store = Store.open(dir);
    // Express rows are gone with the process (R-V1); the durable ones stay purged after a restart.
    expect(ids(store)).toEqual([2, 5]);
    expect(store.buckets.deadBuckets()).toEqual([cut.dead]);
    // Due ones first (message 4's deadline has passed, message 1's not yet), then the rest.
    const due = store.messages.deadChunk('main', cut.dead, 10, false, 15_000);
    expect(due.lookupIds).toEqual([4]);
    const chunk = store.messages.deadChunk('main', cut.dead, 10, false, 0);
    expect(chunk.lookupIds.sort()).toEqual([1, 4]);
    expect(due.owing.map((m) => m.lookupId)).toEqual([4]);
    // Only the row that asked for a NACK is read whole, under the queue it was purged from.
    expect(chunk.owing.map((m) => [m.lookupId, m.queueId])).toEqual([[4, QUEUE]]);
    store.transaction(() => {
      store.messages.removeMany('main', chunk.lookupIds);
      store.buckets.forgetDead(cut.dead.bucket);
    });
    store.close();
    store = Store.open(dir);
    expect(store.buckets.deadBuckets()).toEqual([]);
    expect(ids(store)).toEqual([2, 5]);
  } finally {
    store.close();
  }
});

test('a cut rolled back with its transaction leaves the queue as it was', () => {
  const store = Store.open(tempDir());
  try {
    store.transaction(() => store.messages.insert('main', record(1)));
    expect(() =>
      store.transaction(() => {
        const cut = store.buckets.cut(QUEUE, 'private', 'purged');
        try {
          throw new Error('refused');
        } catch (error) {
          cut.undo();
          throw error;
        }
      }),
    ).toThrow('refused');
    expect(ids(store)).toEqual([1]);
    expect(store.buckets.deadBuckets()).toEqual([]);
  } finally {
    store.close();
  }
});

function browseQuery(): Parameters<Store['messages']['browse']>[0] {
  return {
    queueId: QUEUE,
    offset: 0,
    limit: 10,
    knownTotal: 2,
    hasRetained: false,
    includeBody: false,
    sort: { column: 'queue', descending: false },
    filter: {},
  };
}
