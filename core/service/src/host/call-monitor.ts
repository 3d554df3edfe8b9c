/**
 * Slowness made visible to the operator (issue 7): every call that takes longer than a threshold, and every
 * stretch in which the event loop was held (nothing else answered meanwhile), is logged as one structured
 * line — operation, duration, sizes, the queue it named; never a body, never the token.
 *
 * Stalls are found by a timer's drift: a timer due every SAMPLE_MS that runs late by more than the stall
 * threshold means the loop was busy with something else all that time. The line names every call that was
 * running during the stall: still in flight, or finished since the previous tick — a call that held the loop
 * synchronously has usually finished (and answered) before a timer can run again, so in-flight calls alone
 * would miss the culprit.
 */
import { silentLogger, type Logger } from '@qk/model';
import { auditTarget } from './audit-log.js';

/** A call slower than this is logged (beyond the wait it asked for). */
export const SLOW_CALL_MS = 1_000;
/** The loop held for longer than this is logged (a starved CPU alone delays timers by some hundred ms). */
export const STALL_MS = 1_000;
/** How often the loop's drift is sampled. */
const SAMPLE_MS = 100;
/** Calls named in one stall line; more are counted, not listed. */
const LISTED_CALLS = 20;
/** Calls remembered between two ticks (a stall line lists LISTED_CALLS of them and counts the rest). */
const KEPT_ENDED = 10_000;
/** Queue paths in log lines are cut here (a hostile path can be 70,000 characters). */
const TARGET_LIMIT = 200;

/** What a transport knows about a call's size before it runs. */
export interface CallSize {
  /** Bytes of the request body (HTTP: its content length). */
  inputBytes?: number | undefined;
  /** The connection the call came on (WebSocket calls). */
  connectionId?: string | undefined;
}

/** How a call ended, for its log line. */
export interface CallEnd {
  ok: boolean;
  code?: string | undefined;
  /** Items of the reply when it is a list (messages of a browse or batch, queues of a list). */
  replyItems?: number | undefined;
}

interface Running {
  op: string;
  logSlow: boolean;
  started: number;
  /** The wait the caller asked for (receive/peek timeoutMs): time spent in it is not slowness. */
  waitMs: number;
  target: string | undefined;
  size: CallSize;
  ended?: number;
}

export interface CallMonitorOptions {
  logger?: Logger | undefined;
  slowCallMs?: number | undefined;
  stallMs?: number | undefined;
  sampleMs?: number | undefined;
  now?: (() => number) | undefined;
}

/** Streamed calls run as long as their caller reads: their length says nothing about the service. */
const LONG_BY_DESIGN: ReadonlySet<string> = new Set(['consume']);

function cut(target: string | undefined): string | undefined {
  if (target === undefined || target.length <= TARGET_LIMIT) return target;
  return `${target.slice(0, TARGET_LIMIT)}… (${target.length} characters)`;
}

function waitOf(input: unknown): number {
  const wait = (input as { timeoutMs?: unknown } | null)?.timeoutMs;
  return typeof wait === 'number' && Number.isFinite(wait) && wait > 0 ? wait : 0;
}

/** The number of items of a list reply: the value itself, or its one array field (`messages`, `ids`, …). */
export function replyItemsOf(value: unknown): number | undefined {
  if (Array.isArray(value)) return value.length;
  if (value === null || typeof value !== 'object') return undefined;
  for (const field of Object.values(value)) if (Array.isArray(field)) return field.length;
  return undefined;
}

/** Watches the calls of one host and the event loop they share. */
export class CallMonitor {
  readonly #logger: Logger;
  readonly #slowCallMs: number;
  readonly #stallMs: number;
  readonly #sampleMs: number;
  readonly #now: () => number;
  readonly #running = new Set<Running>();
  /** Calls that ended since the previous tick: they ran during whatever stall the next tick finds. */
  #ended: Running[] = [];
  #timer: NodeJS.Timeout | undefined;
  #lastTick = 0;
  /** Figures since the monitor started, for the status and for tests. */
  readonly totals = { slowCalls: 0, stalls: 0, longestStallMs: 0 };

  constructor(options: CallMonitorOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#slowCallMs = options.slowCallMs ?? SLOW_CALL_MS;
    this.#stallMs = options.stallMs ?? STALL_MS;
    this.#sampleMs = options.sampleMs ?? SAMPLE_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Starts sampling the loop's drift; the timer never keeps the process alive. Idempotent. */
  start(): void {
    if (this.#timer) return;
    this.#lastTick = this.#now();
    this.#timer = setInterval(() => this.tick(), this.#sampleMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Marks a call as running; the returned function ends it (and logs it when it was slow). `logSlow: false`
   * tracks it for stall lines only (a transport's request around an operation that logs its own slowness).
   */
  begin(op: string, input: unknown, size: CallSize = {}, options: { logSlow?: boolean } = {}): (end: CallEnd) => void {
    const call: Running = {
      op,
      logSlow: options.logSlow ?? true,
      started: this.#now(),
      waitMs: waitOf(input),
      target: cut(auditTarget(input)),
      size,
    };
    this.#running.add(call);
    return (end) => {
      if (!this.#running.delete(call)) return;
      call.ended = this.#now();
      if (this.#ended.length < KEPT_ENDED) this.#ended.push(call);
      const durationMs = call.ended - call.started;
      if (!call.logSlow || durationMs - call.waitMs <= this.#slowCallMs || LONG_BY_DESIGN.has(op)) return;
      this.totals.slowCalls += 1;
      this.#logger.warn(
        {
          op,
          durationMs: Math.round(durationMs),
          ...(call.waitMs > 0 ? { waitMs: call.waitMs } : {}),
          ...(call.target !== undefined ? { target: call.target } : {}),
          ...definedOf(size),
          ok: end.ok,
          ...(end.code !== undefined ? { code: end.code } : {}),
          ...(end.replyItems !== undefined ? { replyItems: end.replyItems } : {}),
        },
        `A call took ${Math.round(durationMs)} ms: ${op}`,
      );
    };
  }

  /** Calls running now. */
  get inFlight(): number {
    return this.#running.size;
  }

  /** One drift sample (the timer calls it; tests may too). */
  tick(): void {
    const now = this.#now();
    const stallMs = now - this.#lastTick - this.#sampleMs;
    const from = this.#lastTick;
    this.#lastTick = now;
    const ended = this.#ended;
    this.#ended = [];
    if (stallMs < this.#stallMs) return;
    this.totals.stalls += 1;
    this.totals.longestStallMs = Math.max(this.totals.longestStallMs, stallMs);
    const during = [...ended, ...this.#running].filter((c) => c.started <= now && (c.ended ?? now) >= from);
    this.#logger.warn(
      {
        stallMs: Math.round(stallMs),
        callsDuring: during.length,
        calls: during.slice(0, LISTED_CALLS).map((c) => ({
          op: c.op,
          ...(c.target !== undefined ? { target: c.target } : {}),
          ...definedOf(c.size),
          runningMs: Math.round((c.ended ?? now) - c.started),
          state: c.ended === undefined ? 'in flight' : 'ended',
        })),
      },
      `The event loop was held for ${Math.round(stallMs)} ms`,
    );
  }
}

function definedOf(size: CallSize): Partial<CallSize> {
  return Object.fromEntries(Object.entries(size).filter(([, v]) => v !== undefined));
}
