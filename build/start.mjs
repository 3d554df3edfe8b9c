// `npm start`: build, then open the desktop console. That is the Electron app, its runtime installed on first use
// by Electron's own installer (electron-runtime.mjs). Where it cannot open (the download fails, no display), one
// line says why, and the service runs here in the foreground and serves the same console to a browser, opened
// with a one-time link (http://127.0.0.1:PORT/#code=…, valid once, for a minute) — never the token, never a
// dead end. Ctrl+C stops it cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openConsoleWindow } from './console-window.mjs';
import { desktopApp } from './electron-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_PORT = 8185;
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

/** The data folder `qk` uses (QK_DATA, else the per-user default) and its service, from the built CLI's own code. */
async function dataFolder() {
  return import(pathToFileURL(join(root, 'dist/cli/data-folder.mjs')).href);
}

/** 8185 when free, else any free port. */
function choosePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(0));
    probe.listen(DEFAULT_PORT, '127.0.0.1', () => probe.close(() => resolve(DEFAULT_PORT)));
  });
}

/** Asks the service for a one-time console link (the token stays in this process, never on a command line). */
async function consoleLink(serviceUrl, dataDir) {
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  const response = await fetch(`${serviceUrl}/console/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: '{}',
  });
  const envelope = await response.json();
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value.url;
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
  const { dataDirFor, readServiceEndpoint } = await dataFolder();
  const dataDir = dataDirFor(undefined, process.env);
  const tokenNote = `data folder ${dataDir}; the token is in ${join(dataDir, 'token')}, readable by you only`;
  let running = null;
  try {
    running = readServiceEndpoint(dataDir);
  } catch {
    // No live service on the folder (its message says why): this script starts one below.
  }
  if (running) {
    const link = await consoleLink(running.url, dataDir);
    say(`A service already runs at ${running.url} (${tokenNote}).`);
    say(`Console: ${link} (one-time link; \`node bin/qk.mjs console --data ${dataDir}\` makes another)`);
    const browser = openConsoleWindow(link, { say, onExit: () => process.exit(0) });
    if (browser) browser.retryUrl = () => consoleLink(running.url, dataDir);
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
  const link = await consoleLink(service.url, dataDir);
  say(`Serving the console at ${service.url} (${tokenNote}).`);
  say(`Console: ${link} (one-time link; \`node bin/qk.mjs console --data ${dataDir}\` makes another)`);
  browser = openConsoleWindow(link, { say });
  if (browser) browser.retryUrl = () => consoleLink(service.url, dataDir);
}

build();
const electron = await desktopApp({ root, say });
if (electron) runElectron(electron);
else await runInBrowser();
