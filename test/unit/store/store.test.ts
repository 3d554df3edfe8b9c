import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, vi } from 'vitest';
import { LATEST_SCHEMA_VERSION, Store, STORE_FILE } from '@qk/store';
import { tempDirs } from './fixtures.js';

const tempDir = tempDirs('qk-store-');

test('a new store is created at the latest schema version in WAL mode', () => {
  const dir = tempDir();
  Store.open(dir).close();
  const db = new Database(path.join(dir, STORE_FILE));
  expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  db.close();
});

test('commits do not wait for the disk (synchronous NORMAL): Store.sync puts the WAL itself on disk, off the event loop', async () => {
  const dir = tempDir();
  const store = Store.open(dir);
  const synced: number[] = [];
  const fdatasync = vi.spyOn(fs, 'fdatasync').mockImplementation((fd: number, done: (e: Error | null) => void) => {
    synced.push(fs.fstatSync(fd).ino);
    done(null);
  });
  try {
    store.transaction(() => store.queues.setMeta('k', 'v'));
    const error = await new Promise<Error | null>((resolve) => store.sync(resolve));
    expect(error).toBeNull();
    expect(synced).toEqual([fs.statSync(path.join(dir, `${STORE_FILE}-wal`)).ino]);
  } finally {
    fdatasync.mockRestore();
  }
  // One sync at a time: the unit runner queues the next.
  store.sync(() => undefined);
  expect(() => store.sync(() => undefined)).toThrow(/already in flight/);
  store.syncNow();
  store.close();
  expect(() => store.syncNow()).toThrow(/closed/);
  await expect(new Promise((resolve) => store.sync(resolve))).resolves.toBeInstanceOf(Error);
  const db = new Database(path.join(dir, STORE_FILE));
  expect(db.prepare(`SELECT value FROM meta WHERE key = 'k'`).pluck().get()).toBe('v');
  db.close();
});

test('a store from a newer version is refused and left untouched', () => {
  const dir = tempDir();
  Store.open(dir).close();
  const file = path.join(dir, STORE_FILE);
  const db = new Database(file);
  db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
  db.close();
  const before = fs.readFileSync(file);
  expect(() => Store.open(dir)).toThrow(expect.objectContaining({ code: 'STORE_VERSION_TOO_NEW' }));
  expect(fs.readFileSync(file).equals(before)).toBe(true);
});

test('a file that is not a SQLite database is refused as corrupt', () => {
  const dir = tempDir();
  fs.writeFileSync(
    path.join(dir, STORE_FILE),
    'this is not a database, just some text that is long enough to matter'.repeat(100),
  );
  expect(() => Store.open(dir)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
});

test('a foreign SQLite database is refused, not rewritten', () => {
  const dir = tempDir();
  const db = new Database(path.join(dir, STORE_FILE));
  db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY)');
  db.close();
  expect(() => Store.open(dir)).toThrow(expect.objectContaining({ code: 'STORE_CORRUPT' }));
});

test('a transaction inside a transaction is a savepoint: when it throws only its own writes roll back', () => {
  const store = Store.open(tempDir());
  try {
    store.transaction(() => {
      store.queues.setMeta('outer', 'kept');
      expect(() =>
        store.transaction(() => {
          store.queues.setMeta('inner', 'written');
          throw new Error('refused');
        }),
      ).toThrow('refused');
      store.queues.setMeta('after', 'kept');
    });
    expect(['outer', 'inner', 'after'].map((key) => store.queues.getMeta(key))).toEqual(['kept', undefined, 'kept']);
  } finally {
    store.close();
  }
});

test('a transaction that throws leaves nothing of its writes, savepoints committed inside it included', () => {
  const store = Store.open(tempDir());
  try {
    expect(() =>
      store.transaction(() => {
        store.transaction(() => store.queues.setMeta('inner', 'written'));
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(store.queues.getMeta('inner')).toBeUndefined();
  } finally {
    store.close();
  }
});

test('a queue ID is never given again: not after its queue is deleted, not after a restart', () => {
  const dir = tempDir();
  const newQueue = (name: string) => ({
    kind: 'private' as const,
    name,
    nameKey: name,
    parentId: null,
    number: null,
    guid: null,
    transactional: false,
    journal: false,
    quotaKB: null,
    journalQuotaKB: null,
    label: '',
    retention: false,
    createdMs: 0,
    modifiedMs: 0,
  });
  let store = Store.open(dir);
  const first = store.transaction(() => store.queues.insert(newQueue('a')));
  store.transaction(() => store.queues.remove(first.id));
  const second = store.transaction(() => store.queues.insert(newQueue('b')));
  expect(second.id).toBeGreaterThan(first.id);
  store.transaction(() => store.queues.remove(second.id));
  store.close();
  store = Store.open(dir);
  const third = store.transaction(() => store.queues.insert(newQueue('c')));
  expect(third.id).toBeGreaterThan(second.id);
  store.close();
});
