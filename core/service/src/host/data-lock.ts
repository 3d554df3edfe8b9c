/**
 * One service per data folder, held by the operating system for the life of the process.
 *
 * Why SQLite: Node has no flock(), and a lock file created with O_EXCL plus a "stale pid" cleanup is not
 * exclusive (two starters that both find a stale file can both delete it, one of them deleting the lock the
 * other has just made; a recycled pid looks alive). SQLite's unix VFS takes POSIX advisory locks (fcntl)
 * on its database file; with `locking_mode=EXCLUSIVE` and one exclusive transaction, the connection keeps
 * its EXCLUSIVE lock until it closes. The kernel drops that lock when the process ends in any way — kill -9
 * included — so the folder can be taken at once, and no stale state is ever cleaned up by hand or by code.
 *
 * Two rules keep it exclusive:
 * - The lock database (`service.lock.db`) is never deleted or renamed: a starter that opened the old file
 *   would lock an unlinked inode while a third locks a new file.
 * - Nothing in this process may open and close that file by other means: POSIX drops every lock a process
 *   holds on a file as soon as the process closes *any* descriptor of it. Only SQLite touches it (it keeps
 *   its own descriptors open while a lock is held), and in-process contenders are refused by SQLite itself.
 *
 * `service.lock` is for people and messages: a text file naming the owner's pid, written once the lock is
 * held and removed at a clean stop. It decides nothing; after a crash it names the pid that crashed.
 */
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QkError } from '@qk/model';
import { takeExclusiveLock, type ExclusiveLock } from '@qk/store';

/** Names the owner's pid while a service runs (for people and error messages). */
export const LOCK_FILE = 'service.lock';
/** The database whose OS lock is the data-folder lock. Never deleted. */
export const LOCK_DATABASE = 'service.lock.db';

/** A held data-folder lock; `release()` is idempotent. */
export interface DataLock {
  readonly path: string;
  release(): void;
}

function ownerPid(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    // No service.lock (the owner has not written it yet, or a person removed it): the lock still holds.
    return null;
  }
}

/** A folder that cannot be made: a recursive mkdir says ENOENT when a parent on the way is read-only. */
function cannotCreate(dataDir: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  return new QkError(
    'MESSAGE_STORAGE_FAILED',
    `The data folder ${dataDir} does not exist and cannot be created (${(error as Error).message}).`,
  );
}

function alreadyRunning(dataDir: string): QkError {
  const pid = ownerPid(dataDir);
  const who = pid === null ? 'A Queuekeeper service' : `A Queuekeeper service (pid ${pid})`;
  return new QkError(
    'SERVICE_ALREADY_RUNNING',
    `${who} is already running on ${dataDir}; stop it first (qk service stop --data ${dataDir}).`,
  );
}

/** Creates the lock database with owner-only access before SQLite opens it (its journal inherits the mode). */
function createPrivately(path: string): void {
  try {
    // 'wx' never truncates or reopens an existing file, whose descriptor closing would drop a lock we hold.
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Writes service.lock atomically, so a reader sees the whole pid or the previous file. */
function writeOwner(dataDir: string): void {
  const path = join(dataDir, LOCK_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${process.pid}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/**
 * Takes the lock of `dataDir` for this process, or throws SERVICE_ALREADY_RUNNING when any live process
 * holds it (this one included: two hosts in one process would share one store).
 */
export function acquireDataLock(dataDir: string): DataLock {
  const path = join(dataDir, LOCK_DATABASE);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // Other failures (read-only, no permission, full) are named by the runner's startFailure.
    throw cannotCreate(dataDir, error);
  }
  createPrivately(path);
  let lock: ExclusiveLock | null;
  try {
    lock = takeExclusiveLock(path);
  } catch (error) {
    throw new QkError(
      'SERVICE_NOT_AVAILABLE',
      `Cannot lock the data folder ${dataDir} (${path}): ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  if (!lock) throw alreadyRunning(dataDir);
  try {
    writeOwner(dataDir);
  } catch (error) {
    lock.close();
    throw error;
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // service.lock first: once the database closes, a new owner may write its own.
      if (ownerPid(dataDir) === process.pid) rmSync(join(dataDir, LOCK_FILE), { force: true });
      lock.close();
    },
  };
}
