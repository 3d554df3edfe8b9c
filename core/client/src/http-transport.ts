/** Calls over plain HTTP: `POST /api/v1/<op>` with the bearer token, through the global fetch. */
import { QkError } from '@qk/model';
import { API_PREFIX, CONSOLE_CODE_PATH } from './contract.js';
import { isEnvelope, unreachable, unwrap, type Transport } from './transport.js';

/**
 * fetch gives up on a response after 300 s without headers, so longer waits are split into rounds of this
 * length; a round that times out has taken nothing, so the next round is the same wait continued.
 */
export const LONG_POLL_ROUND_MS = 240_000;
const WAITING_OPS = new Set(['receive', 'peek', 'receiveBatch']);

/** HTTP transport over fetch. */
export class HttpTransport implements Transport {
  readonly #url: string;
  readonly #token: string;
  readonly #unreachableHint: string;
  readonly #roundMs: number;

  constructor(
    url: string,
    token: string,
    options: { unreachableHint?: string | undefined; longPollRoundMs?: number | undefined } = {},
  ) {
    this.#url = url;
    this.#token = token;
    this.#unreachableHint = options.unreachableHint ?? `No Queuekeeper service is answering at ${url}`;
    this.#roundMs = options.longPollRoundMs ?? LONG_POLL_ROUND_MS;
  }

  async call(op: string, input: unknown, signal?: AbortSignal): Promise<unknown> {
    const timeoutMs = WAITING_OPS.has(op) ? (input as { timeoutMs?: unknown } | undefined)?.timeoutMs : undefined;
    if (typeof timeoutMs !== 'number' || timeoutMs <= this.#roundMs) return this.#post(op, input, signal);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const remaining = Math.max(0, deadline - Date.now());
      const round = Math.min(remaining, this.#roundMs);
      try {
        const value = await this.#post(op, { ...(input as object), timeoutMs: round }, signal);
        const emptyBatch = op === 'receiveBatch' && (value as { messages?: unknown[] }).messages?.length === 0;
        if (!emptyBatch || remaining <= round) return value;
      } catch (error) {
        if (!(error instanceof QkError && error.code === 'IO_TIMEOUT') || remaining <= round) throw error;
      }
    }
  }

  async #post(op: string, input: unknown, signal?: AbortSignal): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.#url}${API_PREFIX}/${encodeURIComponent(op)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.#token}` },
        body: JSON.stringify(input ?? {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw new QkError('OPERATION_CANCELLED', `The ${op} call was cancelled.`);
      throw unreachable(this.#unreachableHint, error);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (signal?.aborted) throw new QkError('OPERATION_CANCELLED', `The ${op} call was cancelled.`);
      throw unreachable(`${this.#unreachableHint}: HTTP ${response.status} without a Queuekeeper reply`, error);
    }
    if (!isEnvelope(body))
      throw unreachable(`${this.#unreachableHint}: HTTP ${response.status} without a Queuekeeper reply`, undefined);
    return unwrap(body);
  }

  async close(): Promise<void> {
    // Nothing to close: fetch pools its own connections.
  }
}

/** `POST /console/code`: a fresh one-time console link of the service at `url`. */
export async function requestConsoleLink(
  url: string,
  token: string,
  unreachableHint: string | undefined,
): Promise<{ url: string; expiresInSeconds: number }> {
  let response: Response;
  try {
    response = await fetch(`${url}${CONSOLE_CODE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{}',
    });
  } catch (error) {
    throw unreachable(unreachableHint ?? `No Queuekeeper service is answering at ${url}`, error);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!isEnvelope(body)) throw unreachable(`${url}: HTTP ${response.status} without a Queuekeeper reply`, undefined);
  return unwrap(body) as { url: string; expiresInSeconds: number };
}
