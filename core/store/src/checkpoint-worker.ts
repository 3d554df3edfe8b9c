/**
 * What the checkpoint worker thread runs (checkpointer.ts starts it), and the slots of the memory it shares with
 * the main thread.
 *
 * It is source text, evaluated as a CommonJS script, rather than a file beside this one: the service runs from
 * esbuild bundles (dist/cli/chunks, ESM; dist/electron/main.cjs, CJS) and from the TypeScript sources under
 * vitest, and no worker file would be found at one path in all three. The main thread resolves better-sqlite3
 * and passes its path in, so the worker loads the very module the store uses.
 *
 * The worker is synchronous from start to end: it sleeps in Atomics.wait until the main thread asks, so the main
 * thread never needs the worker's event loop — it can stop it, or wait for it, with shared memory alone.
 */

/** Int32 slots of the shared memory. */
export const Slot = {
  /** Who opens the connection: NEW until the worker starts (then OPENED) or the store closes first (STOPPED). */
  phase: 0,
  /** Checkpoints asked for so far: the main thread adds one and wakes the worker. */
  requests: 1,
  /** Who is checkpointing: FREE, the WORKER, or MAIN (the store's own TRUNCATE checkpoint). */
  owner: 2,
  /** 1 once the store is closing: the worker closes its connection and ends. */
  stop: 3,
  /** 1 once the worker's connection is closed, or will never be opened. */
  closed: 4,
} as const;
export const SLOT_COUNT = 5;

export const Phase = { new: 0, opened: 1, stopped: 2 } as const;
export const Owner = { free: 0, worker: 1, main: 2 } as const;

/**
 * One checkpoint's outcome, posted to the main thread; null when it did nothing (another checkpoint held the
 * lock, or the disk was full).
 */
export interface CheckpointReport {
  /** Frames in the WAL when the checkpoint began (SQLite's `log`). */
  log: number;
  /** Frames of it now in the database file (SQLite's `checkpointed`). */
  checkpointed: number;
}

export interface CheckpointWorkerData {
  /** The resolved path of better-sqlite3's entry point. */
  betterSqlite3: string;
  /** The store's database file. */
  dbFile: string;
  /** SharedArrayBuffer of SLOT_COUNT Int32 slots. */
  state: SharedArrayBuffer;
}

export const CHECKPOINT_WORKER_SOURCE = `'use strict';
const { workerData, parentPort } = require('node:worker_threads');
const s = new Int32Array(workerData.state);
const PHASE = ${Slot.phase}, REQUESTS = ${Slot.requests}, OWNER = ${Slot.owner}, STOP = ${Slot.stop}, CLOSED = ${Slot.closed};
// The store may have closed before this thread got here: then it never opens the database at all.
if (Atomics.compareExchange(s, PHASE, ${Phase.new}, ${Phase.opened}) === ${Phase.new}) {
  let db = null;
  try {
    const Database = require(workerData.betterSqlite3);
    // fileMustExist: this connection never creates the store. timeout 0: a PASSIVE checkpoint never waits for a
    // lock, and nothing else this connection does should.
    db = new Database(workerData.dbFile, { fileMustExist: true, timeout: 0 });
    // The checkpoint's own syncs come from this connection's setting: under NORMAL it syncs the WAL before it
    // writes any page into the database file, and the database file once it has copied the whole WAL.
    db.pragma('synchronous = NORMAL');
    // A checkpoint copies frames from the WAL to the database file without the page cache: keep it small, since
    // the store's own connection already holds the pages the service reads.
    db.pragma('cache_size = -256');
    let seen = 0;
    for (;;) {
      Atomics.wait(s, REQUESTS, seen);
      if (Atomics.load(s, STOP) === 1) break;
      seen = Atomics.load(s, REQUESTS);
      // The store's TRUNCATE checkpoint holds the lock: it does this request's work itself.
      if (Atomics.compareExchange(s, OWNER, ${Owner.free}, ${Owner.worker}) !== ${Owner.free}) {
        parentPort.postMessage(null);
        continue;
      }
      let report = null;
      try {
        const [row] = db.pragma('wal_checkpoint(PASSIVE)');
        report = { log: row.log, checkpointed: row.checkpointed };
      } catch (error) {
        // Another checkpoint (SQLite's own, from the store's connection) holds the checkpoint lock, or the disk
        // is full (the store's own commits meet that too, and say so): try again next time.
        const code = String((error && error.code) || '');
        if (!/^SQLITE_(BUSY|LOCKED|FULL)/.test(code)) throw error;
      } finally {
        Atomics.store(s, OWNER, ${Owner.free});
        Atomics.notify(s, OWNER);
      }
      parentPort.postMessage(report);
    }
  } finally {
    try {
      if (db) db.close();
    } finally {
      Atomics.store(s, CLOSED, 1);
      Atomics.notify(s, CLOSED);
    }
  }
}
`;
