import { describe, expect, test } from 'vitest';
import { Access, CONSOLE_CODE_TTL_MS } from '../../../core/service/src/transports/access.js';

const TOKEN = 'a'.repeat(64);
const access = (options: Partial<ConstructorParameters<typeof Access>[0]> = {}) =>
  new Access({ token: TOKEN, scheme: 'http', ...options });

describe('Host', () => {
  test('loopback names and configured names pass; anything else is ACCESS_DENIED', () => {
    const a = access({ hosts: ['QM1.corp.example'] });
    for (const host of [
      '127.0.0.1:1',
      '127.8.9.10',
      'localhost:8185',
      'x.localhost',
      '[::1]:9',
      'qm1.CORP.example:443',
    ])
      expect(a.checkHost(host), host).toBeNull();
    for (const host of [undefined, '', 'evil.example', '127.0.0.1.evil.example', 'user@127.0.0.1', '10.0.0.1', '::1'])
      expect(a.checkHost(host)?.code, String(host)).toBe('ACCESS_DENIED');
  });
});

describe('Origin', () => {
  test('none, its own, the Electron app and allowed ones pass; the rest are refused', () => {
    const a = access({ origins: ['http://console.example:8185'] });
    const host = '127.0.0.1:8185';
    expect(a.checkOrigin(undefined, host)).toBeNull();
    expect(a.checkOrigin('http://127.0.0.1:8185', host)).toBeNull();
    expect(a.checkOrigin('app://console', host)).toBeNull();
    expect(a.checkOrigin('http://CONSOLE.example:8185', host)).toBeNull();
    expect(a.isAllowedForeignOrigin('http://console.example:8185', host)).toBe(true);
    expect(a.isAllowedForeignOrigin('http://127.0.0.1:8185', host)).toBe(false);
    for (const origin of ['null', 'http://127.0.0.1:8186', 'https://127.0.0.1:8185', 'http://evil.example', 'file://'])
      expect(a.checkOrigin(origin, host)?.code, origin).toBe('ACCESS_DENIED');
  });

  test('over TLS its own origin is https', () => {
    const a = access({ scheme: 'https' });
    expect(a.checkOrigin('https://qm1:8443', 'qm1:8443')).toBeNull();
    expect(a.checkOrigin('http://qm1:8443', 'qm1:8443')?.code).toBe('ACCESS_DENIED');
  });
});

describe('console codes', () => {
  test('a code opens one session, once, within its minute; the session is a token of its own', () => {
    const a = access();
    const code = a.mintCode(1_000);
    const session = a.redeem(code, 2_000) as string;
    expect(session).toMatch(/^[0-9a-f]{64}$/);
    expect(a.acceptsToken(session)).toBe(true);
    expect(a.acceptsToken(TOKEN)).toBe(true);
    expect(a.acceptsToken(undefined)).toBe(false);
    expect(a.redeem(code, 2_000)).toBeUndefined();
    const late = a.mintCode(10_000);
    expect(a.redeem(late, 10_000 + CONSOLE_CODE_TTL_MS)).toBeUndefined();
    expect(a.redeem('guess', 10_000)).toBeUndefined();
  });
});
