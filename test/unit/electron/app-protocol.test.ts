// The app:// protocol serves the renderer build and nothing else; the IPC bridge serves only the page it loads.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APP_INDEX_URL,
  appFilePath,
  handleAppProtocol,
  registerAppScheme,
  serveAppRequest,
} from '../../../electron/app-protocol.js';
import { isTrustedSender } from '../../../electron/ipc.js';

const CSP = "default-src 'none'; script-src 'self'";
let base = '';
let rendererDir = '';

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'qk-app-protocol-'));
  rendererDir = join(base, 'dist/renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(rendererDir, 'assets/index-abc.js'), 'console.log(1);');
  writeFileSync(join(rendererDir, 'assets/data.bin'), Buffer.from([0, 1, 2]));
  writeFileSync(join(base, 'secret.txt'), 'the token');
  writeFileSync(join(base, 'dist/electron-main.cjs'), 'main');
  // A link inside the folder that points out of it.
  symlinkSync(join(base, 'secret.txt'), join(rendererDir, 'assets/link.txt'));
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

const get = (url: string, init?: RequestInit & { initiatorOrigin?: string }) => {
  const request = new Request(url, init);
  if (init?.initiatorOrigin !== undefined) Object.assign(request, { initiatorOrigin: init.initiatorOrigin });
  return serveAppRequest(request, { rendererDir, contentSecurityPolicy: CSP });
};

describe('appFilePath', () => {
  it('maps app://console/… to files inside the renderer build; / is index.html', () => {
    expect(appFilePath(rendererDir, 'app://console/')).toBe(join(rendererDir, 'index.html'));
    expect(appFilePath(rendererDir, APP_INDEX_URL)).toBe(join(rendererDir, 'index.html'));
    expect(appFilePath(rendererDir, 'app://console/assets/index-abc.js?v=1#x')).toBe(
      join(rendererDir, 'assets/index-abc.js'),
    );
  });

  it('refuses every way out of the folder, and URLs that are not ours', () => {
    // (`..` and `%2e%2e` segments are resolved by the URL parser first, so they cannot climb out: see below.)
    for (const url of [
      'app://console/assets/..%2f..%2fsecret.txt',
      'app://console/assets/..%5c..%5csecret.txt',
      'app://console/..%2f..%2f..%2fetc%2fpasswd',
      'app://console/index.html%00.js',
      'app://console/%E0%A4%A',
      'app://other/index.html',
      'file:///etc/passwd',
      'https://console/index.html',
      'not a url',
    ]) {
      expect(appFilePath(rendererDir, url), url).toBeNull();
    }
  });
});

describe('serveAppRequest', () => {
  it('serves the page with the console CSP, scripts with their type, nothing sniffed', async () => {
    const page = await get(APP_INDEX_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(await page.text()).toContain('<title>console</title>');
    const script = await get('app://console/assets/index-abc.js', { initiatorOrigin: 'app://console' });
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await script.text()).toBe('console.log(1);');
    const bytes = await get('app://console/assets/data.bin');
    expect(bytes.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([0, 1, 2]);
  });

  it('answers HEAD without a body', async () => {
    const head = await get(APP_INDEX_URL, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('never serves a file outside the build: traversal, a symlink out, a missing file', async () => {
    for (const url of [
      'app://console/%2e%2e/secret.txt',
      'app://console/assets/..%2f..%2fsecret.txt',
      'app://console/assets/link.txt',
      'app://console/missing.js',
      'app://console/assets',
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toContain('the token');
    }
  });

  it('refuses other methods and requests started by another origin', async () => {
    expect((await get(APP_INDEX_URL, { method: 'POST', body: 'x' })).status).toBe(405);
    expect((await get(APP_INDEX_URL, { initiatorOrigin: 'https://evil.example' })).status).toBe(403);
    expect((await get(APP_INDEX_URL, { initiatorOrigin: 'null' })).status).toBe(403);
  });
});

describe('registration', () => {
  it('makes app: a standard, secure scheme that does not bypass the CSP', () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged });
    const [schemes] = registerSchemesAsPrivileged.mock.calls[0] as [Electron.CustomScheme[]];
    expect(schemes).toHaveLength(1);
    expect(schemes[0]?.scheme).toBe(new URL(APP_INDEX_URL).protocol.slice(0, -1));
    expect(schemes[0]?.privileges).toMatchObject({ standard: true, secure: true });
    expect(schemes[0]?.privileges?.bypassCSP).toBeFalsy();
    expect(schemes[0]?.privileges?.corsEnabled).toBeFalsy();
  });

  it('the handler registered for the scheme serves the renderer build', async () => {
    const handle = vi.fn();
    handleAppProtocol({ handle }, { rendererDir, contentSecurityPolicy: CSP });
    const [scheme, handler] = handle.mock.calls[0] as [string, (request: Request) => Promise<Response>];
    expect(`${scheme}:`).toBe(new URL(APP_INDEX_URL).protocol);
    expect(await (await handler(new Request(APP_INDEX_URL))).text()).toContain('console');
  });
});

describe('the IPC bridge serves only the app:// page', () => {
  const contents = {};
  const trusted = { webContents: () => contents as never, indexUrl: APP_INDEX_URL };
  const from = (url: string) => ({ sender: contents as never, senderFrame: { url, parent: null } as never });

  it('accepts our window showing app://console/index.html', () => {
    expect(isTrustedSender(from(`${APP_INDEX_URL}#/queues`), trusted)).toBe(true);
  });

  it('refuses the same file under file://, another page, and another host', () => {
    expect(isTrustedSender(from(`file://${rendererDir}/index.html`), trusted)).toBe(false);
    expect(isTrustedSender(from('app://console/other.html'), trusted)).toBe(false);
    expect(isTrustedSender(from('app://evil/index.html'), trusted)).toBe(false);
    expect(isTrustedSender(from('https://console/index.html'), trusted)).toBe(false);
  });
});
