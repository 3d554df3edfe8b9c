/**
 * Gives back the memory a burst of work left in the V8 heap. During a burst (a million sends, a drain) messages
 * in flight outlive the young generation's collections and are promoted; V8 grows its old space to hold them
 * and, once the burst ends, keeps those pages: no collection is due while the process is idle, and V8's memory
 * reducer did not shrink it either. After 1,000,000 sends the service held 371 MB at rest for as long as it was
 * left alone (30 s measured), its heap 196 MB of which 67 MB was live (bench/README.md, "Memory at rest").
 *
 * So when the heap has grown well past its size after the last compaction and the event loop has been quiet for a
 * sample, one compacting full collection moves the live objects together and returns the emptied pages: 80-200 ms
 * of a loop that had nothing else to do, and only after such growth, so never a collection per quiet moment.
 * Just before it, the engine lets go of the rows it keeps for receives (up to ~45 MB of heap): a backlog left at
 * rest is read back by the receive that finally comes, rather than held for as long as nobody reads it.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '@qk/model';

/** Growth of the heap since the last compaction (or the start) that makes the next quiet moment compact it. */
const TRIM_GROWTH_BYTES = 64 * 1024 * 1024;
/**
 * And growth by at least this share of the heap's size then: a compaction's pause grows with what is live, so a
 * heap that holds much (a queue manager with a large working set) is compacted only for growth worth its pause.
 */
const TRIM_GROWTH_SHARE = 0.5;
/** How often the loop and the heap are looked at. */
const SAMPLE_MS = 500;
/** The share of a sample the loop may have been busy and still count as quiet. */
const QUIET_UTILIZATION = 0.05;

export interface HeapTrimmerOptions {
  logger: Logger;
  growthBytes?: number | undefined;
  sampleMs?: number | undefined;
  /** The heap's size (V8's total heap size): tests give a stand-in. */
  heapBytes?: (() => number) | undefined;
  /** How busy the event loop was since the previous call, 0 to 1. */
  loopUtilization?: (() => number) | undefined;
  /** One compacting full collection. */
  compact?: (() => void) | undefined;
  /** Drops what is held only to go faster (the engine's cached rows), so the compaction can give it back. */
  releaseCaches?: (() => void) | undefined;
}

/** What one look decides; exported for the tests that drive it without a timer. */
export class HeapTrimmer {
  readonly #growthBytes: number;
  readonly #heapBytes: () => number;
  readonly #loopUtilization: () => number;
  readonly #compact: () => void;
  /** The heap's size after the last compaction, or its smallest since: growth is counted from here. */
  #floor: number;

  constructor(private readonly options: HeapTrimmerOptions) {
    this.#growthBytes = options.growthBytes ?? TRIM_GROWTH_BYTES;
    this.#heapBytes = options.heapBytes ?? (() => getHeapStatistics().total_heap_size);
    this.#loopUtilization = options.loopUtilization ?? loopUtilizationSinceLastCall();
    this.#compact = options.compact ?? compactingCollection;
    this.#floor = this.#heapBytes();
  }

  /** Looks once; compacts when the heap grew past the threshold and the loop was quiet. True if it compacted. */
  look(): boolean {
    const utilization = this.#loopUtilization();
    const before = this.#heapBytes();
    this.#floor = Math.min(this.#floor, before);
    const threshold = Math.max(this.#growthBytes, this.#floor * TRIM_GROWTH_SHARE);
    if (before - this.#floor < threshold || utilization > QUIET_UTILIZATION) return false;
    const started = performance.now();
    this.#releaseCaches();
    try {
      this.#compact();
    } catch (error) {
      // Never again this process: a collector that fails once would fail at every quiet moment.
      this.#floor = Number.POSITIVE_INFINITY;
      this.options.logger.warn({ err: error }, 'The heap could not be compacted; the service goes on without it');
      return false;
    }
    const after = this.#heapBytes();
    this.#floor = after;
    this.options.logger.info(
      { heapBeforeMB: toMB(before), heapAfterMB: toMB(after), ms: Math.round(performance.now() - started) },
      'The heap was compacted while the service was quiet',
    );
    return true;
  }

  #releaseCaches(): void {
    try {
      this.options.releaseCaches?.();
    } catch (error) {
      // The caches only make things faster: the compaction still gives back what else the burst left.
      this.options.logger.warn({ err: error }, "The engine's caches could not be released before compacting");
    }
  }
}

/** Looks every SAMPLE_MS for the life of the process (the timer does not keep it alive); returns the stop. */
export function startHeapTrimmer(options: HeapTrimmerOptions): () => void {
  const trimmer = new HeapTrimmer(options);
  const timer = setInterval(() => trimmer.look(), options.sampleMs ?? SAMPLE_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function loopUtilizationSinceLastCall(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const current = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(current, last);
    last = current;
    return since.utilization;
  };
}

let collect: (() => void) | undefined;

/**
 * A full collection that compacts every page. V8 compacts on its own only the pages it judges fragmented enough,
 * which leaves a burst's scattered survivors holding most of the old space. `gc` is the only way in without a
 * native addon: when the process was not started with --expose-gc, the flag is turned on at run time and `gc`
 * taken from a new context, which V8 sets up with it.
 */
export function compactingCollection(): void {
  collect ??= exposedCollector();
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    collect();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

function exposedCollector(): () => void {
  const startedWithIt = (globalThis as { gc?: () => void }).gc;
  if (startedWithIt) return startedWithIt;
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  if (typeof gc !== 'function') throw new Error('V8 did not expose its collector');
  return gc;
}

function toMB(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}
