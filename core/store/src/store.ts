/** The store of one data folder: the only place SQL is written (DESIGN: only core/store writes SQL). */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase, type Db } from './open-database.js';
import { MessageStore } from './message-store.js';
import { ReadyOrder } from './ready-order.js';
import { QueueStore } from './queue-store.js';
import { NetworkConfigStore } from './network-config-store.js';
import { NetworkDeliveryStore } from './network-delivery-store.js';
import { SpaceReserve } from './space-reserve.js';
import { WalSync } from './wal-sync.js';
import { Buckets } from './buckets.js';
import { BulkExpiry } from './bulk-expiry.js';
import { Checkpointer } from './checkpointer.js';
import { RowCache } from './row-cache.js';

/** One open store. Not thread-safe: one queue manager owns it. */
export class Store {
  readonly messages: MessageStore;
  /** Which bucket each queue stores its messages under; purged buckets still to delete (logical purge). */
  readonly buckets: Buckets;
  /** Expiry of the messages that owe nothing per message, in sets. */
  readonly bulkExpiry: BulkExpiry;
  /** Receive order walked from a position (the engine's receive cursors). */
  readonly readyOrder: ReadyOrder;
  readonly queues: QueueStore;
  readonly network: NetworkConfigStore;
  readonly delivery: NetworkDeliveryStore;

  /** One transaction function, made once: better-sqlite3 builds a wrapper per db.transaction() call. */
  private readonly runInTransaction: (work: () => unknown) => unknown;
  private readonly wal: WalSync;
  private readonly checkpointer: Checkpointer;
  private readonly countChanges: Database.Statement;
  private readonly rows: RowCache;

  private constructor(
    private readonly db: Db,
    private readonly reserve: SpaceReserve,
  ) {
    // SQLite names the log after the database file, resolved as it was when it opened it (now).
    this.wal = new WalSync(path.resolve(`${db.name}-wal`));
    const rows = new RowCache();
    this.rows = rows;
    this.buckets = new Buckets(db, rows);
    this.messages = new MessageStore(db, this.buckets, rows);
    this.readyOrder = new ReadyOrder(db, this.buckets, rows);
    this.bulkExpiry = new BulkExpiry(db, this.buckets, rows);
    this.queues = new QueueStore(db);
    this.network = new NetworkConfigStore(db);
    this.delivery = new NetworkDeliveryStore(db, this.buckets);
    this.runInTransaction = db.transaction((work: () => unknown) => work());
    this.countChanges = db.prepare('SELECT total_changes()').pluck();
    this.checkpointer = Checkpointer.start(db);
  }

  /** Opens the store of a data folder; throws STORE_CORRUPT or STORE_VERSION_TOO_NEW rather than rewrite it. */
  static open(dataDir: string): Store {
    const db = openDatabase(dataDir);
    try {
      return new Store(db, SpaceReserve.ensure(dataDir));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Runs `work` in one transaction; nested calls become savepoints, so one failed part rolls back alone. A
   * commit is visible at once and survives the process being killed, but it is on disk only after the next
   * `sync` or `syncNow` (open-database.ts: synchronous = NORMAL).
   */
  transaction<T>(work: () => T): T {
    try {
      return this.runInTransaction(work) as T;
    } catch (error) {
      // Rows it inserted were rolled back: the row cache forgets everything rather than hold them as phantoms.
      this.rows.clear();
      throw error;
    }
  }

  /**
   * Puts every transaction committed so far on disk, off the event loop; `done` is called once it is. One
   * sync at a time (see wal-sync.ts).
   */
  sync(done: (error: Error | null) => void): void {
    this.wal.sync(done);
  }

  /**
   * True when the next commit should wait a moment (while the checkpoint worker copies the last of a long WAL,
   * so that the commit after starts the WAL over): `resume` is called when it may go. The event loop goes on.
   */
  deferCommit(resume: () => void): boolean {
    return this.checkpointer.deferCommit(resume);
  }

  /** Puts every transaction committed so far on disk before returning. */
  syncNow(): void {
    this.wal.syncNow();
  }

  /**
   * Rows this connection has inserted, updated or deleted since it opened (SQLite's total_changes()): the same
   * before and after a transaction means it wrote nothing, so there is nothing to put on disk.
   */
  changes(): number {
    return this.countChanges.get() as number;
  }

  /** False when the data folder's disk had no room for the space reserve at start (see space-reserve.ts). */
  get hasSpaceReserve(): boolean {
    return this.reserve.isHeld;
  }

  /**
   * Gives the reserved disk space back after a commit failed for lack of room, so that it can be tried again
   * (a purge or a receive frees space). False when it was given back already.
   */
  releaseSpaceReserve(): boolean {
    return this.reserve.release();
  }

  /**
   * Copies what the WAL holds into the main file and empties it; called on a clean stop so the folder is one
   * file again. Waits for the checkpoint worker's checkpoint in flight, if any (see checkpointer.ts).
   */
  checkpoint(): void {
    this.checkpointer.exclusive(() => this.db.pragma('wal_checkpoint(TRUNCATE)'));
  }

  /**
   * Lets go of memory held only to go faster: the rows kept for receives and SQLite's unused cached pages. A
   * quiet service calls it before compacting its heap: a backlog nobody is reading should not keep ~45 MB of
   * rows for as long as it rests; the receive that comes reads them back.
   */
  releaseMemory(): void {
    this.rows.clear();
    this.db.pragma('shrink_memory');
  }

  /** Closes the store; the checkpoint worker's connection is closed first, after its checkpoint in flight. */
  close(): void {
    this.checkpointer.close();
    this.wal.close();
    if (this.db.open) this.db.close();
  }
}
