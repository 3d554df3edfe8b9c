/**
 * What the side-by-side workloads measure with: hrtime clocks, latency summaries in the shape of the
 * RabbitMQ bench, message bodies that carry their send time, and the service process's RSS and CPU.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const hrNow = (): bigint => process.hrtime.bigint();
/** Microseconds from `a` to `b`. */
export const micros = (a: bigint, b: bigint): number => Number(b - a) / 1000;
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface LatencySummary {
  p50_us: number;
  p99_us: number;
  max_us: number;
}

/** Nearest-rank percentiles as the RabbitMQ bench computes them (floor of p × n), so the two compare. */
export function latencySummary(samples: number[]): LatencySummary {
  samples.sort((a, b) => a - b);
  const at = (p: number): number =>
    samples.length === 0 ? NaN : (samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? NaN);
  return {
    p50_us: Math.round(at(50)),
    p99_us: Math.round(at(99)),
    max_us: Math.round(samples[samples.length - 1] ?? 0),
  };
}

/**
 * A body of `bytes` ASCII characters (at least 30): the first 20 are the send time (hrtime, ns), the next 10
 * the message's number, so the consumer can tell end-to-end latency from the body alone.
 */
export function makeBody(index: number, bytes: number, filler: string): string {
  const head = hrNow().toString().padStart(20, '0') + String(index).padStart(10, '0');
  return (head + filler).slice(0, Math.max(bytes, 30));
}

/** The send time a body carries; NaN-free: a body that is not one of ours counts as sent now. */
export function sentAtOf(body: string | null): bigint {
  if (body === null || body.length < 20) return hrNow();
  return BigInt(body.slice(0, 20));
}

export interface ProcessStats {
  rss_mb: number;
  hwm_mb: number;
  cpu_s: number;
}

let clockTicks = 0;
function ticksPerSecond(): number {
  if (clockTicks === 0) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** RSS, peak RSS and CPU seconds of a process, from /proc; null when it cannot be read. */
export function processStats(pid: number | null): ProcessStats | null {
  if (pid === null) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces); utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuS = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
    return { rss_mb: Math.round(kb('VmRSS') / 1024), hwm_mb: Math.round(kb('VmHWM') / 1024), cpu_s: cpuS };
  } catch {
    return null;
  }
}
