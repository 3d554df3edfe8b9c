import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;

beforeEach(() => {
  h = openHarness();
});
afterEach(async () => {
  await h.dispose();
});

const setting = (name: string) => h.qm.listSettings().find((s) => s.name === name);

describe('§5 settings an administrator expects, with MSMQ defaults', () => {
  test.each([
    ['MessageCleanupInterval', 21_600_000, 'ms'],
    ['CleanupInterval', 120_000, 'ms'],
    ['XactDelayReceiveNack', null, 's'],
    ['SeqResend13Time', 30, 's'],
    ['SeqResend46Time', 300, 's'],
    ['SeqResend79Time', 1_800, 's'],
    ['SeqResend10Time', 21_600, 's'],
  ])('%s defaults to %s %s and needs a restart', (name, value, unit) => {
    expect(setting(name)).toMatchObject({ value, default: value, unit, restartRequired: true, pending: null });
  });

  test('XactDelayReceiveNack: absent by default, a value waits for the restart, and back to absent', async () => {
    expect(h.qm.setSetting('XactDelayReceiveNack', 90)).toMatchObject({
      value: null,
      pending: 90,
      pendingRestart: true,
    });
    await h.reopen();
    expect(setting('XactDelayReceiveNack')).toMatchObject({ value: 90, pending: null, pendingRestart: false });
    expect(h.qm.setSetting('XactDelayReceiveNack', null)).toMatchObject({
      value: 90,
      pending: null,
      pendingRestart: true,
    });
    expect(h.qm.status().settingsPendingRestart).toEqual(['XactDelayReceiveNack']);
    await h.reopen();
    expect(setting('XactDelayReceiveNack')).toMatchObject({ value: null, pendingRestart: false });
  });

  test('only a setting that may be absent takes null', () => {
    expect(() => h.qm.setSetting('SeqResend13Time', null)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETER' }),
    );
  });

  test('CleanupInterval: an empty outgoing queue goes once it has been idle that long', async () => {
    const events: string[] = [];
    h.qm.on((e) => {
      if (e.type === 'queueDeleted') events.push(e.path);
    });
    await h.qm.send('FARAWAY\\private$\\q', { body: 'x' });
    const outgoing = h.qm.listQueues().find((q) => q.type === 'outgoing');
    expect(outgoing).toBeDefined();
    h.clock.advance(200_000);
    expect(h.qm.listQueues().some((q) => q.type === 'outgoing')).toBe(true); // not empty: it stays
    await h.qm.purgeQueue(outgoing?.path ?? '');
    h.clock.advance(60_000);
    expect(h.qm.listQueues().some((q) => q.type === 'outgoing')).toBe(true);
    h.clock.advance(61_000);
    expect(h.qm.listQueues().some((q) => q.type === 'outgoing')).toBe(false);
    expect(events).toEqual([outgoing?.path]);
  });

  test('CleanupInterval: an empty outgoing queue on hold stays while held (its hold shows), and goes once resumed', () => {
    const formatName = 'DIRECT=OS:FARAWAY\\private$\\held';
    h.qm.networkConfig.setOutgoingPaused(formatName, true);
    h.clock.advance(500_000);
    expect(h.qm.networkConfig.outgoingQueues()).toEqual([expect.objectContaining({ formatName, paused: true })]);
    h.qm.networkConfig.setOutgoingPaused(formatName, false);
    h.clock.advance(121_000);
    expect(h.qm.networkConfig.outgoingQueues()).toEqual([]);
  });

  test('MessageCleanupInterval: the store gives back the space of its write-ahead log', async () => {
    h.qm.setSetting('MessageCleanupInterval', 60_000);
    await h.reopen();
    h.qm.createQueue({ path: '.\\private$\\wal' });
    for (let i = 0; i < 50; i++)
      await h.qm.send('.\\private$\\wal', { body: 'x'.repeat(1_000), delivery: 'recoverable' });
    const wal = path.join(h.dir, 'queuekeeper.db-wal');
    expect(fs.statSync(wal).size).toBeGreaterThan(0);
    h.clock.advance(61_000);
    expect(fs.statSync(wal).size).toBe(0);
  });
});
