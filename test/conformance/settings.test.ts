/**
 * Settings (reference §5 and the decisions table): which take effect at once, which wait as pending
 * until `qk service restart`, refusal of invalid values, and persistence across restarts.
 */
import { describe, expect, test } from 'vitest';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import type { QkErrorBody, QkQueue, QkSetting } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { bodyOfSize } from '../helpers/temp-files.js';

const file = serviceForFile();

describe('settings', () => {
  test('§5 settings that take effect at once (MachineQuota, MachineJournalQuota, LongLiveTime) are never pending', async () => {
    const { q } = file;
    const dest = await q.newQueue('llt');
    const changes: [string, number][] = [
      ['MachineQuota', 2_000_000],
      ['MachineJournalQuota', 500_000],
      ['LongLiveTime', 7_776_000],
    ];
    for (const [name, value] of changes) {
      expect(await q.setSetting(name, value)).toMatchObject({ name, value, pending: null });
    }
    expect((await q.status()).settingsPendingRestart).toEqual([]);
    // LongLiveTime is the default time-to-reach-queue of the next message (90 days here).
    await q.send(dest, '--label', 'default ttrq');
    expect((await q.peek(dest)).timeToReachQueue).toBe(7_776_000);
    await q.setSetting('LongLiveTime', 345_600);
  });

  test('§5 a restart-requiring setting shows pending and appears in settingsPendingRestart until qk service restart', async () => {
    const { q, svc } = file;
    const changes: [string, number, number][] = [
      ['RemoveDuplicateSize', 500, 10_000],
      ['RemoveDuplicateCleanup', 60_000, 1_800_000],
      ['XactDeadLetterAlways', 1, 0],
      ['MaxMessageSize', 2_048, 4_194_304],
    ];
    for (const [name, value, old] of changes) {
      expect(await q.setSetting(name, value)).toMatchObject({
        name,
        value: old,
        pending: value,
        restartRequired: true,
      });
    }
    const settings = await q.settings();
    for (const [name, value, old] of changes) {
      expect(settings.find((s) => s.name === name)).toMatchObject({ value: old, pending: value });
    }
    expect([...(await q.status()).settingsPendingRestart].sort()).toEqual(changes.map(([n]) => n).sort());

    // Still the old MaxMessageSize: a 3,000-byte body is accepted before the restart.
    const dest = await q.newQueue('maxsize');
    await q.send(dest, '--body', bodyOfSize(3_000), '--recoverable');

    await svc.restart();
    const after = await q.settings();
    for (const [name, value] of changes) {
      expect(after.find((s) => s.name === name)).toMatchObject({ value, pending: null });
    }
    const status = await q.status();
    expect(status.settingsPendingRestart).toEqual([]);
    expect(status.duplicateCache.capacity).toBe(500);
    // …and now it rules: the same body is too large.
    failsWith(await svc.qk('send', dest, '--body', bodyOfSize(3_000)), 'INSUFFICIENT_RESOURCES');
    expect((await q.show(dest)).messageCount).toBe(1);
  });

  test('§5 settings survive a restart in place and a stop/start of the service process', async () => {
    const { q, svc } = file;
    await q.setSetting('MachineJournalQuota', 123_456);
    await q.setSetting('RemoveDuplicateSize', 777);
    await svc.restart();
    await svc.stop();
    await svc.start();
    const settings = await q.settings();
    expect(settings.find((s) => s.name === 'MachineJournalQuota')).toMatchObject({ value: 123_456, pending: null });
    expect(settings.find((s) => s.name === 'RemoveDuplicateSize')).toMatchObject({ value: 777, pending: null });
    expect(settings.find((s) => s.name === 'XactDeadLetterAlways')).toMatchObject({ value: 1, pending: null });
  });

  test('§5 invalid setting values are refused with a clear error and the old value is kept', async () => {
    const { q, svc } = file;
    const before = await q.settings();
    const attempts: [string, string][] = [
      ['XactDeadLetterAlways', '2'],
      ['MaxMessageSize', '4194305'],
      ['RemoveDuplicateSize', '-1'],
      ['LongLiveTime', '0'],
      ['MachineQuota', 'lots'],
      ['NoSuchSetting', '1'],
    ];
    const results = await Promise.all(attempts.map(([name, value]) => svc.qk('settings', 'set', name, value)));
    results.forEach((r, i) => {
      const context = `${attempts[i]?.join(' ')} → exit ${r.exitCode}, ${r.stdout}${r.stderr}`;
      expect(r.exitCode, context).not.toBe(0);
      expect((r.json as QkErrorBody | null)?.error?.message ?? '', context).not.toBe('');
    });
    const after = ok(await svc.qk<QkSetting[]>('settings'));
    expect(after).toEqual(before);
  });

  test('§5 the settings an administrator expects beside those seven, with MSMQ defaults, units and restart', async () => {
    const { q } = file;
    const settings = await q.settings();
    const expected: [string, number | null, string][] = [
      ['MessageCleanupInterval', 21_600_000, 'ms'],
      ['CleanupInterval', 120_000, 'ms'],
      ['XactDelayReceiveNack', null, 's'],
      ['SeqResend13Time', 30, 's'],
      ['SeqResend46Time', 300, 's'],
      ['SeqResend79Time', 1_800, 's'],
      ['SeqResend10Time', 21_600, 's'],
    ];
    for (const [name, value, unit] of expected)
      expect(
        settings.find((s) => s.name === name),
        name,
      ).toMatchObject({
        value,
        default: value,
        unit,
        restartRequired: true,
      });
  });

  test('§5 XactDelayReceiveNack is absent (value null) until set; "none" makes it absent again at the next restart', async () => {
    const { q, svc } = file;
    expect(await q.setSetting('XactDelayReceiveNack', 45)).toMatchObject({ value: null, pending: 45 });
    await svc.restart();
    expect(await q.setting('XactDelayReceiveNack')).toMatchObject({ value: 45, pending: null });
    const cleared = ok(
      await svc.qk<QkSetting & { pendingRestart?: boolean }>('settings', 'set', 'XactDelayReceiveNack', 'none'),
    );
    expect(cleared).toMatchObject({ value: 45, pending: null, pendingRestart: true });
    expect((await q.status()).settingsPendingRestart).toContain('XactDelayReceiveNack');
    await svc.restart();
    expect(await q.setting('XactDelayReceiveNack')).toMatchObject({ value: null, pending: null });
    failsWith(await svc.qk('settings', 'set', 'SeqResend13Time', 'none'), 'INVALID_PARAMETER');
  });

  // Last in the file: it shortens CleanupInterval for the rest of this service's life.
  test('§5 CleanupInterval (ms, after a restart): an empty outgoing queue goes once it has been idle that long', async () => {
    const { q, svc } = file;
    await q.setSetting('CleanupInterval', 2_000);
    await svc.restart();
    expect(await q.setting('CleanupInterval')).toMatchObject({ value: 2_000, pending: null });
    const target = `NOSUCHHOST-CLEANUP\\private$\\gone`;
    await q.send(target, '--ttrq', '5', '--label', 'expires in the outgoing queue');
    const outgoing = async (): Promise<QkQueue | undefined> =>
      (await q.list()).find((x) => x.type === 'outgoing' && /NOSUCHHOST-CLEANUP/i.test(x.path));
    expect(await outgoing()).toBeDefined();
    await waitFor(async () => (await outgoing()) === undefined, 'the idle outgoing queue to go', 30_000, 500);
  });
});
