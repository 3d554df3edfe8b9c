/**
 * How the browser console signs in. Its link carries a one-time code (`#code=…`, from `qk console`, `npm
 * start` or `qk service start`), never the token: the code is taken out of the visible URL, exchanged once
 * for a session token (`POST /console/session`), and the session is kept in sessionStorage for reloads of
 * this tab. A token typed at the login step is kept the same way.
 */
import { CONSOLE_SESSION_PATH, type Envelope } from '@qk/api';
import { ApiError, unwrap } from './console-client.js';

const STORAGE_KEY = 'queuekeeper.token';

/** The one-time code of the URL, removed from it (so it is not bookmarked or shared); null when there is none. */
export function takeLinkCode(loc: Location = window.location, history: History = window.history): string | null {
  const match = /(?:^#|&)code=([^&]+)/.exec(loc.hash);
  if (!match?.[1]) return null;
  history.replaceState(null, '', `${loc.pathname}${loc.search}`);
  return decodeURIComponent(match[1]);
}

/** Exchanges a link's code for a session token of the service at `baseUrl`, and keeps it for this tab. */
export async function redeemLinkCode(
  baseUrl: string,
  code: string,
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
  storage: Storage = window.sessionStorage,
): Promise<string> {
  let envelope: Envelope<{ token: string }>;
  try {
    const response = await fetchImpl(`${baseUrl.replace(/\/+$/, '')}${CONSOLE_SESSION_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    envelope = (await response.json()) as Envelope<{ token: string }>;
  } catch (error) {
    throw new ApiError({ code: 'SERVICE_NOT_AVAILABLE', message: `The service cannot be reached (${String(error)}).` });
  }
  const { token } = unwrap(envelope);
  storage.setItem(STORAGE_KEY, token);
  return token;
}

/** This tab's session (from a link or the login step), or null when the login step must ask. */
export function storedToken(storage: Storage = window.sessionStorage): string | null {
  return storage.getItem(STORAGE_KEY);
}

/** Remembers a token typed at the login step. */
export function rememberToken(token: string, storage: Storage = window.sessionStorage): void {
  storage.setItem(STORAGE_KEY, token);
}

/** Forgets the token (it was refused). */
export function forgetToken(storage: Storage = window.sessionStorage): void {
  storage.removeItem(STORAGE_KEY);
}
