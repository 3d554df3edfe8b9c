/**
 * The service's HTTP API as CLI.md describes it (`POST /api/v1/<operation>` with the bearer token from the
 * data folder), for what `qk` has no command for: a transaction that is aborted. Black-box like `qk`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Calls one operation; resolves with its value, rejects with the `{code, message}` error it answered. */
export async function callApi<T = unknown>(dataDir: string, operation: string, input: unknown): Promise<T> {
  const { url } = JSON.parse(readFileSync(join(dataDir, 'service.json'), 'utf8')) as { url: string };
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  const response = await fetch(`${url.replace(/\/$/, '')}/api/v1/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const answer = (await response.json()) as
    { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.value;
}
