// npm start's browser window (build/console-window.mjs), with a stand-in Chromium that records its command line:
// the console opens sandboxed, with a one-time link and never the token; only when Chromium refuses its sandbox
// (as root) is it started again with --no-sandbox, after a line saying why, with a fresh link (issue 7 item 6).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openConsoleWindow } from '../../../build/console-window.mjs';

const dir = mkdtempSync(join(tmpdir(), 'qk-console-window-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'f'.repeat(64);

/** A Chromium that appends its arguments to a log; with REFUSE_SANDBOX it fails as Chromium does as root. */
function fakeChromium(name: string, refuseSandbox: boolean): { binary: string; log: string } {
  const binary = join(dir, name);
  const log = join(dir, `${name}.log`);
  writeFileSync(
    binary,
    `#!/bin/sh
printf '%s\\n' "$*" >> '${log}'
case "$*" in *--no-sandbox*) exit 0 ;; esac
${refuseSandbox ? `echo 'Running as root without --no-sandbox is not supported. See https://crbug.com/638180.' >&2; exit 1` : 'exit 0'}
`,
  );
  chmodSync(binary, 0o755);
  return { binary, log };
}

function launches(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
}

function opened(url: string, options: Parameters<typeof openConsoleWindow>[1], retryUrl?: () => Promise<string>) {
  return new Promise<ReturnType<typeof openConsoleWindow>>((resolve) => {
    const handle = openConsoleWindow(url, { ...options, onExit: () => resolve(handle) });
    if (handle && retryUrl) handle.retryUrl = retryUrl;
    if (!handle) resolve(null);
  });
}

describe('npm start opens the console in Chromium', () => {
  it('sandboxed, from a one-time link: no --no-sandbox, no token on its command line', async () => {
    const { binary, log } = fakeChromium('sandboxed', false);
    const said: string[] = [];
    await opened('http://127.0.0.1:8185/#code=abc123', {
      chromium: binary,
      env: { ...process.env, DISPLAY: ':0' },
      say: (line) => said.push(line),
      uid: 1000,
    });
    const lines = launches(log);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--app=http://127.0.0.1:8185/#code=abc123');
    expect(lines[0]).not.toContain('--no-sandbox');
    expect(lines[0]).not.toContain(TOKEN);
    expect(lines[0]).not.toMatch(/token/i);
    expect(said).toEqual([]);
  });

  it('as root Chromium refuses its sandbox: npm start says why, then opens it with --no-sandbox and a fresh link', async () => {
    const { binary, log } = fakeChromium('as-root', true);
    const said: string[] = [];
    await opened(
      'http://127.0.0.1:8185/#code=first',
      { chromium: binary, env: { ...process.env, DISPLAY: ':0' }, say: (line) => said.push(line), uid: 0 },
      () => Promise.resolve('http://127.0.0.1:8185/#code=second'),
    );
    const lines = launches(log);
    expect(lines).toHaveLength(2);
    expect(lines[0]).not.toContain('--no-sandbox');
    expect(lines[1]).toContain('--no-sandbox');
    expect(lines[1]).toContain('--app=http://127.0.0.1:8185/#code=second');
    expect(said).toEqual([expect.stringMatching(/will not run sandboxed as root.*--no-sandbox.*normal user/)]);
  });

  it('without a display or a Chromium it opens nothing (npm start prints the link instead)', () => {
    const { binary, log } = fakeChromium('no-display', false);
    const env = { ...process.env };
    delete env['DISPLAY'];
    expect(openConsoleWindow('http://127.0.0.1:1/#code=x', { chromium: binary, env })).toBeNull();
    expect(
      openConsoleWindow('http://127.0.0.1:1/#code=x', { chromium: join(dir, 'none'), env: { DISPLAY: ':0' } }),
    ).toBeNull();
    expect(launches(log)).toEqual([]);
  });
});
