// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  forgetToken,
  redeemLinkCode,
  rememberToken,
  storedToken,
  takeLinkCode,
} from '../../../../renderer/src/client/token.js';

describe('browser-mode sign-in', () => {
  it('takes the one-time code from #code=…, and removes it from the visible URL', () => {
    window.history.replaceState(null, '', '/console/?x=1#code=abc%2Fdef');
    expect(takeLinkCode()).toBe('abc/def');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/console/?x=1');
    expect(takeLinkCode()).toBeNull();
  });

  it('never reads a token from the URL', () => {
    window.history.replaceState(null, '', '/#token=secret');
    sessionStorage.clear();
    expect(takeLinkCode()).toBeNull();
    expect(storedToken()).toBeNull();
  });

  it('exchanges the code for a session token once, and keeps it for this tab', async () => {
    sessionStorage.clear();
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { token: 'session-1' } })));
    await expect(redeemLinkCode('http://127.0.0.1:9/', 'c0de', fetchImpl as never)).resolves.toBe('session-1');
    expect(fetchImpl).toHaveBeenCalledWith(
      'http://127.0.0.1:9/console/session',
      expect.objectContaining({ method: 'POST', body: JSON.stringify({ code: 'c0de' }) }),
    );
    expect(storedToken()).toBe('session-1');
  });

  it('a used or expired code is UNAUTHORIZED and leaves no session', async () => {
    sessionStorage.clear();
    const fetchImpl = vi.fn(
      async () =>
        new Response(JSON.stringify({ ok: false, error: { code: 'UNAUTHORIZED', message: 'used' } }), { status: 401 }),
    );
    await expect(redeemLinkCode('http://h:1', 'old', fetchImpl as never)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect(storedToken()).toBeNull();
  });

  it('remembers a typed token and forgets a refused one', () => {
    sessionStorage.clear();
    rememberToken('typed');
    expect(storedToken()).toBe('typed');
    forgetToken();
    expect(storedToken()).toBeNull();
  });
});
