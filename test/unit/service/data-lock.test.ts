import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataLock, LOCK_DATABASE, LOCK_FILE } from '../../../core/service/src/host/data-lock.js';
import { tempDataDir } from './helpers.js';

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('data-folder lock', () => {
  const folders: (() => void)[] = [];
  afterEach(() => folders.splice(0).forEach((cleanup) => cleanup()));

  function folder(): string {
    const { dir, cleanup } = tempDataDir();
    folders.push(cleanup);
    return dir;
  }

  it('names its pid in service.lock and refuses a second owner in this process, naming the pid', () => {
    const dir = folder();
    const lock = acquireDataLock(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    expect(() => acquireDataLock(dir)).toThrow(
      expect.objectContaining({
        code: 'SERVICE_ALREADY_RUNNING',
        message: expect.stringContaining(`pid ${process.pid}`),
      }),
    );
    lock.release();
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    acquireDataLock(dir).release();
  });

  it('keeps its lock database (deleting it would let two owners lock two files) with owner-only access', () => {
    const dir = folder();
    acquireDataLock(dir).release();
    expect(existsSync(join(dir, LOCK_DATABASE))).toBe(true);
    expect(statSync(join(dir, LOCK_DATABASE)).mode & 0o777).toBe(0o600);
    acquireDataLock(dir).release();
  });

  it('is not fooled by a service.lock naming a live process: the OS lock decides, service.lock only informs', () => {
    const dir = folder();
    // pid 1 is alive; an old lock file that names it (a recycled pid after a crash) must not block a start.
    writeFileSync(join(dir, LOCK_FILE), '1\n');
    const lock = acquireDataLock(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it("takes over after a dead process's crash, whatever its service.lock says", () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
    const lock = acquireDataLock(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('refuses without a pid when service.lock is missing (the owner has not written it yet)', () => {
    const dir = folder();
    const lock = acquireDataLock(dir);
    writeFileSync(join(dir, LOCK_FILE), 'garbage');
    expect(() => acquireDataLock(dir)).toThrow(
      expect.objectContaining({ code: 'SERVICE_ALREADY_RUNNING', message: expect.not.stringContaining('pid') }),
    );
    lock.release();
  });

  it('creates a missing data folder', () => {
    const nested = join(folder(), 'a', 'b');
    acquireDataLock(nested).release();
    expect(existsSync(nested)).toBe(true);
  });
});
