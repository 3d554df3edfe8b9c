// npm start's Electron part: find the runtime, install it with Electron's installer when missing (a stand-in
// installer here, and a fake install.js that downloads from a local server for the real child process), and say
// why when the desktop app cannot open.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  desktopApp,
  electronCannotRun,
  ensureElectron,
  fallbackLine,
  findElectron,
  installFailureReason,
  runElectronInstaller,
  type Installer,
} from '../../../build/electron-runtime.mjs';

const roots: string[] = [];

/** A project root whose node_modules/electron is the package as npm installs it: no runtime yet. */
function projectRoot(installScript = 'process.exit(0);'): string {
  const root = mkdtempSync(join(tmpdir(), 'qk-electron-runtime-'));
  roots.push(root);
  const pkg = join(root, 'node_modules/electron');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'electron', version: '45.5.0', engines: { node: '>= 22.12.0' } }),
  );
  writeFileSync(join(pkg, 'install.js'), installScript);
  return root;
}

/** What install.js leaves behind when it succeeds: dist/<binary>, dist/version and path.txt. */
function installRuntime(root: string, version = '45.5.0'): string {
  const pkg = join(root, 'node_modules/electron');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'dist/electron'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(join(pkg, 'dist/version'), `v${version}`);
  writeFileSync(join(pkg, 'path.txt'), 'electron');
  return join(pkg, 'dist/electron');
}

const noSkip = { PATH: process.env['PATH'] ?? '' };

afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('findElectron', () => {
  it('finds nothing in a fresh install (Electron 45 downloads its runtime only when asked)', () => {
    expect(findElectron(projectRoot(), noSkip)).toBeNull();
  });

  it('finds the binary path.txt names inside dist/', () => {
    const root = projectRoot();
    const binary = installRuntime(root);
    expect(findElectron(root, noSkip)).toBe(binary);
  });

  it('treats a runtime of another version as missing, so the installer replaces it', () => {
    const root = projectRoot();
    installRuntime(root, '44.0.0');
    expect(findElectron(root, noSkip)).toBeNull();
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH as node_modules/electron/index.js does', () => {
    const root = projectRoot();
    const dist = join(root, 'custom');
    mkdirSync(dist);
    expect(findElectron(root, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toBeNull();
    writeFileSync(join(dist, 'electron'), '');
    expect(findElectron(root, { ELECTRON_OVERRIDE_DIST_PATH: dist })).toBe(join(dist, 'electron'));
  });
});

describe('ensureElectron', () => {
  it('runs the installer when the runtime is missing, says so, and returns the installed binary', async () => {
    const root = projectRoot();
    const lines: string[] = [];
    const install = vi.fn<Installer>(async ({ root: at }) => {
      installRuntime(at);
      return { ok: true };
    });
    const result = await ensureElectron({ root, env: noSkip, say: (line) => lines.push(line), install });
    expect(install).toHaveBeenCalledTimes(1);
    expect(result).toEqual({ binary: join(root, 'node_modules/electron/dist/electron') });
    expect(lines[0]).toMatch(/running Electron's installer to download Electron 45\.5\.0/);
    expect(lines.at(-1)).toBe('Electron 45.5.0 installed.');
  });

  it('names the Node version the installer asks for when this one is older', async () => {
    const lines: string[] = [];
    await ensureElectron({
      root: projectRoot(),
      env: noSkip,
      say: (line) => lines.push(line),
      install: async () => ({ ok: false, reason: 'x' }),
    });
    const older = Number(process.versions.node.split('.')[0]) < 22;
    expect(lines[0]?.includes('asks for Node 22.12.0 or later')).toBe(older);
  });

  it('when the installer fails, returns its reason in one line for the fallback', async () => {
    const install = vi.fn<Installer>(async () => ({
      ok: false,
      reason: 'github.com could not be reached (getaddrinfo ENOTFOUND)',
    }));
    const result = await ensureElectron({ root: projectRoot(), env: noSkip, say: () => undefined, install });
    expect(result.binary).toBeUndefined();
    const line = fallbackLine(result.reason ?? '');
    expect(line).toContain('the Electron download failed: github.com could not be reached (getaddrinfo ENOTFOUND)');
    expect(line).toContain('browser');
    expect(line).not.toContain('\n');
  });

  it('an installer that succeeds without leaving a runtime is a failure, not a crash later', async () => {
    const result = await ensureElectron({
      root: projectRoot(),
      env: noSkip,
      say: () => undefined,
      install: async () => ({ ok: true }),
    });
    expect(result.reason).toMatch(/left no runtime/);
  });

  it('does not run the installer when the runtime is there, or when the download is switched off', async () => {
    const install = vi.fn<Installer>(async () => ({ ok: true }));
    const installed = projectRoot();
    installRuntime(installed);
    expect((await ensureElectron({ root: installed, env: noSkip, say: () => undefined, install })).binary).toBeTruthy();
    const skipped = await ensureElectron({
      root: projectRoot(),
      env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      say: () => undefined,
      install,
    });
    expect(skipped.reason).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD/);
    expect(install).not.toHaveBeenCalled();
  });
});

describe('runElectronInstaller (a real child process running a stand-in install.js)', () => {
  let server: Server;
  let base = '';
  const payload = Buffer.alloc(3_000_000, 7);

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/electron.zip') {
        response.writeHead(200, { 'content-length': payload.length });
        response.end(payload);
      } else {
        response.writeHead(404, 'Not Found');
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  // Downloads as @electron/get's FetchDownloader does (global fetch, body streamed to a file), then unpacks by
  // writing dist/ and path.txt; on failure it prints the stack and exits 1, as install.js does.
  const fakeInstaller = `
    const fs = require('node:fs');
    const path = require('node:path');
    const { pipeline } = require('node:stream/promises');
    const { Readable } = require('node:stream');
    (async () => {
      const response = await fetch(process.env.FAKE_URL);
      if (!response.ok) throw new Error('HTTPError: Response code ' + response.status);
      fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
      await pipeline(Readable.fromWeb(response.body), fs.createWriteStream(path.join(__dirname, 'dist/electron.zip')));
      fs.writeFileSync(path.join(__dirname, 'dist/electron'), '');
      fs.writeFileSync(path.join(__dirname, 'dist/version'), 'v45.5.0');
      fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');
    })().catch((err) => { console.error(err.stack); process.exit(1); });
  `;

  it('shows the download progress, and the runtime is then found', async () => {
    const root = projectRoot(fakeInstaller);
    let output = '';
    const result = await runElectronInstaller({
      root,
      env: { ...noSkip, FAKE_URL: `${base}/electron.zip` },
      stdout: (text) => {
        output += text;
      },
    });
    expect(result).toEqual({ ok: true });
    expect(output).toContain(`Downloading ${base}/electron.zip`);
    expect(output).toMatch(/electron\.zip: 100% \(3\.0 MB of 3\.0 MB\)/);
    expect(findElectron(root, noSkip)).toBe(join(root, 'node_modules/electron/dist/electron'));
  });

  it('names the cause of a failed connection (fetch alone says only "fetch failed")', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runElectronInstaller({
      root: projectRoot(fakeInstaller),
      env: { ...noSkip, FAKE_URL: `http://127.0.0.1:${port}/electron.zip` },
      stdout: () => undefined,
    });
    expect(result).toEqual({ ok: false, reason: `127.0.0.1:${port} could not be reached (connect ECONNREFUSED)` });
  });

  it('names an HTTP error status', async () => {
    const result = await runElectronInstaller({
      root: projectRoot(fakeInstaller),
      env: { ...noSkip, FAKE_URL: `${base}/missing.zip` },
      stdout: () => undefined,
    });
    expect(result).toEqual({ ok: false, reason: `127.0.0.1:${base.split(':').at(-1)}: HTTP 404 Not Found` });
  });

  it('quotes the installer’s own error line when no download failed', async () => {
    const result = await runElectronInstaller({
      root: projectRoot(
        "console.error(new Error('Electron builds are not available on platform: aix').stack); process.exit(1);",
      ),
      env: noSkip,
      stdout: () => undefined,
    });
    expect(result).toEqual({ ok: false, reason: 'Error: Electron builds are not available on platform: aix' });
  });
});

describe('installFailureReason', () => {
  it('prefers the cause line, then the error line, then the exit status', () => {
    const stack = 'TypeError: fetch failed\n    at node:internal/deps/undici/undici:14976:13';
    expect(installFailureReason(`qk-electron-install-cause: github.com could not be reached\n${stack}`, 1)).toBe(
      'github.com could not be reached',
    );
    expect(installFailureReason(stack, 1)).toBe('TypeError: fetch failed');
    expect(installFailureReason('', 7)).toBe('the installer exited with code 7');
    expect(installFailureReason('', null)).toBe('the installer was stopped');
  });
});

describe('electronCannotRun', () => {
  it('needs a display on Linux and refuses root (the sandbox stays on); other platforms need neither', () => {
    expect(electronCannotRun({}, 'linux', 1000)).toMatch(/no display/);
    expect(electronCannotRun({ DISPLAY: ':0' }, 'linux', 0)).toMatch(/root/);
    expect(electronCannotRun({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', 1000)).toBeNull();
    expect(electronCannotRun({}, 'darwin', 0)).toBeNull();
  });
});

describe('desktopApp: what npm start opens', () => {
  /** A project whose Electron bundle was built (npm run build). */
  function builtProject(): string {
    const root = projectRoot();
    mkdirSync(join(root, 'dist/electron'), { recursive: true });
    writeFileSync(join(root, 'dist/electron/main.cjs'), '');
    return root;
  }
  const display = { ...noSkip, DISPLAY: ':0' };

  it('installs the runtime and opens Electron when the installer succeeds', async () => {
    const root = builtProject();
    const lines: string[] = [];
    const binary = await desktopApp({
      root,
      env: display,
      say: (line) => lines.push(line),
      install: async ({ root: at }) => {
        installRuntime(at);
        return { ok: true };
      },
      cannotRun: () => null,
    });
    expect(binary).toBe(join(root, 'node_modules/electron/dist/electron'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/running Electron's installer/);
    expect(lines.some((line) => line.includes('browser'))).toBe(false);
  });

  it('falls back to the browser with one line naming why when the installer fails', async () => {
    const lines: string[] = [];
    const binary = await desktopApp({
      root: builtProject(),
      env: display,
      say: (line) => lines.push(line),
      install: async () => ({ ok: false, reason: 'github.com could not be reached (getaddrinfo ENOTFOUND)' }),
      cannotRun: () => null,
    });
    expect(binary).toBeNull();
    expect(lines.at(-1)).toBe(
      'The desktop app cannot open: the Electron download failed: github.com could not be reached (getaddrinfo ENOTFOUND). Serving the console to a browser instead.',
    );
  });

  it('falls back when the runtime is there but cannot show a window, or the bundle is missing', async () => {
    const installed = builtProject();
    installRuntime(installed);
    const lines: string[] = [];
    const say = (line: string) => lines.push(line);
    expect(await desktopApp({ root: installed, env: noSkip, say, cannotRun: () => 'there is no display' })).toBeNull();
    expect(lines.at(-1)).toMatch(/cannot open: there is no display\./);
    const unbuilt = projectRoot();
    installRuntime(unbuilt);
    expect(await desktopApp({ root: unbuilt, env: display, say, cannotRun: () => null })).toBeNull();
    expect(lines.at(-1)).toMatch(/the Electron bundle was not built/);
  });
});
