/**
 * The service's HTTP API as CLI.md defines it (`POST /api/v1/<operation>`, bearer token, JSON envelope), with
 * every call's outcome told apart the way the drills' bookkeeping needs: the service answered yes, the
 * service answered no, or no answer came (the call may or may not have happened). Written from the contract,
 * not with the product's client, so a drill sees exactly what reached the wire.
 */
import { harnessStallBetween, socketUseOf, watchWire } from './wire-watch.js';

/** What one call came to. */
export type CallOutcome<T = unknown> =
  /** The service answered `{"ok":true,…}`: the operation happened. */
  | { kind: 'ok'; status: number; value: T }
  /** The service answered `{"ok":false,…}`: the operation was refused and changed nothing. */
  | { kind: 'refused'; status: number; code: string; message: string }
  /**
   * No answer (connection refused or cut, timed out): the operation may or may not have happened. `wire` says
   * what the harness saw meanwhile (wire-watch.ts): its own loop's longest stall, the connection's idle time.
   */
  | { kind: 'no-reply'; error: string; wire?: string }
  /** An answer that is not the contract's envelope: always a finding. */
  | { kind: 'malformed'; status: number; text: string };

export interface CallOptions {
  /** Give up waiting after this long (default 60 s); the outcome is then `no-reply`. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Calls of one running service. */
export class ApiSession {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  /** Calls one operation with a JSON input. */
  async call<T = unknown>(op: string, input: unknown, options: CallOptions = {}): Promise<CallOutcome<T>> {
    return this.post<T>(`/api/v1/${op}`, JSON.stringify(input ?? {}), options);
  }

  /** Calls one operation and returns its value; throws with the outcome when it did not succeed. */
  async value<T = unknown>(op: string, input: unknown, options: CallOptions = {}): Promise<T> {
    const outcome = await this.call<T>(op, input, options);
    if (outcome.kind !== 'ok') throw new Error(`${op} did not succeed: ${JSON.stringify(outcome)}`);
    return outcome.value;
  }

  /** Posts a raw body to any path under the service (the fuzz drill sends what a careless client would). */
  async post<T = unknown>(
    path: string,
    body: string,
    options: CallOptions & { headers?: Record<string, string> } = {},
  ): Promise<CallOutcome<T>> {
    watchWire();
    const sentAt = Date.now();
    const signals = [AbortSignal.timeout(options.timeoutMs ?? 60_000)];
    if (options.signal) signals.push(options.signal);
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.token}`,
          'content-type': 'application/json',
          ...options.headers,
        },
        body,
        signal: AbortSignal.any(signals),
      });
      text = await response.text();
    } catch (error) {
      return { kind: 'no-reply', error: describe(error), wire: wireContext(error, sentAt) };
    }
    return classify<T>(response.status, text);
  }
}

function classify<T>(status: number, text: string): CallOutcome<T> {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return { kind: 'malformed', status, text: text.slice(0, 500) };
  }
  if (typeof envelope === 'object' && envelope !== null) {
    const record = envelope as Record<string, unknown>;
    if (record['ok'] === true && 'value' in record) return { kind: 'ok', status, value: record['value'] as T };
    const error = record['error'] as Record<string, unknown> | undefined;
    if (record['ok'] === false && typeof error?.['code'] === 'string' && typeof error['message'] === 'string') {
      return { kind: 'refused', status, code: error['code'], message: error['message'] };
    }
  }
  return { kind: 'malformed', status, text: text.slice(0, 500) };
}

function wireContext(error: unknown, sentAt: number): string {
  const parts = [`at ${new Date(sentAt).toISOString()}, ${Date.now() - sentAt} ms`];
  parts.push(`harness loop held up to ${harnessStallBetween(sentAt, Date.now())} ms meanwhile`);
  const use = socketUseOf(error);
  if (use)
    parts.push(
      `connection :${use.localPort} request #${use.requests}, idle ${use.idleBeforeMs ?? '?'} ms before it was reused`,
    );
  return parts.join('; ');
}

function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    parts.push(code ? `${code}: ${current.message}` : current.message);
    current = (current as Error & { cause?: unknown }).cause;
  }
  return parts.join(' <- ') || String(error);
}
