// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { forgetToken, rememberToken, takeToken } from '../../../../renderer/src/client/token.js';

describe('browser-mode token', () => {
  it('takes the token from #token=…, removes it from the visible URL and keeps it for this tab', () => {
    window.history.replaceState(null, '', '/console/?x=1#token=abc%2Fdef');
    sessionStorage.clear();
    expect(takeToken()).toBe('abc/def');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/console/?x=1');
    expect(takeToken()).toBe('abc/def');
  });

  it('asks (null) when neither the URL nor the session has one; remembers a typed one', () => {
    window.history.replaceState(null, '', '/');
    sessionStorage.clear();
    expect(takeToken()).toBeNull();
    rememberToken('typed');
    expect(takeToken()).toBe('typed');
    forgetToken();
    expect(takeToken()).toBeNull();
  });
});
