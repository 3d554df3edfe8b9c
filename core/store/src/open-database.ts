/** Opens the SQLite store: pragmas, version checks, migrations, and the in-memory table for express messages. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { QkError } from '@qk/model';
import {
  LATEST_SCHEMA_VERSION,
  messagesTableChangesSql,
  messagesTableSql,
  migrations,
  transitTableSql,
  transitPreviousSql,
} from './migrations.js';

export const STORE_FILE = 'queuekeeper.db';
/** 'QKP1': marks a SQLite file as a Queuekeeper store so a foreign database is never rewritten. */
const APPLICATION_ID = 0x514b5031;

export type Db = Database.Database;

function corrupt(file: string, why: string): QkError {
  return new QkError('STORE_CORRUPT', `The store ${file} cannot be used: ${why}. It was left untouched.`);
}

/**
 * A SQLite failure met while a store is opened and loaded, as an error an administrator can act on: a damaged
 * file (STORE_CORRUPT), a full disk or a folder that cannot be written (MESSAGE_STORAGE_FAILED). Anything else
 * is returned as it is.
 */
export function storeOpenError(error: unknown, dataDir: string): unknown {
  if (error instanceof QkError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const file = path.join(dataDir, STORE_FILE);
  const why = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return corrupt(file, why);
  if (code.startsWith('SQLITE_FULL')) {
    return new QkError(
      'MESSAGE_STORAGE_FAILED',
      `The disk holding ${file} is full (${why}): free space there and start again. Nothing stored was changed.`,
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR')) {
    return new QkError(
      'MESSAGE_STORAGE_FAILED',
      `The store ${file} cannot be written (${why}): check that its folder is writable and its disk healthy.`,
    );
  }
  return error;
}

/** Opens (creating when missing) the store of a data folder, ready for use. */
export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, STORE_FILE);
  createPrivately(file);
  let db: Db;
  try {
    db = new Database(file);
    // Reading the header proves the file is a database before anything is written to it.
    db.pragma('schema_version', { simple: true });
  } catch (error) {
    throw corrupt(file, error instanceof Error ? error.message : String(error));
  }
  try {
    checkIdentity(db, file);
    db.pragma('journal_mode = WAL');
    // Recoverable messages are durable before a send returns (DESIGN "Storage and durability"), but the disk
    // is waited for off the event loop: a commit writes the WAL without syncing it, and the engine answers only
    // after Store.sync has synced it (wal-sync.ts). NORMAL still syncs the WAL before each checkpoint and the
    // database after it, so a checkpoint never overwrites what is not yet on disk.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // 8 MB of page cache: the operating system's cache holds the file's pages anyway, so a miss costs a read
    // (pages of a million messages still ≤ 40 ms), while each MB given to SQLite stays resident for good once
    // a burst has filled it — freed pages fragment the process heap — which took the service over 200 MB
    // holding a million messages (bench/README.md, "Memory at rest").
    db.pragma('cache_size = -8192');
    db.pragma('temp_store = MEMORY');
    migrate(db);
    db.exec(`ATTACH DATABASE ':memory:' AS mem`);
    db.exec(messagesTableSql('mem'));
    db.exec(messagesTableChangesSql('mem'));
    db.exec(transitTableSql('mem'));
    db.exec(transitPreviousSql('mem'));
    return db;
  } catch (error) {
    db.close();
    const known = storeOpenError(error, dataDir);
    if (known instanceof QkError) throw known;
    throw corrupt(file, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Creates a missing store file owner-only before SQLite opens it: message bodies are in it, and SQLite gives
 * its -wal, -shm and -journal files the mode of the database file. 'wx' never opens an existing file, whose
 * descriptor closing would drop the POSIX locks SQLite holds on it in this process.
 */
function createPrivately(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch {
    // EEXIST is the usual case. Anything else (a read-only folder) is what SQLite's own open meets next and
    // reports as the store being unusable, with its reason.
  }
}

function checkIdentity(db: Db, file: string): void {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number }).n;
  if (appId === 0 && version === 0 && tables === 0) return; // a new, empty file
  if (appId !== APPLICATION_ID) throw corrupt(file, 'it is not a Queuekeeper store (foreign SQLite database)');
  if (version > LATEST_SCHEMA_VERSION) {
    throw new QkError(
      'STORE_VERSION_TOO_NEW',
      `The store ${file} is at schema version ${version}, newer than this Queuekeeper understands (${LATEST_SCHEMA_VERSION}). Use a newer Queuekeeper; the store was left untouched.`,
    );
  }
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const migration of pending) {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
  })();
}
