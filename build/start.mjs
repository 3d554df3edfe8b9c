// `npm start`: build, then open the desktop console. That is the Electron app, its runtime installed on first use
// by Electron's own installer (electron-runtime.mjs). Where it cannot open (the download fails, no display), one
// line says why, and the service runs here in the foreground and serves the same console to a browser at
// http://127.0.0.1:PORT/#token=TOKEN — never a dead end. Ctrl+C stops it cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopApp } from './electron-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_PORT = 8185;
const CHROMIUM = '/usr/bin/chromium';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function say(line) {
  process.stdout.write(`${line}\n`);
}

/** Runs the build; the console bundle may fail (or be missing) and the service still starts with its fallback page. */
function build() {
  const full = spawnSync(npm, ['run', '--silent', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (full.status === 0) return;
  const node = spawnSync(npm, ['run', '--silent', 'build:node'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (node.status !== 0 && !existsSync(join(root, 'dist/cli/qk.mjs'))) {
    process.stderr.write(`${node.stderr}\nnpm start: the build failed (npm run build:node); see the errors above.\n`);
    process.exit(1);
  }
  if (!existsSync(join(root, 'dist/renderer/index.html'))) {
    process.stderr.write(
      'npm start: the console could not be built (npm run build:renderer); a basic page will be served instead.\n',
    );
  }
}

function defaultDataDir() {
  if (process.env.QK_DATA) return process.env.QK_DATA;
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'queuekeeper');
}

/** 8185 when free, else any free port. */
function choosePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(0));
    probe.listen(DEFAULT_PORT, '127.0.0.1', () => probe.close(() => resolve(DEFAULT_PORT)));
  });
}

function readRunningService(dataDir) {
  try {
    const service = JSON.parse(readFileSync(join(dataDir, 'service.json'), 'utf8'));
    process.kill(service.pid, 0);
    return service;
  } catch {
    return null;
  }
}

function openWindow(url) {
  if (!process.env.DISPLAY || !existsSync(CHROMIUM)) return null;
  const profile = mkdtempSync(join(tmpdir(), 'queuekeeper-chromium-'));
  const args = [
    `--app=${url}`,
    `--user-data-dir=${profile}`,
    '--no-sandbox',
    '--test-type',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
  const browser = spawn(CHROMIUM, args, { stdio: 'ignore' });
  browser.on('error', () => undefined);
  browser.on('exit', () => rmSync(profile, { recursive: true, force: true }));
  return browser;
}

function runElectron(binary) {
  const child = spawn(binary, [root], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** Starts `qk service start` in the foreground and resolves with its ready line. */
function startService(dataDir, port) {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/cli/qk.mjs'), 'service', 'start', '--data', dataDir, '--listen', `127.0.0.1:${port}`, '--json'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        try {
          const parsed = JSON.parse(line);
          if (parsed.ready) resolve(parsed);
        } catch {
          // Not the ready line.
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`the service exited with code ${code} before it was ready`)));
  });
  return { child, ready };
}

async function runInBrowser() {
  const dataDir = defaultDataDir();
  const running = readRunningService(dataDir);
  if (running) {
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    const url = `${running.url}/#token=${token}`;
    say(`A service already runs on ${dataDir}: console at ${url}`);
    const browser = openWindow(url);
    if (browser) browser.on('exit', () => process.exit(0));
    return;
  }
  const { child, ready } = startService(dataDir, await choosePort());
  // Ctrl+C reaches the service too (same process group); wait for it to stop cleanly instead of dying first.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  let browser = null;
  child.on('exit', (code) => {
    browser?.kill('SIGTERM');
    process.exit(code ?? 0);
  });
  let service;
  try {
    service = await ready;
  } catch (error) {
    process.stderr.write(`npm start: ${error.message}\n`);
    return;
  }
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  const url = `${service.url}/#token=${token}`;
  say(`Serving the console at ${url}`);
  browser = openWindow(url);
}

build();
const electron = await desktopApp({ root, say });
if (electron) runElectron(electron);
else await runInBrowser();
