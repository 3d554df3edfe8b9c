import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ArrivingMessage } from '@qk/engine';
import { DuplicateCache } from '../../../core/engine/src/duplicate-cache.js';
import { openHarness, type Harness } from './helpers.js';

const BETA = '11111111-2222-3333-4444-555555555555';
const from = (n: number, props: Partial<ArrivingMessage> = {}): ArrivingMessage => ({
  id: `{${BETA}}\\${n}`,
  sourceMachineId: BETA,
  sourceMachine: 'BETA',
  body: `m${n}`,
  ...props,
});

describe('R-U3 the cleanup runs every interval and removes what is older than it (KB255546)', () => {
  test('an entry lives between one and two intervals', () => {
    const cache = new DuplicateCache(100, 1_000, 0);
    cache.remember(BETA, 'a', 100);
    cache.remember(BETA, 'b', 900);
    cache.cleanup(999); // not an interval yet
    cache.cleanup(1_000); // first cleanup: a is 900 ms old, b 100 ms: both stay
    expect(cache.size).toBe(2);
    cache.cleanup(1_500); // no cleanup between intervals, though a is now older than one
    expect(cache.isDuplicate(BETA, 'a')).toBe(true);
    cache.cleanup(2_000); // second: a (1,900 ms) goes, b (1,100 ms) goes
    expect(cache.size).toBe(0);
  });

  test('an entry made just after a cleanup survives the next one', () => {
    const cache = new DuplicateCache(100, 1_000, 0);
    cache.cleanup(1_000);
    cache.remember(BETA, 'late', 1_001);
    cache.cleanup(2_000);
    expect(cache.isDuplicate(BETA, 'late')).toBe(true);
    cache.cleanup(3_000);
    expect(cache.isDuplicate(BETA, 'late')).toBe(false);
  });
});

describe('the duplicate cache records an ID once its outcome is known', () => {
  let h: Harness;
  const Q = '.\\private$\\dup';
  beforeEach(() => {
    h = openHarness();
    h.qm.createQueue({ path: Q });
  });
  afterEach(async () => {
    await h.dispose();
  });

  test('an arrival refused by a full queue is accepted when retried after the quota is raised', async () => {
    h.qm.setQueue({ path: Q, quotaKB: 0 });
    expect(await h.qm.arrive(Q, from(1))).toMatchObject({ accepted: false, reason: expect.stringContaining('quota') });
    h.qm.setQueue({ path: Q, quotaKB: null });
    expect(await h.qm.arrive(Q, from(1))).toEqual({ accepted: true, reason: null });
    expect(await h.qm.arrive(Q, from(1))).toEqual({ accepted: false, reason: 'duplicate' });
    expect(h.qm.status().duplicateCache).toMatchObject({ entries: 1, duplicatesRemoved: 1 });
  });

  test('two copies handed over at once: one is stored, the other is a duplicate', async () => {
    const results = await Promise.all([
      h.qm.arrive(Q, from(2, { delivery: 'recoverable' })),
      h.qm.arrive(Q, from(2, { delivery: 'recoverable' })),
    ]);
    expect(results.filter((r) => r.accepted)).toHaveLength(1);
    expect(h.qm.showQueue(Q).messageCount).toBe(1);
  });

  test('R-U1 transactional arrivals bypass the cache', async () => {
    h.qm.createQueue({ path: '.\\private$\\dup-tx', transactional: true });
    await h.qm.arrive('.\\private$\\dup-tx', from(3, { transactional: true }));
    await h.qm.arrive('.\\private$\\dup-tx', from(3, { transactional: true }));
    expect(h.qm.status().duplicateCache.entries).toBe(0);
  });
});
