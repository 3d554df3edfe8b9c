import { describe, expect, it } from 'vitest';
import { ANY_SERVICE_CONNECT_SRC, consoleContentSecurityPolicy } from '@qk/api';
import { consoleCspTags } from '../../../build/vite.config.js';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );
}

describe('the console Content-Security-Policy', () => {
  it('starts from nothing: its own scripts and styles, no inline code, no eval, no frames', () => {
    const policy = directives(consoleContentSecurityPolicy('ws://127.0.0.1:8185'));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:8185']);
    expect([...policy.values()].flat().join(' ')).not.toMatch(/unsafe-(inline|eval)|\*/);
  });

  it('as a meta tag is the same policy without frame-ancestors, which a meta tag cannot carry', () => {
    const header = directives(consoleContentSecurityPolicy(ANY_SERVICE_CONNECT_SRC));
    const meta = directives(consoleContentSecurityPolicy(ANY_SERVICE_CONNECT_SRC, 'meta'));
    header.delete('frame-ancestors');
    expect(meta).toEqual(header);
  });

  it('is what the build writes first into the renderer page', () => {
    expect(consoleCspTags()).toEqual([
      {
        tag: 'meta',
        attrs: {
          'http-equiv': 'Content-Security-Policy',
          content: consoleContentSecurityPolicy(ANY_SERVICE_CONNECT_SRC, 'meta'),
        },
        injectTo: 'head-prepend',
      },
    ]);
  });
});
