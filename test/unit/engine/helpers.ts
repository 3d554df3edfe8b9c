/** A queue manager on a temporary folder with a fake clock, fresh per test. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { openQueueManager, type QueueManagerApi } from '@qk/engine';
import { FakeClock } from './fake-clock.js';

export interface Harness {
  qm: QueueManagerApi;
  clock: FakeClock;
  dir: string;
  reopen(): Promise<void>;
  dispose(): Promise<void>;
}

export function openHarness(name = 'ALPHA'): Harness {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-engine-'));
  const clock = new FakeClock();
  const h: Harness = {
    qm: openQueueManager({ dataDir: dir, name, clock }),
    clock,
    dir,
    async reopen() {
      await h.qm.close();
      h.qm = openQueueManager({ dataDir: dir, name, clock });
    },
    async dispose() {
      await h.qm.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

/** Lets group commits (setImmediate) and timers run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Lets background work (expiry passes, a purge's reclaimer) run turn by turn until `check` holds, at most `maxTurns`. */
export async function settleUntil(check: () => boolean, maxTurns: number): Promise<void> {
  for (let i = 0; i < maxTurns && !check(); i++) await settle();
  expect(check()).toBe(true);
}
