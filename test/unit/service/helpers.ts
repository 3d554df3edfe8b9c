/** Shared set-up for service tests: temp data folders and a service over the fake engine. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh data folder, removed by the returned cleanup. */
export function tempDataDir(prefix = 'qk-service-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** POSTs one operation and returns status and parsed body. */
export async function post(
  url: string,
  op: string,
  body: unknown,
  token: string | undefined,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/api/v1/${op}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
