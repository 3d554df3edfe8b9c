/**
 * The store's checkpoint worker (core/store/src/checkpointer.ts): the WAL is checkpointed on a thread of its own
 * while the store's connection goes on committing, everything committed survives closing and reopening, and a
 * close that comes while the worker is checkpointing waits for it and leaves no other connection open.
 *
 * What is watched is the WAL file itself: its header's checkpoint sequence number goes up each time SQLite
 * starts writing the WAL from its beginning again, which it does only once a checkpoint has copied all of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { Store, STORE_FILE } from '@qk/store';
import { BACKSTOP_PAGES, RESTART_PAGES } from '../../../core/store/src/checkpointer.js';
import { tempDirs } from './fixtures.js';

const PAGE = 4096;
/** A WAL frame: its 24-byte header and the page. */
const FRAME = PAGE + 24;
const VALUE = 'v'.repeat(1500);

const tempDir = tempDirs('qk-checkpointer-');

const walFile = (dir: string): string => path.join(dir, `${STORE_FILE}-wal`);

/** The checkpoint sequence number in the WAL's header (bytes 12–15, big-endian). */
function walRestarts(dir: string): number {
  const fd = fs.openSync(walFile(dir), 'r');
  try {
    const header = Buffer.alloc(32);
    fs.readSync(fd, header, 0, 32, 0);
    return header.readUInt32BE(12);
  } finally {
    fs.closeSync(fd);
  }
}

/** Frames the WAL file has room for: it is reused from its start after a restart, so this is its high-water mark. */
const walFrames = (dir: string): number => Math.floor(Math.max(0, fs.statSync(walFile(dir)).size - 32) / FRAME);

/** Rows k<from>…k<from+count-1> in one commit. */
function commitRows(store: Store, from: number, count: number): void {
  store.transaction(() => {
    for (let i = from; i < from + count; i++) store.queues.setMeta(`k${i}`, VALUE);
  });
}

/** Reopens the folder and counts the rows k0…k<count-1> that are there. */
function rowsAfterReopen(dir: string, count: number): number {
  const store = Store.open(dir);
  try {
    let found = 0;
    for (let i = 0; i < count; i++) if (store.queues.getMeta(`k${i}`) === VALUE) found++;
    return found;
  } finally {
    store.close();
  }
}

function collectWarnings(): { codes: string[]; stop(): void } {
  const codes: string[] = [];
  const listener = (warning: Error & { code?: string }): void => void codes.push(warning.code ?? warning.message);
  process.on('warning', listener);
  return { codes, stop: () => void process.off('warning', listener) };
}

test('the worker checkpoints while the store keeps committing; all of it is there after close and reopen', async () => {
  const dir = tempDir();
  const warnings = collectWarnings();
  const store = Store.open(dir);
  let next = 0;
  let largest = 0;
  try {
    commitRows(store, next, 5);
    next += 5;
    const first = walRestarts(dir);
    // A small commit every 40 ms: between two of them the worker's checkpoint (asked for every 250 ms) can copy
    // the whole WAL, and the commit after it starts the WAL over.
    const deadline = Date.now() + 10_000;
    while (walRestarts(dir) < first + 2 && Date.now() < deadline) {
      commitRows(store, next, 5);
      next += 5;
      largest = Math.max(largest, walFrames(dir));
      await sleep(40);
    }
    expect(walRestarts(dir)).toBeGreaterThanOrEqual(first + 2);
    // Under SQLite's own 1,000 pages: no automatic checkpoint of the store's connection did this.
    expect(largest).toBeLessThan(1_000);
    commitRows(store, next, 5);
    next += 5;
  } finally {
    store.close();
    warnings.stop();
  }
  // The store's connection was the last one open (the worker's closed first), so it folded and removed the WAL.
  expect(fs.existsSync(walFile(dir))).toBe(false);
  expect(rowsAfterReopen(dir, next)).toBe(next);
  expect(warnings.codes).toEqual([]);
});

test('under commits without a pause, commits wait a moment (deferCommit) so that the WAL starts over before the backstop', async () => {
  const dir = tempDir();
  const store = Store.open(dir);
  let next = 0;
  let deferred = 0;
  let largest = 0;
  try {
    commitRows(store, next, 20);
    next += 20;
    const first = walRestarts(dir);
    // A WAL past RESTART_PAGES before the worker is first asked (so that its first checkpoint, which takes more
    // than a millisecond, reports it), then a commit every turn of the event loop, each after 2 ms of other work,
    // as a busy service makes them: no moment in which a checkpoint could copy all of the WAL by itself.
    while (walFrames(dir) < RESTART_PAGES) commitRows(store, (next += 200) - 200, 200);
    const deadline = Date.now() + 20_000;
    while (walRestarts(dir) === first && Date.now() < deadline) {
      await new Promise<void>((resume) => {
        if (store.deferCommit(resume)) deferred++;
        else resume();
      });
      commitRows(store, next++, 1);
      largest = Math.max(largest, walFrames(dir));
      for (const until = performance.now() + 2; performance.now() < until;);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(deferred).toBeGreaterThan(0);
    expect(walRestarts(dir)).toBeGreaterThan(first);
    expect(largest).toBeLessThan(BACKSTOP_PAGES);
  } finally {
    store.close();
  }
  expect(rowsAfterReopen(dir, next)).toBe(next);
}, 60_000);

/** Commits rows of 200 until the WAL holds `frames` frames; returns the next row number. */
function fillWal(store: Store, dir: string, frames: number): number {
  let next = 0;
  while (!fs.existsSync(walFile(dir)) || walFrames(dir) < frames) {
    commitRows(store, next, 200);
    next += 200;
  }
  return next;
}

/** Waits until the worker's checkpoint is copying: pages copied into the database file make it grow. */
async function checkpointCopying(dbFile: string, before: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (fs.statSync(dbFile).size === before && Date.now() < deadline) await sleep(1);
  expect(fs.statSync(dbFile).size).toBeGreaterThan(before);
}

test("a close that comes during the worker's checkpoint waits for it, and the store reopens whole", async () => {
  const dir = tempDir();
  const warnings = collectWarnings();
  const store = Store.open(dir);
  const dbFile = path.join(dir, STORE_FILE);
  // Most of the backstop's worth in a few commits: a checkpoint long enough (copy, then two syncs) to be caught
  // in flight, and no automatic checkpoint of the store's connection before it.
  const rows = fillWal(store, dir, BACKSTOP_PAGES * 0.8);
  const before = fs.statSync(dbFile).size;
  try {
    await checkpointCopying(dbFile, before);
  } finally {
    store.close();
    warnings.stop();
  }
  // The store's connection was the last one open, so it folded and removed the WAL.
  expect(fs.existsSync(walFile(dir))).toBe(false);
  expect(rowsAfterReopen(dir, rows)).toBe(rows);
  const db = new Database(dbFile, { readonly: true });
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  db.close();
  expect(warnings.codes).toEqual([]);
}, 20_000);

test("the store's own TRUNCATE checkpoint waits for the worker's and empties the WAL", async () => {
  const dir = tempDir();
  const store = Store.open(dir);
  let rows = fillWal(store, dir, BACKSTOP_PAGES * 0.8);
  try {
    const dbFile = path.join(dir, STORE_FILE);
    await checkpointCopying(dbFile, fs.statSync(dbFile).size);
    store.checkpoint();
    expect(fs.statSync(walFile(dir)).size).toBe(0);
    commitRows(store, rows, 10);
    rows += 10;
  } finally {
    store.close();
  }
  expect(rowsAfterReopen(dir, rows)).toBe(rows);
}, 20_000);

test('a store opened and closed before a checkpoint is due closes cleanly, as one file', () => {
  const dir = tempDir();
  const warnings = collectWarnings();
  for (let i = 0; i < 5; i++) Store.open(dir).close();
  expect(fs.existsSync(walFile(dir))).toBe(false);
  warnings.stop();
  expect(warnings.codes).toEqual([]);
});
