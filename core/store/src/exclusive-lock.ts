/**
 * An operating-system lock held through SQLite for as long as the connection stays open: the service's
 * data-folder lock (core/service/src/host/data-lock.ts says why it is built this way).
 */
import Database from 'better-sqlite3';

/** A held lock; closing it (or the process ending, kill -9 included) releases it. */
export interface ExclusiveLock {
  close(): void;
}

/**
 * Takes the EXCLUSIVE lock of the SQLite database at `path` (created when missing) and keeps it: in
 * exclusive locking mode, a committed exclusive transaction leaves the lock in place until the connection
 * closes. Returns null when another connection, in this process or any other, holds it.
 */
export function takeExclusiveLock(path: string): ExclusiveLock | null {
  // timeout 0: a held lock is an answer, not something to wait for.
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return null;
    throw error;
  }
  return { close: () => db.close() };
}
