/**
 * The data-folder lock race (issue 7, item 4): several processes start at the same moment on one folder,
 * round after round, taking and releasing the lock as fast as they can; one of each round dies holding it.
 * The shared log of who held the lock when must never show two holders at once, and a folder whose owner
 * was killed (kill -9) must be free at once. The old lock file with a stale-pid cleanup failed this: two
 * starters could both delete a fresh lock they took for stale, and both held the folder.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { acquireDataLock } from '../../../core/service/src/host/data-lock.js';
import { repoRoot } from '../../helpers/service-harness.js';
import { reportFigures } from '../support/figures.js';
import { sized } from '../support/size.js';

const PROCESSES = 8;
const ROUNDS = sized(4, 50);
const ATTEMPTS_PER_PROCESS = 4;

// The worker imports TypeScript sources; bundled next to node_modules so its packages resolve.
const workerFile = join(repoRoot, 'artifacts', 'drills', 'lock-race-worker.mjs');
const folders: string[] = [];

beforeAll(async () => {
  mkdirSync(join(repoRoot, 'artifacts', 'drills'), { recursive: true });
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [join(repoRoot, 'test', 'drills', 'security', 'lock-race-worker.ts')],
    outfile: workerFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(repoRoot, 'tsconfig.base.json'),
    logLevel: 'error',
  });
});
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'qk-lock-race-'));
  folders.push(dir);
  return dir;
}

interface WorkerOutcome {
  held: number;
  refused: number;
  crashed: boolean;
}

function runWorker(args: string[]): Promise<{ code: number | null; outcome: WorkerOutcome | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerFile, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      let outcome: WorkerOutcome | null;
      try {
        outcome = JSON.parse(line) as WorkerOutcome;
      } catch {
        // No outcome line: the worker failed, which the test reports with its stderr.
        outcome = null;
      }
      resolve({ code, outcome, stderr });
    });
  });
}

/** Holds that overlapped: a `+` while someone else's hold had not ended (`-`, or `x` for a crash). */
function overlaps(log: string): string[] {
  const found: string[] = [];
  let holder: string | null = null;
  log
    .split('\n')
    .filter((line) => line !== '')
    .forEach((line, index) => {
      const pid = line.slice(1);
      if (line.startsWith('+')) {
        if (holder !== null) found.push(`line ${index + 1}: ${pid} took the lock while ${holder} held it`);
        holder = pid;
      } else if (holder === pid) holder = null;
      else found.push(`line ${index + 1}: ${line} ended a hold it did not have (holder ${holder})`);
    });
  return found;
}

describe('data-folder lock', () => {
  test(`lock race: ${PROCESSES} processes × ${ROUNDS} rounds never hold one folder at once; a crashed holder frees it`, async () => {
    const started = Date.now();
    const problems: string[] = [];
    let held = 0;
    let refused = 0;
    let crashes = 0;
    let workerFailures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const dir = tempFolder();
      const log = join(dir, 'holders.txt');
      const go = join(dir, 'go');
      writeFileSync(log, '');
      const workers = Array.from({ length: PROCESSES }, (_, i) =>
        runWorker([join(dir, 'data'), log, go, String(ATTEMPTS_PER_PROCESS), i === 0 ? 'crash' : 'plain']),
      );
      // Every contender is started and waiting before the signal, so they really start together.
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeFileSync(go, '');
      const results = await Promise.all(workers);
      for (const result of results) {
        if (result.code !== 0 || !result.outcome) {
          workerFailures++;
          problems.push(`round ${round}: a worker failed (${result.code}): ${result.stderr.slice(0, 300)}`);
          continue;
        }
        held += result.outcome.held;
        refused += result.outcome.refused;
        if (result.outcome.crashed) crashes++;
      }
      problems.push(...overlaps(readFileSync(log, 'utf8')).map((p) => `round ${round}: ${p}`));
    }

    reportFigures({
      drill: 'lock-race',
      title: 'Data-folder lock race',
      tried: `${PROCESSES} processes started together on one data folder, each taking and releasing its lock ${ATTEMPTS_PER_PROCESS} times; one per round died holding it`,
      often: `${ROUNDS} rounds, ${held + refused} attempts`,
      lost: problems.length,
      crashed: workerFailures,
      holds: problems.length === 0 && held > 0 && refused > 0,
      figures: {
        rounds: ROUNDS,
        processes: PROCESSES,
        held,
        refused,
        holderCrashes: crashes,
        overlaps: problems.length,
      },
      durationMs: Date.now() - started,
    });
    expect(problems).toEqual([]);
    // The race was real: the lock was both taken and refused, and every round's crash left the folder usable.
    expect(held).toBeGreaterThanOrEqual(ROUNDS);
    expect(refused).toBeGreaterThan(0);
    expect(crashes).toBe(ROUNDS);
  });

  test('a folder whose owner was killed with SIGKILL is taken at once, and service.lock names the new owner', async () => {
    const dir = tempFolder();
    const child = spawn(process.execPath, [workerFile, dir, join(dir, 'unused'), join(dir, 'unused'), '1', 'hold'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('held') && resolve());
      child.on('exit', (code) => reject(new Error(`the holder exited (${code}) before holding`)));
    });
    expect(() => acquireDataLock(dir)).toThrow(
      expect.objectContaining({
        code: 'SERVICE_ALREADY_RUNNING',
        message: expect.stringContaining(`pid ${child.pid}`),
      }),
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const before = Date.now();
    const lock = acquireDataLock(dir);
    const tookMs = Date.now() - before;
    expect(readFileSync(join(dir, 'service.lock'), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(tookMs).toBeLessThan(1_000);
  });
});
