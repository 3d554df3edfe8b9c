import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
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

describe('R-U2 a full cache forgets its oldest entry first', () => {
  test('remember, look up and clean up behave as a plain list kept in age order', () => {
    type Op = { kind: 'remember' | 'lookup'; key: number } | { kind: 'cleanup'; advance: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('remember' as const), key: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constant('lookup' as const), key: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constant('cleanup' as const), advance: fc.integer({ min: 0, max: 700 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(op, { maxLength: 400 }), (capacity, ops: Op[]) => {
        const interval = 1_000;
        const cache = new DuplicateCache(capacity, interval, 0);
        // The model: [key, remembered at], oldest first.
        let model: [string, number][] = [];
        let lastCleanup = 0;
        let now = 0;
        for (const o of ops) {
          if (o.kind === 'cleanup') {
            now += o.advance;
            cache.cleanup(now);
            if (now - lastCleanup >= interval) {
              lastCleanup = now;
              model = model.filter(([, at]) => now - at < interval);
            }
          } else if (o.kind === 'remember') {
            const key = `k${o.key}`;
            cache.remember(BETA, key, now);
            model = model.filter(([k]) => k !== key);
            if (model.length >= capacity) model.shift();
            model.push([key, now]);
          } else {
            const key = `k${o.key}`;
            expect(cache.isDuplicate(BETA, key)).toBe(model.some(([k]) => k === key));
          }
          expect(cache.size).toBe(model.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a cache that was emptied and filled again still forgets its oldest', () => {
    const cache = new DuplicateCache(3, 1_000, 0);
    for (const k of ['a', 'b', 'c', 'd']) cache.remember(BETA, k, 0); // a goes
    cache.cleanup(2_000); // all go: the kept walk of the keys has reached their end
    for (const k of ['e', 'f', 'g', 'h']) cache.remember(BETA, k, 2_000); // e goes
    expect(['e', 'f', 'g', 'h'].map((k) => cache.isDuplicate(BETA, k))).toEqual([false, true, true, true]);
  });
});
