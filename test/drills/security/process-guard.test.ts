/**
 * An unhandled rejection or uncaught exception is logged and does not end the service; a broken store stops
 * it cleanly — lock released, service.json removed — and the process exits with 1 (issue 7, item 9). The old
 * service died on the first of these and left its lock and service.json behind.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { acquireDataLock } from '../../../core/service/src/host/data-lock.js';
import { repoRoot } from '../../helpers/service-harness.js';
import { ApiSession } from '../support/api.js';
import { serviceLogLines } from '../support/service-log.js';

const entry = join(repoRoot, 'artifacts', 'drills', 'guarded-service.mjs');
const dataDir = mkdtempSync(join(tmpdir(), 'qk-guard-'));

beforeAll(async () => {
  mkdirSync(join(repoRoot, 'artifacts', 'drills'), { recursive: true });
  await build({
    absWorkingDir: repoRoot,
    entryPoints: [join(repoRoot, 'test', 'drills', 'security', 'guarded-service.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: join(repoRoot, 'tsconfig.base.json'),
    define: { __QK_VERSION__: '"test"' },
    banner: {
      js: "import { createRequire as __qkCreateRequire } from 'node:module'; const require = __qkCreateRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function nextLine(child: ChildProcessWithoutNullStreams, match: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: string): void => {
      buffer += chunk;
      for (const line of buffer.split('\n')) {
        if (match(line)) {
          child.stdout.off('data', onData);
          resolve(line);
          return;
        }
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`the service exited (${code})`)));
  });
}

test('an unhandled rejection and an uncaught exception are logged and the service goes on; a broken store stops it cleanly and exits 1', async () => {
  const child = spawn(process.execPath, [entry, dataDir], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const ready = JSON.parse(await nextLine(child, (line) => line.startsWith('{'))) as { url: string };
    const api = new ApiSession(ready.url, readFileSync(join(dataDir, 'token'), 'utf8').trim());

    for (const command of ['reject', 'throw']) {
      child.stdin.write(`${command}\n`);
      await nextLine(child, (line) => line === `done ${command}`);
      expect(await api.value<{ name: string }>('serviceStatus', {})).toHaveProperty('name');
    }
    expect(existsSync(join(dataDir, 'service.json'))).toBe(true);

    child.stdin.write('corrupt\n');
    expect(await exited).toBe(1);
  } finally {
    child.kill('SIGKILL');
  }
  expect(existsSync(join(dataDir, 'service.json'))).toBe(false);
  expect(existsSync(join(dataDir, 'service.lock'))).toBe(false);
  acquireDataLock(dataDir).release();

  const logged = serviceLogLines<{ level: number; msg: string; err?: { message: string; stack: string } }>(dataDir);
  const errors = logged.filter((line) => line.level >= 50);
  expect(errors.map((line) => line.err?.message)).toEqual([
    'a promise nobody waits for failed',
    'a timer threw',
    'database disk image is malformed',
    'database disk image is malformed',
  ]);
  expect(errors[1]?.err?.stack).toContain('RangeError');
  expect(logged.at(-1)?.msg).toBe('The service stopped');
  // On a terminal the same errors read as sentences, not JSON.
  expect(stderr).toMatch(/ERROR: An unhandled promise rejection \(a bug in Queuekeeper\); the service goes on/);
  expect(stderr).toMatch(/FATAL: The store is broken/);
});
