/**
 * Foundation: what survives a restart and a crash (R-V1), one service per data folder, and the settings
 * the queue manager lists (§5).
 */
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { ok } from '../helpers/qk-expect.js';
import type { QkSetting } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay, qkBin, repoRoot } from '../helpers/service-harness.js';

const file = serviceForFile();

describe('restart and crash', () => {
  test('R-V1 qk service restart keeps recoverable messages and drops express ones', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('restart');
    const tx = await q.newQueue('restart-tx', '--transactional');
    for (let i = 0; i < 3; i++) {
      await q.send(dest, '--label', `rec-${i}`, '--recoverable');
      await q.send(dest, '--label', `exp-${i}`, '--express');
    }
    await q.send(dest, '--label', 'default-is-express');
    await q.send(tx, '--label', 'tx-is-recoverable', '--transactional');
    expect((await q.show(dest)).messageCount).toBe(7);
    await svc.restart();
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['rec-0', 'rec-1', 'rec-2']);
    expect((await q.show(dest)).messageCount).toBe(3);
    // R-E6: a transactional message is recoverable, so it survives too.
    expect((await q.messages(tx)).map((m) => m.label)).toEqual(['tx-is-recoverable']);
  });

  test('R-V1 recoverable messages survive stopping and starting the service process', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('stopstart');
    const id = await q.send(dest, '--label', 'kept', '--recoverable', '--body', 'still here');
    await q.send(dest, '--label', 'lost', '--express');
    await svc.stop();
    await svc.start();
    const messages = await q.messages(dest);
    expect(messages.map((m) => m.id)).toEqual([id]);
    expect((await q.receive(dest)).body).toBe('still here');
  });

  test('R-V1 kill -9 during concurrent recoverable sends loses none whose send returned success', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('crash');
    const confirmed: string[] = [];
    let stop = false;
    const loop = async (n: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const result = await svc.qk<{ id: string }>(
          'send',
          dest,
          '--recoverable',
          '--label',
          `L${n}-${i}`,
          '--body',
          `b${n}-${i}`,
        );
        if (result.exitCode === 0) confirmed.push(result.json.id);
      }
    };
    const loops = [0, 1, 2, 3].map(loop);
    // Let the stream run, then pull the plug while sends are in flight.
    const deadline = Date.now() + 25_000;
    while (confirmed.length < 16 && Date.now() < deadline) await delay(50);
    await svc.kill9();
    stop = true;
    await Promise.all(loops);
    await svc.start();
    expect(confirmed.length, 'recoverable sends confirmed before the crash').toBeGreaterThanOrEqual(8);
    const stored = new Set((await q.messages(dest)).map((m) => m.id));
    const lost = confirmed.filter((id) => !stored.has(id));
    expect(lost, `${lost.length} of ${confirmed.length} confirmed sends lost`).toEqual([]);
  });

  test('DESIGN one service per data folder: a second service start on the same --data fails with a clear error', async () => {
    const { q, svc } = file;
    const started = Date.now();
    const second = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [qkBin, 'service', 'start', '--data', svc.dataDir, '--name', 'INTRUDER', '--listen', '127.0.0.1:0', '--json'],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    expect(second.code, `second service: ${second.stdout} ${second.stderr}`).not.toBe(0);
    expect(second.code).not.toBeNull(); // it exited by itself, not by our kill
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(second.stdout).not.toContain('"ready":true');
    const error = JSON.parse(second.stderr.trim().split('\n').pop() ?? '{}') as {
      error?: { code?: string; message?: string };
    };
    expect(error.error?.message ?? '', second.stderr).not.toBe('');
    expect(error.error?.code).toBe('SERVICE_ALREADY_RUNNING');
    // The first service is unharmed and still answers as itself.
    expect((await q.status()).name).toBe(svc.name);
  });
});

describe('settings', () => {
  test('§5 settings list the MSMQ registry values with their defaults', async () => {
    const settings = ok(await file.svc.qk<QkSetting[]>('settings'));
    const byName = new Map(settings.map((s) => [s.name, s]));
    const expected: Record<string, number | null> = {
      MachineQuota: null,
      MachineJournalQuota: null,
      RemoveDuplicateSize: 10_000,
      RemoveDuplicateCleanup: 1_800_000,
      XactDeadLetterAlways: 0,
      LongLiveTime: 345_600,
      MaxMessageSize: 4_194_304,
    };
    for (const [name, value] of Object.entries(expected)) {
      const setting = byName.get(name);
      expect(setting, `setting ${name}`).toBeDefined();
      if (value !== null) expect(setting).toMatchObject({ name, value, default: value, pending: null });
      else expect(setting?.value).toBeGreaterThan(0);
    }
    expect(byName.get('RemoveDuplicateCleanup')?.unit).toMatch(/ms|millisecond/i);
    for (const name of ['RemoveDuplicateSize', 'RemoveDuplicateCleanup', 'XactDeadLetterAlways', 'MaxMessageSize']) {
      expect(byName.get(name)?.restartRequired, name).toBe(true);
    }
    for (const name of ['MachineQuota', 'MachineJournalQuota', 'LongLiveTime']) {
      expect(byName.get(name)?.restartRequired, name).toBe(false);
    }
  });
});
