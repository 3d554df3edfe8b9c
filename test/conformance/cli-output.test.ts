/**
 * CLI.md general rules on the process itself: a reader of qk's stdout that goes away early
 * (`qk --json receive … | head -c 10`) does not make qk crash with an EPIPE stack trace — it stops quietly
 * with the operation's exit code. What the command did is done: a receive has taken its message.
 */
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { qkBin, repoRoot } from '../helpers/service-harness.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();

/** Runs `qk --data DIR --json …args` with its stdout pipe closed by the reader before qk writes. */
function runWithReaderGone(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [qkBin, '--data', file.svc.dataDir, '--json', ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('qk output to a reader that goes away', () => {
  test('receive piped into a reader that exits early: exit 0, no stack trace; the message was taken', async () => {
    const queue = await file.q.newQueue('epipe');
    await file.q.send(queue, '--body', 'x'.repeat(100_000), '--recoverable');
    const run = await runWithReaderGone('receive', queue);
    expect(run.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(run.code).toBe(0);
    expect(await file.q.messages(queue)).toEqual([]);
  });
});
