/** Small timing and statistics helpers shared by the bench sections. */
import { performance } from 'node:perf_hooks';

export const now = (): number => performance.now();

/** The p-th percentile (0–100) of samples, nearest-rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Messages per second of `count` messages in `ms` milliseconds. */
export const rate = (count: number, ms: number): number => (ms > 0 ? (count * 1000) / ms : Infinity);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `total` units with `lanes` of them in flight at once: each lane awaits one unit and starts the next.
 * Returns the elapsed milliseconds.
 */
export async function inFlight(
  total: number,
  lanes: number,
  unit: (index: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = now();
  const lane = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      await unit(i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, total)) }, lane));
  return now() - started;
}

/**
 * Keeps `lanes` units in flight until `durationMs` has passed (no unit starts after that), counting what each
 * unit reports it did. Returns the count and the elapsed milliseconds up to the last completion.
 */
export async function forDuration(
  durationMs: number,
  lanes: number,
  unit: () => Promise<number>,
): Promise<{ count: number; ms: number }> {
  let count = 0;
  const started = now();
  const deadline = started + durationMs;
  const lane = async (): Promise<void> => {
    while (now() < deadline) {
      // Not `count += await unit()`: that reads `count` before the await and loses the other lanes' counts.
      const done = await unit();
      count += done;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
  return { count, ms: now() - started };
}

/** Formats a number for the table: thousands separators, sensible precision. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** The best (highest) of `rounds` runs of `run`. */
export async function bestOf(rounds: number, run: () => Promise<number>): Promise<number> {
  let best = -Infinity;
  for (let i = 0; i < rounds; i++) best = Math.max(best, await run());
  return best;
}
