/** Assertions on `qk` results that print the command and its stderr when they fail. */
import { expect } from 'vitest';
import type { QkResult } from './service-harness.js';
import type { QkErrorBody } from './qk-types.js';

/** Asserts exit code 0 and returns the stdout JSON. */
export function ok<T>(result: QkResult<T>): T {
  if (result.exitCode !== 0) {
    throw new Error(
      `expected success from\n  ${result.command}\nbut got exit ${result.exitCode}\n  stderr: ${result.stderr.trim()}`,
    );
  }
  return result.json;
}

/**
 * Asserts that the operation failed (exit 1, CLI.md) with the given error code in the stderr document,
 * and that the message says something. Returns the error body.
 */
export function failsWith(result: QkResult<unknown>, code: string): QkErrorBody['error'] {
  const body = result.json as QkErrorBody | null;
  const context = `${result.command}\n  exit ${result.exitCode}\n  stdout: ${result.stdout.trim()}\n  stderr: ${result.stderr.trim()}`;
  expect(body?.error?.code, context).toBe(code);
  expect(result.exitCode, context).toBe(1);
  expect(body?.error?.message ?? '', context).not.toBe('');
  return (body as QkErrorBody).error;
}

/** Polls `probe` until it returns a value that is not undefined/false, or the deadline passes. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 5_000,
  intervalMs = 300,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
