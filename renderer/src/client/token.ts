/**
 * The service token in browser mode: read once from `#token=…`, removed from the visible URL (so it
 * is not bookmarked or shared by accident) and kept in sessionStorage for reloads of this tab.
 */
const STORAGE_KEY = 'queuekeeper.token';

/** The token from the URL hash or this tab's session, or null when the login step must ask. */
export function takeToken(
  loc: Location = window.location,
  history: History = window.history,
  storage: Storage = window.sessionStorage,
): string | null {
  const match = /(?:^#|&)token=([^&]+)/.exec(loc.hash);
  if (match?.[1]) {
    const token = decodeURIComponent(match[1]);
    storage.setItem(STORAGE_KEY, token);
    history.replaceState(null, '', `${loc.pathname}${loc.search}`);
    return token;
  }
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
