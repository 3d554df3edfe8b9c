/**
 * Security regressions of issue 7's "Why" (items 5, 7, 8, 9), each against a real `qk service start` process:
 * file modes, a long sourceMachine, a huge path in audit.log, a huge classCodes list, bidi names, a remote
 * receive, and the log a service writes.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { qkBin, repoRoot } from '../../helpers/service-harness.js';
import type { ApiSession, CallOutcome } from '../support/api.js';
import { serviceLogLines, serviceLogText } from '../support/service-log.js';
import { DrillService } from '../support/service-process.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

/** A data folder made the way an older Queuekeeper (or a careless `mkdir`) left it: readable by everyone. */
const dataDir = mkdtempSync(join(tmpdir(), 'qk-edges-'));
chmodSync(dataDir, 0o755);
writeFileSync(join(dataDir, 'audit.log'), '', { mode: 0o644 });
chmodSync(join(dataDir, 'audit.log'), 0o644);

const service = new DrillService({ dataDir, extraArgs: ['--log-level', 'debug'] });
let api: ApiSession;
beforeAll(async () => {
  await service.start();
  api = service.api();
});
afterAll(async () => {
  await service.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

function refusedWith(outcome: CallOutcome, code: string): void {
  expect(outcome, JSON.stringify(outcome).slice(0, 500)).toMatchObject({ kind: 'refused', code });
  if (outcome.kind === 'refused') {
    expect(outcome.status).toBeGreaterThanOrEqual(400);
    expect(outcome.status).toBeLessThan(500);
  }
}

describe('files private by default (item 5)', () => {
  test('the folder a service runs on is 0700 and every file in it 0600, the store with its -wal and -shm included; a wider folder is tightened with a warning', async () => {
    const path = '.\\private$\\modes';
    await api.value('queueCreate', { path });
    await api.value('send', { path, message: { body: 'secret', delivery: 'recoverable' } });
    await api.value('queuePurge', { path });

    expect(service.stderr).toMatch(/was 0755 \(readable by others\); it is now 0700/);
    expect(service.stderr).toMatch(/audit\.log \(0644\)/);
    expect(modeOf(dataDir)).toBe(0o700);
    const files = readdirSync(dataDir);
    for (const expected of [
      'queuekeeper.db',
      'queuekeeper.db-wal',
      'queuekeeper.db-shm',
      'token',
      'service.json',
      'service.lock',
      'service.lock.db',
      'audit.log',
    ]) {
      expect(files).toContain(expected);
    }
    for (const file of files) {
      const full = join(dataDir, file);
      if (statSync(full).isDirectory()) expect(modeOf(full), file).toBe(0o700);
      else expect(modeOf(full), file).toBe(0o600);
    }
    for (const file of readdirSync(join(dataDir, 'logs')))
      expect(modeOf(join(dataDir, 'logs', file)), file).toBe(0o600);
  });
});

describe('bounds on every input (item 7)', () => {
  test('a 15 MB messageArrive.sourceMachine is refused with a 4xx and stores nothing (it used to fill a 10 KB queue)', async () => {
    const path = '.\\private$\\arrivals';
    await api.value('queueCreate', { path, quotaKB: 10 });
    const outcome = await api.call('messageArrive', {
      path,
      message: {
        id: '{1b4e28ba-2fa1-11d2-883f-0016d3cca427}\\1',
        sourceMachineId: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
        sourceMachine: 'A'.repeat(15_000_000),
        body: 'x',
      },
    });
    refusedWith(outcome, 'INVALID_PARAMETER');
    const shown = await api.value<{ messageCount: number; bytes: number }>('queueShow', { path });
    expect(shown).toMatchObject({ messageCount: 0, bytes: 0 });
    const bidi = await api.call('messageArrive', {
      path,
      message: {
        id: '{1b4e28ba-2fa1-11d2-883f-0016d3cca427}\\2',
        sourceMachineId: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
        sourceMachine: 'BETA\u202E',
      },
    });
    refusedWith(bidi, 'INVALID_PARAMETER');
  });

  test('R-Q2 what messageArrive stores counts toward the quota: arrivals with the longest computer name stop at 1 KB', async () => {
    const path = '.\\private$\\arrivals-quota';
    await api.value('queueCreate', { path, quotaKB: 1 });
    const source = '2c4e28ba-2fa1-11d2-883f-0016d3cca427';
    const outcomes: { accepted: boolean; reason: string | null }[] = [];
    for (let i = 1; i <= 20; i++) {
      outcomes.push(
        await api.value('messageArrive', {
          path,
          message: {
            id: `{${source}}\\${i}`,
            sourceMachineId: source,
            sourceMachine: `B${'x'.repeat(255)}`,
            label: 'arrival',
            body: 'y'.repeat(100),
            delivery: 'recoverable',
          },
        }),
      );
    }
    const shown = await api.value<{ messageCount: number; bytes: number }>('queueShow', { path });
    const accepted = outcomes.filter((o) => o.accepted).length;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(20);
    expect(shown.messageCount).toBe(accepted);
    expect(shown.bytes).toBeLessThanOrEqual(1024);
    expect(outcomes.slice(accepted)).toEqual(
      outcomes.slice(accepted).map(() => ({ accepted: false, reason: expect.any(String) })),
    );
  });

  test('a 1 MB path is refused with a 4xx, and audit.log keeps only its start and its length', async () => {
    const huge = `.\\private$\\${'p'.repeat(1_000_000)}`;
    refusedWith(await api.call('queuePurge', { path: huge }), 'ILLEGAL_QUEUE_PATHNAME');
    const audit = await waitForAudit((line) => line.includes('1000011 characters'));
    expect(audit.length).toBeLessThan(1_024);
    expect(statSync(join(dataDir, 'audit.log')).size).toBeLessThan(100_000);
  });

  test('a classCodes list of 40,000 is INVALID_PARAMETER, not a 500', async () => {
    const path = '.\\private$\\classes';
    await api.value('queueCreate', { path });
    const classCodes = Array.from({ length: 40_000 }, (_, i) => i % 0x10000);
    refusedWith(await api.call('browse', { path, filter: { classCodes } }), 'INVALID_PARAMETER');
    const fine = await api.value<{ total: number }>('browse', { path, filter: { classCodes: [0, 0x8000] } });
    expect(fine.total).toBe(0);
  });

  test('queue names with bidi or control characters are refused and nothing is created', async () => {
    for (const name of ['invoice\u202Etxt.exe', 'a\u2066b', 'tab\there', 'nul\u0000']) {
      refusedWith(await api.call('queueCreate', { path: `.\\private$\\${name}` }), 'ILLEGAL_QUEUE_PATHNAME');
    }
    const queues = await api.value<{ path: string }[]>('queueList', {});
    const refusedChars = ['\u202E', '\u2066', '\t', '\u0000'];
    expect(queues.filter((q) => refusedChars.some((c) => q.path.includes(c)))).toEqual([]);
  });
});

describe('reading an outgoing queue is an admin action (item 8)', () => {
  test('receive of a remote path is 403 ACCESS_DENIED and the message stays in the outgoing queue', async () => {
    const remote = 'FARAWAY\\private$\\orders';
    await api.value('send', { path: remote, message: { body: 'for FARAWAY' } });
    const outcome = await api.call('receive', { path: remote });
    refusedWith(outcome, 'ACCESS_DENIED');
    if (outcome.kind === 'refused') expect(outcome.message).toContain('--service');
    refusedWith(await api.call('receiveBatch', { path: remote, max: 10 }), 'ACCESS_DENIED');
    refusedWith(await api.call('peek', { path: remote }), 'ACCESS_DENIED');
    const page = await api.value<{ total: number }>('browse', { path: remote });
    expect(page.total).toBe(1);
  });
});

describe('logging (item 9)', () => {
  test('DIR/logs/service.log holds structured lines at --log-level debug: the start, the folder warning, requests', async () => {
    await api.value('serviceStatus', {});
    const lines = serviceLogLines<{ level: number; msg: string; component?: string }>(dataDir);
    expect(lines.some((line) => line.msg === 'The service is ready' && line.level === 30)).toBe(true);
    expect(lines.some((line) => line.level === 40 && /readable by others/.test(line.msg))).toBe(true);
    // Fastify's own request lines, through the same logger, at debug.
    expect(lines.some((line) => line.component === 'http' && /request/.test(line.msg))).toBe(true);
  });

  test('an unknown --log-level is a wrong command line (exit 2) and starts nothing', () => {
    const other = mkdtempSync(join(tmpdir(), 'qk-edges-level-'));
    try {
      const run = spawnSync(
        process.execPath,
        [qkBin, 'service', 'start', '--data', other, '--log-level', 'chatty', '--json'],
        { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
      );
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('--log-level');
      expect(readdirSync(other)).not.toContain('service.json');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('a second service refused on the folder writes nothing into the running one’s log', () => {
    const before = serviceLogText(dataDir);
    const run = spawnSync(process.execPath, [qkBin, 'service', 'start', '--data', dataDir, '--json'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('SERVICE_ALREADY_RUNNING');
    expect(run.stderr).toContain(`pid ${service.pid}`);
    const after = serviceLogText(dataDir);
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).not.toContain('SERVICE_ALREADY_RUNNING');
  });
});

async function waitForAudit(match: (line: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = readFileSync(join(dataDir, 'audit.log'), 'utf8')
      .split('\n')
      .find((line) => match(line));
    if (found) return found;
    if (Date.now() > deadline) throw new Error('the audit line did not appear');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
