/**
 * The row cache (core/store/src/row-cache.ts): a row it gives is the row SQLite would give — checked against
 * the same store opened again, whose cache is empty — after every statement that changes rows, and a row a
 * rolled-back transaction inserted is not given at all.
 */
import { expect, test } from 'vitest';
import { Store, type MessageRecord, type StoredMessage } from '@qk/store';
import { RowCache } from '../../../core/store/src/row-cache.js';
import { messageRecord, tempDirs } from './fixtures.js';

const tempDir = tempDirs('qk-row-cache-');

const QUEUE = 7;
const OTHER = 8;

const record = (lookupId: number, extra: Partial<MessageRecord> = {}): MessageRecord =>
  messageRecord(lookupId, QUEUE, extra);

/** A plain row (the short insert), one with every column set, and edge values (empty body and label). */
const VARIANTS: MessageRecord[] = [
  record(1),
  record(2, {
    classCode: 0x8000,
    journal: 3,
    ack: 14,
    adminQueue: '.\\private$\\admin',
    responseQueue: '.\\private$\\resp',
    correlationId: '{b}\\9',
    appSpecific: 42,
    ttbr: 60,
    expiresMs: 9_999_999_999,
    transactional: true,
    conversation: 'conv-1',
    moveCount: 2,
    abortCount: 1,
    lastMoveMs: 1_500,
    deadLetterQueue: '.\\private$\\dlq',
    priority: 7,
  }),
  record(3, { body: Buffer.alloc(0), bodySize: 0, label: '', priority: 0 }),
];

/** How many rows the store's cache holds (private to the store; only these tests look). */
function rowsHeldBy(store: Store): number {
  return (store as unknown as { rows: RowCache }).rows.size.rows;
}

function storedAfterReopen(dir: string, lookupIds: number[]): (StoredMessage | undefined)[] {
  const fresh = Store.open(dir);
  try {
    return lookupIds.map((id) => fresh.messages.get(id));
  } finally {
    fresh.close();
  }
}

test('a row given by the cache equals the row SQLite gives, for plain, full and empty messages', () => {
  const dir = tempDir();
  const store = Store.open(dir);
  const ids = VARIANTS.map((m) => m.lookupId);
  let cached: (StoredMessage | undefined)[];
  try {
    store.transaction(() => VARIANTS.forEach((m) => store.messages.insert('main', m)));
    cached = ids.map((id) => store.messages.get(id));
    // The receive path reads through the ready order, the same cache.
    const viaOrder = store.readyOrder.rows(
      VARIANTS.map((m) => ({ lookupId: m.lookupId, priority: m.priority, table: 'main' })),
    );
    expect(ids.map((id) => viaOrder.get(id))).toEqual(cached);
  } finally {
    store.close();
  }
  expect(cached.every((m) => m !== undefined)).toBe(true);
  expect(cached).toEqual(storedAfterReopen(dir, ids));
});

test('every statement that changes a row makes the next read see the change', () => {
  const dir = tempDir();
  const store = Store.open(dir);
  let seen: (StoredMessage | undefined)[];
  try {
    store.transaction(() => {
      for (let id = 1; id <= 8; id++) store.messages.insert('main', record(id));
    });
    // Read once each, so that a stale row would be the one served.
    for (let id = 1; id <= 8; id++) expect(store.messages.get(id)?.status).toBe(1);
    store.transaction(() => {
      store.messages.setStatus('main', 1, 2);
      store.messages.moveTo('main', 2, OTHER, 5_000);
      store.messages.addAbort('main', 3);
      store.messages.rebucket('main', [4], OTHER);
      store.messages.remove('main', 5);
      store.messages.removeMany('main', [6, 7]);
      store.bulkExpiry.moveAsDeadLetters('main', [8], [100], OTHER, 0xc000, 6_000);
    });
    seen = [1, 2, 3, 4, 5, 6, 7, 8, 100].map((id) => store.messages.get(id));
    expect(seen[0]?.status).toBe(2);
    expect(seen[1]).toMatchObject({ queueId: OTHER, moveCount: 1, lastMoveMs: 5_000 });
    expect(seen[2]?.abortCount).toBe(1);
    expect(seen[3]?.queueId).toBe(OTHER);
    expect(seen.slice(4, 8)).toEqual([undefined, undefined, undefined, undefined]);
    expect(seen[8]).toMatchObject({ queueId: OTHER, classCode: 0xc000, arrivedMs: 6_000, expiresMs: null });
  } finally {
    store.close();
  }
  expect(seen).toEqual(storedAfterReopen(dir, [1, 2, 3, 4, 5, 6, 7, 8, 100]));
});

test('a row inserted by a transaction that rolled back is not given', () => {
  const store = Store.open(tempDir());
  try {
    expect(() =>
      store.transaction(() => {
        store.messages.insert('mem', record(1));
        store.messages.insert('main', record(2));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(store.messages.get(1)).toBeUndefined();
    expect(store.messages.get(2)).toBeUndefined();
    expect(store.readyOrder.rows([{ lookupId: 2, priority: 3, table: 'main' }]).size).toBe(0);
  } finally {
    store.close();
  }
});

test('a row of a purged queue is not given, though it is held', () => {
  const store = Store.open(tempDir());
  try {
    store.transaction(() => store.messages.insert('mem', record(1)));
    store.transaction(() => store.buckets.cut(QUEUE, 'private', 'purged'));
    expect(store.messages.get(1)).toBeUndefined();
    expect(store.readyOrder.rows([{ lookupId: 1, priority: 3, table: 'mem' }]).size).toBe(0);
  } finally {
    store.close();
  }
});

test('the cache stops taking rows at its budget and makes room as rows are forgotten', () => {
  const cache = new RowCache(2_560);
  const row = (body: number): unknown[] => [0, QUEUE, 1, 3, 'id', 0, '', Buffer.alloc(body)];
  cache.put('main', 1, row(500));
  cache.put('main', 2, row(500));
  cache.put('main', 3, row(500)); // past the budget: not taken
  expect(cache.get('main', 3)).toBeUndefined();
  expect(cache.size.rows).toBe(2);
  cache.forget('main', 1);
  cache.put('main', 3, row(500));
  expect(cache.get('main', 3)).toBeDefined();
  cache.forgetRange('main', 0, 10);
  expect(cache.size).toEqual({ rows: 0, bytes: 0 });
  // What get gives is a copy: the caller may rewrite its queue_id.
  cache.put('mem', 4, row(1));
  (cache.get('mem', 4) as unknown[])[1] = 99;
  expect((cache.get('mem', 4) as unknown[])[1]).toBe(QUEUE);
});

test("a purge or a queue's deletion empties the cache of that queue's rows at once, not as the reclaimer deletes them", () => {
  const cache = new RowCache(3_100);
  const row = (bucket: number): unknown[] => [0, bucket, 1, 3, 'id', 0, '', Buffer.alloc(500)];
  cache.put('main', 1, row(QUEUE));
  cache.put('mem', 2, row(QUEUE));
  cache.put('main', 3, row(OTHER));
  cache.put('main', 4, row(OTHER)); // past the budget: not taken
  expect(cache.get('main', 4)).toBeUndefined();
  cache.forgetBucket(QUEUE);
  expect([cache.get('main', 1), cache.get('mem', 2)]).toEqual([undefined, undefined]);
  expect(cache.get('main', 3)).toBeDefined();
  cache.put('main', 4, row(OTHER)); // the room the dead rows took is free again
  expect(cache.get('main', 4)).toBeDefined();
  expect(cache.size.rows).toBe(2);

  // Through the store: its cut of a bucket is what a purge and a queue's deletion do.
  const store = Store.open(tempDir());
  try {
    store.transaction(() => store.messages.insert('mem', record(1)));
    store.transaction(() => store.messages.insert('main', messageRecord(2, OTHER)));
    expect(rowsHeldBy(store)).toBe(2);
    store.transaction(() => store.buckets.cut(QUEUE, 'private', 'purged'));
    expect(rowsHeldBy(store)).toBe(1);
  } finally {
    store.close();
  }
});

test('releasing memory empties the cache; every row, express and recoverable, is then read back as it was', () => {
  const store = Store.open(tempDir());
  try {
    store.transaction(() => {
      store.messages.insert('mem', record(1));
      VARIANTS.slice(1).forEach((m) => store.messages.insert('main', m));
    });
    const ids = [1, ...VARIANTS.slice(1).map((m) => m.lookupId)];
    const keys = ids.map((lookupId, i) => ({
      lookupId,
      priority: 3,
      table: i === 0 ? ('mem' as const) : ('main' as const),
    }));
    const fromCache = ids.map((id) => store.messages.get(id));
    expect(rowsHeldBy(store)).toBe(3);
    store.releaseMemory();
    expect(rowsHeldBy(store)).toBe(0);
    expect(ids.map((id) => store.messages.get(id))).toEqual(fromCache);
    const viaOrder = store.readyOrder.rows(keys);
    expect(ids.map((id) => viaOrder.get(id))).toEqual(fromCache);
    // Rows written after a release are held again.
    store.transaction(() => store.messages.insert('main', record(9)));
    expect(rowsHeldBy(store)).toBe(1);
  } finally {
    store.close();
  }
});
