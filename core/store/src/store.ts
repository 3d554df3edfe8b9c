/** The store of one data folder: the only place SQL is written (DESIGN: only core/store writes SQL). */
import { openDatabase, type Db } from './open-database.js';
import { MessageStore } from './message-store.js';
import { QueueStore } from './queue-store.js';
import { NetworkConfigStore } from './network-config-store.js';
import { NetworkDeliveryStore } from './network-delivery-store.js';

/** One open store. Not thread-safe: one queue manager owns it. */
export class Store {
  readonly messages: MessageStore;
  readonly queues: QueueStore;
  readonly network: NetworkConfigStore;
  readonly delivery: NetworkDeliveryStore;

  /** One transaction function, made once: better-sqlite3 builds a wrapper per db.transaction() call. */
  private readonly runInTransaction: (work: () => unknown) => unknown;

  private constructor(private readonly db: Db) {
    this.messages = new MessageStore(db);
    this.queues = new QueueStore(db);
    this.network = new NetworkConfigStore(db);
    this.delivery = new NetworkDeliveryStore(db);
    this.runInTransaction = db.transaction((work: () => unknown) => work());
  }

  /** Opens the store of a data folder; throws STORE_CORRUPT or STORE_VERSION_TOO_NEW rather than rewrite it. */
  static open(dataDir: string): Store {
    return new Store(openDatabase(dataDir));
  }

  /** Runs `work` in one transaction; nested calls become savepoints, so one failed part rolls back alone. */
  transaction<T>(work: () => T): T {
    return this.runInTransaction(work) as T;
  }

  /** Copies what the WAL holds into the main file; called on a clean stop so the folder is one file again. */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
