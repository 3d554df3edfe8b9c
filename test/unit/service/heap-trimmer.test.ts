import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HeapTrimmer, compactingCollection } from '../../../core/service/src/host/heap-trimmer.js';
import { recordingLogger } from './recording-logger.js';

const MB = 1024 * 1024;

/** A trimmer over a heap and a loop the test sets by hand; `compacted` counts the collections asked for. */
function trimmerOver(start: { heapMB: number }) {
  const state = {
    heapMB: start.heapMB,
    utilization: 0,
    compacted: 0,
    afterCompactionMB: 0,
    fail: false,
    /** What happened, in order: 'release' (the engine's caches), 'compact'. */
    steps: [] as string[],
    releaseFails: false,
  };
  const logger = recordingLogger();
  const trimmer = new HeapTrimmer({
    logger,
    growthBytes: 64 * MB,
    heapBytes: () => state.heapMB * MB,
    loopUtilization: () => state.utilization,
    releaseCaches: () => {
      state.steps.push('release');
      if (state.releaseFails) throw new Error('the store is closed');
    },
    compact: () => {
      if (state.fail) throw new Error('no collector');
      state.steps.push('compact');
      state.compacted++;
      state.heapMB = state.afterCompactionMB;
    },
  });
  return { state, logger, trimmer };
}

describe('heap trimmer', () => {
  it('compacts once the heap grew past the threshold and the loop was quiet, and logs the sizes', () => {
    const { state, logger, trimmer } = trimmerOver({ heapMB: 50 });
    state.heapMB = 200;
    state.afterCompactionMB = 60;
    expect(trimmer.look()).toBe(true);
    expect(state.compacted).toBe(1);
    const line = logger.lines.find((l) => l.message.includes('compacted'));
    expect(line?.level).toBe('info');
    expect(line?.context).toMatchObject({ heapBeforeMB: 200, heapAfterMB: 60 });
  });

  it('leaves a busy loop alone, however large the heap (a collection would stall the calls in progress)', () => {
    const { state, trimmer } = trimmerOver({ heapMB: 50 });
    state.heapMB = 400;
    state.utilization = 0.4;
    expect(trimmer.look()).toBe(false);
    state.utilization = 0.06;
    expect(trimmer.look()).toBe(false);
    expect(state.compacted).toBe(0);
    // The burst ends: the next quiet look compacts.
    state.utilization = 0.01;
    state.afterCompactionMB = 70;
    expect(trimmer.look()).toBe(true);
  });

  it('does not compact a quiet heap that has not grown by the threshold since the last compaction', () => {
    const { state, trimmer } = trimmerOver({ heapMB: 50 });
    state.heapMB = 113;
    expect(trimmer.look()).toBe(false);
    state.heapMB = 200;
    state.afterCompactionMB = 150; // live data did grow (a queue of express messages): that is the new floor
    expect(trimmer.look()).toBe(true);
    state.heapMB = 200;
    expect(trimmer.look()).toBe(false);
    state.heapMB = 210;
    expect(trimmer.look()).toBe(false);
    expect(state.compacted).toBe(1);
  });

  it('asks a large heap to grow by half its size first (the pause of a compaction grows with what is live)', () => {
    const { state, trimmer } = trimmerOver({ heapMB: 600 });
    state.heapMB = 880;
    expect(trimmer.look()).toBe(false);
    state.heapMB = 900;
    state.afterCompactionMB = 620;
    expect(trimmer.look()).toBe(true);
  });

  it('counts growth from the smallest the heap has been since, when V8 shrank it on its own', () => {
    const { state, trimmer } = trimmerOver({ heapMB: 150 });
    state.heapMB = 40;
    expect(trimmer.look()).toBe(false);
    state.heapMB = 110;
    state.afterCompactionMB = 45;
    expect(trimmer.look()).toBe(true);
  });

  it("empties the engine's caches just before it compacts, and only then", () => {
    const { state, trimmer } = trimmerOver({ heapMB: 50 });
    state.heapMB = 100; // grown, but not by the threshold
    expect(trimmer.look()).toBe(false);
    state.heapMB = 300;
    state.utilization = 0.5; // grown, but busy: a receive may be using the rows right now
    expect(trimmer.look()).toBe(false);
    expect(state.steps).toEqual([]);
    state.utilization = 0;
    state.afterCompactionMB = 60;
    expect(trimmer.look()).toBe(true);
    expect(state.steps).toEqual(['release', 'compact']);
  });

  it('compacts all the same when the caches cannot be released, and says so', () => {
    const { state, logger, trimmer } = trimmerOver({ heapMB: 50 });
    state.heapMB = 300;
    state.afterCompactionMB = 60;
    state.releaseFails = true;
    expect(trimmer.look()).toBe(true);
    expect(state.steps).toEqual(['release', 'compact']);
    const warning = logger.lines.find((l) => l.level === 'warn');
    expect(warning?.message).toContain('caches could not be released');
  });

  it('warns once and stops trying when the collector fails', () => {
    const { state, logger, trimmer } = trimmerOver({ heapMB: 50 });
    state.heapMB = 300;
    state.fail = true;
    expect(trimmer.look()).toBe(false);
    state.heapMB = 600;
    expect(trimmer.look()).toBe(false);
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('could not be compacted');
  });

  it("gives back the pages a burst's scattered survivors held (real V8)", () => {
    // One object in 20 survives, scattered over every page the burst filled: a plain full collection frees
    // the dead objects but keeps the pages.
    const survivors = burstKeepingOneIn(20, 1_500_000);
    const before = getHeapStatistics().total_heap_size;
    compactingCollection();
    const after = getHeapStatistics().total_heap_size;
    expect(survivors).toHaveLength(75_000);
    expect(before - after).toBeGreaterThan(50 * MB);
  });
});

/** Makes `count` objects and returns one in `every`: the rest are garbage once this returns. */
function burstKeepingOneIn(every: number, count: number): { n: number; label: string }[] {
  const burst: { n: number; label: string }[] = [];
  for (let i = 0; i < count; i++) burst.push({ n: i, label: `message ${i}` });
  return burst.filter((_, i) => i % every === 0);
}
