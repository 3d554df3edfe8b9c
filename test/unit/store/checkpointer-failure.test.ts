/**
 * A checkpoint worker that cannot start, or dies: the store goes on as it did before there was one — SQLite
 * checkpoints inside commits every 1,000 pages — and says so once, with QK_CHECKPOINT_WORKER_FAILED.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as WorkerThreads from 'node:worker_threads';
import { afterEach, expect, test, vi } from 'vitest';
import { Store, STORE_FILE } from '@qk/store';

type Failure = 'cannot start' | 'dies';
const failure: { mode: Failure } = vi.hoisted(() => ({ mode: 'cannot start' }));

vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof WorkerThreads>();
  class FailingWorker extends actual.Worker {
    constructor(_source: string, options: WorkerThreads.WorkerOptions) {
      if (failure.mode === 'cannot start') throw new Error('no threads here');
      super(`throw new Error('the worker broke')`, options);
    }
  }
  return { ...actual, Worker: FailingWorker };
});

const PAGE = 4096;
const VALUE = 'v'.repeat(1500);

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/**
 * Opens a store whose worker fails as `mode` says, writes ~3,000 pages in 40 commits and checks what a store
 * without a worker must do: warn once, keep every row, and checkpoint at SQLite's 1,000 pages — the WAL never
 * gets much past that (with the worker's 2,000-page backstop left in place it would).
 */
async function storeWithoutWorker(mode: Failure): Promise<void> {
  failure.mode = mode;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-checkpointer-failure-'));
  dirs.push(dir);
  const codes: string[] = [];
  const listener = (warning: Error & { code?: string }): void => void codes.push(warning.code ?? warning.message);
  process.on('warning', listener);
  try {
    const store = Store.open(dir);
    store.queues.setMeta('first', 'commit');
    // The worker starts with the first checkpoint due (a quarter of a second after a commit), and fails then.
    await sleep(600);
    const rows = 8_000;
    for (let i = 0; i < rows; i += 200) {
      store.transaction(() => {
        for (let k = i; k < i + 200; k++) store.queues.setMeta(`k${k}`, VALUE);
      });
    }
    expect(fs.statSync(path.join(dir, `${STORE_FILE}-wal`)).size).toBeLessThan(1_500 * (PAGE + 24));
    store.checkpoint();
    store.close();
    const reopened = Store.open(dir);
    let found = 0;
    for (let k = 0; k < rows; k++) if (reopened.queues.getMeta(`k${k}`) === VALUE) found++;
    reopened.close();
    expect(found).toBe(rows);
    // Once: the reopened store was closed before a checkpoint was due, so it never started a worker.
    expect(codes).toEqual(['QK_CHECKPOINT_WORKER_FAILED']);
  } finally {
    process.off('warning', listener);
  }
}

test('a worker that cannot start: the store works on with SQLite checkpointing, and warns', async () => {
  await storeWithoutWorker('cannot start');
});

test('a worker that dies: the store works on with SQLite checkpointing, and warns once', async () => {
  await storeWithoutWorker('dies');
});
