/**
 * The store's space reserve: real blocks set aside at start, given back when a commit fails on a full disk so
 * that a purge (which needs WAL room too) can make room.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openQueueManager, type QueueManagerApi } from '@qk/engine';
import { QkError } from '@qk/model';
import { SPACE_RESERVE_FILE } from '@qk/store';
import { SpaceReserve } from '../../../core/store/src/space-reserve.js';
import { mountUnavailable, SmallDisk } from '../../drills/support/storage.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-reserve-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('SpaceReserve', () => {
  test('holds real blocks (not a sparse file) readable by its owner only, and gives them back once', () => {
    const dir = tempDir();
    const reserve = SpaceReserve.ensure(dir, 2 * 1024 * 1024);
    const file = path.join(dir, SPACE_RESERVE_FILE);
    const stat = fs.statSync(file);
    expect(reserve.isHeld).toBe(true);
    expect(stat.size).toBe(2 * 1024 * 1024);
    expect(stat.blocks * 512).toBeGreaterThanOrEqual(stat.size);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(reserve.release()).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
    expect(reserve.release()).toBe(false);
  });

  test('a reserve of the wrong size (a crash while writing it) is written again', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, SPACE_RESERVE_FILE), 'partial');
    SpaceReserve.ensure(dir, 1024 * 1024);
    expect(fs.statSync(path.join(dir, SPACE_RESERVE_FILE)).size).toBe(1024 * 1024);
  });
});

describe.skipIf(mountUnavailable !== null)('a full disk (tmpfs; needs root)', () => {
  test('recoverable sends are refused, and a purge still makes room: the reserve is given back for it', async () => {
    const disk = new SmallDisk(24);
    cleanups.push(() => disk.unmount());
    const dataDir = path.join(disk.path, 'data');
    let qm: QueueManagerApi | undefined = openQueueManager({ dataDir, name: 'ALPHA' });
    cleanups.push(async () => qm?.close());
    qm.createQueue({ path: '.\\private$\\fill' });
    const body = 'x'.repeat(100_000);

    let refusal: unknown;
    for (let i = 0; i < 1_000 && refusal === undefined; i++) {
      try {
        await qm.send('.\\private$\\fill', { body, delivery: 'recoverable' });
      } catch (error) {
        refusal = error;
      }
    }
    expect(refusal).toBeInstanceOf(QkError);
    // Sends never eat into the reserve: it is kept for the deletions that make room.
    expect(fs.existsSync(path.join(dataDir, SPACE_RESERVE_FILE))).toBe(true);
    const stored = qm.showQueue('.\\private$\\fill').messageCount;
    expect(stored).toBeGreaterThan(10);

    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }): void => void warnings.push(warning.code ?? '');
    process.on('warning', onWarning);
    cleanups.push(() => void process.off('warning', onWarning));

    expect(await qm.purgeQueue('.\\private$\\fill')).toBe(stored);
    expect(qm.showQueue('.\\private$\\fill').messageCount).toBe(0);
    expect(fs.existsSync(path.join(dataDir, SPACE_RESERVE_FILE))).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toContain('QK_SPACE_RESERVE_RELEASED');

    // With room again, the next start sets the reserve aside anew.
    await qm.close();
    qm = openQueueManager({ dataDir, name: 'ALPHA' });
    expect(fs.statSync(path.join(dataDir, SPACE_RESERVE_FILE)).size).toBeGreaterThan(0);
  });
});
