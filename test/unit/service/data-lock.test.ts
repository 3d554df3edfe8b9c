import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataLock, LOCK_FILE } from '../../../core/service/src/host/data-lock.js';
import { tempDataDir } from './helpers.js';

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('data-folder lock', () => {
  const folders: (() => void)[] = [];
  afterEach(() => folders.splice(0).forEach((cleanup) => cleanup()));

  it('holds the pid and refuses a second owner while held, naming the pid', () => {
    const { dir, cleanup } = tempDataDir();
    folders.push(cleanup);
    const lock = acquireDataLock(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    expect(() => acquireDataLock(dir)).toThrow(
      expect.objectContaining({
        code: 'SERVICE_ALREADY_RUNNING',
        message: expect.stringContaining(`pid ${process.pid}`),
      }),
    );
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    acquireDataLock(dir).release();
  });

  it('takes over the stale lock of a dead process', () => {
    const { dir, cleanup } = tempDataDir();
    folders.push(cleanup);
    const pid = deadPid();
    writeFileSync(join(dir, LOCK_FILE), `${pid}\n`);
    const lock = acquireDataLock(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('creates a missing data folder', () => {
    const { dir, cleanup } = tempDataDir();
    folders.push(cleanup);
    const nested = join(dir, 'a', 'b');
    acquireDataLock(nested).release();
    expect(existsSync(nested)).toBe(true);
  });
});
