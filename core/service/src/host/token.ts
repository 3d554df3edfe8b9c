/** The service's access token: generated once, kept in `DIR/token` (mode 0600) so scripts keep working across restarts. */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKEN_FILE } from '@qk/api';

const TOKEN_RE = /^[0-9a-f]{64}$/;

/** Reads the token of `dataDir`, creating a fresh random one (32 bytes, hex) at first start. */
export function loadOrCreateToken(dataDir: string): string {
  const path = join(dataDir, TOKEN_FILE);
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (TOKEN_RE.test(existing)) {
      // Tighten permissions if someone loosened them: the token is the only key to the service.
      chmodSync(path, 0o600);
      return existing;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('hex');
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

/** Compares a presented token with the expected one in constant time (hashing first equalizes lengths). */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer …` header, if that is what it holds. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}
