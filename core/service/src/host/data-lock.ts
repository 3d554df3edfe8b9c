/** One service per data folder: an exclusive lock file holding the owner's pid. */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { QkError } from '@qk/model';

export const LOCK_FILE = 'service.lock';

/** A held data-folder lock; `release()` is idempotent. */
export interface DataLock {
  readonly path: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still a live owner.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isFinite(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock of `dataDir` for this process. A live owner (this process included: two hosts in one
 * process would share one store) refuses with SERVICE_ALREADY_RUNNING; a dead owner's lock is taken over.
 */
export function acquireDataLock(dataDir: string): DataLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          if (readOwner(path) === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(path);
      if (owner !== null && isAlive(owner)) {
        throw new QkError(
          'SERVICE_ALREADY_RUNNING',
          `A Queuekeeper service (pid ${owner}) is already running on ${dataDir}; stop it first (qk service stop --data ${dataDir}).`,
        );
      }
      // Stale lock of a process that died without cleaning up (or a half-written file): take it over.
      rmSync(path, { force: true });
    }
  }
  throw new QkError('SERVICE_ALREADY_RUNNING', `Could not take the lock ${path}: another process keeps creating it.`);
}
