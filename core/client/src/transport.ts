/** What the client needs from a transport: one call, and closing. */
import type { Envelope } from '@qk/api';
import { QkError } from '@qk/model';

/** Carries one operation call to the service. */
export interface Transport {
  call(op: string, input: unknown, signal?: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

/** Turns an envelope into its value, or throws its error as a QkError with the service's code. */
export function unwrap(envelope: Envelope<unknown>): unknown {
  if (envelope.ok) return envelope.value;
  throw new QkError(envelope.error.code, envelope.error.message);
}

/** Whether a value looks like the contract's envelope. */
export function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record['ok'] === true) return 'value' in record;
  if (record['ok'] !== false) return false;
  const error = record['error'] as Record<string, unknown> | undefined;
  return typeof error?.['code'] === 'string' && typeof error['message'] === 'string';
}

/** The error for a service that cannot be reached; `hint` says where we looked. */
export function unreachable(hint: string, cause: unknown): QkError {
  const why = describeCause(cause);
  return new QkError('SERVICE_NOT_AVAILABLE', why ? `${hint} (${why})` : hint);
}

function describeCause(cause: unknown): string {
  let current: unknown = cause;
  // fetch wraps the socket error: "fetch failed" → cause ECONNREFUSED.
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code) return `${code}: ${current.message}`;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return cause instanceof Error ? cause.message : '';
}

/** Base URL without a trailing slash. */
export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QkError('INVALID_PARAMETER', `'${url}' is not a service URL; expected http://HOST:PORT.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new QkError('INVALID_PARAMETER', `'${url}' is not a service URL; expected http://HOST:PORT.`);
  }
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
}
