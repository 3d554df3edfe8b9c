// The Electron runtime for `npm start`: found when installed, installed with Electron's own installer when not,
// and otherwise one line that says why the desktop app cannot open here (start.mjs then serves the browser console).
//
// Electron 45's npm package has no install script: the runtime (about 100 MB) is downloaded the first time
// node_modules/electron/install.js runs, which writes dist/ and path.txt. Running that installer here is what makes
// `npm install && npm start` open the desktop window on a machine that can download it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Loaded into the installer's process (`node --require`): prints the download's progress and its failure's cause. */
const INSTALL_HOOK = join(dirname(fileURLToPath(import.meta.url)), 'electron-install-hook.cjs');
/** The line prefix the hook gives the cause of a failed download (undici says only "fetch failed"). */
const CAUSE_PREFIX = 'qk-electron-install-cause: ';

/** What the installer asks for, from node_modules/electron/package.json: its version and Node engine range. */
function electronPackage(root) {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8'));
    return { version: String(pkg.version), node: pkg.engines?.node ?? null };
  } catch {
    return null;
  }
}

/**
 * The Electron binary, found the way node_modules/electron/index.js and install.js find it, but without
 * require('electron') (which starts a download, and throws when it fails): path.txt names the binary inside dist/
 * (or inside $ELECTRON_OVERRIDE_DIST_PATH), and dist/version must be the package's version, else the installer
 * would download again (an upgraded electron package keeps the previous runtime until then).
 */
export function findElectron(root, env = process.env) {
  const pkgDir = join(root, 'node_modules/electron');
  const pathTxt = join(pkgDir, 'path.txt');
  const relative = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : null;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const binary = join(override, relative || 'electron');
    return existsSync(binary) ? binary : null;
  }
  if (!relative) return null;
  const binary = join(pkgDir, 'dist', relative);
  if (!existsSync(binary)) return null;
  const wanted = electronPackage(root)?.version;
  const installed = readOptional(join(pkgDir, 'dist/version'))?.trim().replace(/^v/, '');
  return wanted && installed && installed !== wanted ? null : binary;
}

function readOptional(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** "22.12.0" from ">= 22.12.0"; null when the range is not a plain lower bound. */
function minimumNode(range) {
  const match = /^\s*>=\s*v?(\d+\.\d+\.\d+)\s*$/.exec(range ?? '');
  return match ? match[1] : null;
}

function older(version, than) {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = than.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

/**
 * One line for a failed installer run, from what it wrote on stderr: the hook's cause line when there is one
 * ("fetch failed" alone names nothing), else the installer's own error line, else its exit status.
 */
export function installFailureReason(stderr, status) {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim());
  const cause = lines.find((line) => line.startsWith(CAUSE_PREFIX));
  if (cause) return cause.slice(CAUSE_PREFIX.length);
  const error =
    lines.find((line) => /^[A-Za-z]*Error\b.*:/.test(line)) ?? lines.find((line) => line && !line.startsWith('at '));
  if (error) return error;
  return status === null ? 'the installer was stopped' : `the installer exited with code ${status}`;
}

/**
 * Runs node_modules/electron/install.js (Electron's installer: it downloads the runtime into its cache, checks it
 * against the package's checksums and unpacks it into node_modules/electron/dist). Its stdout, where the hook
 * prints the progress, goes to `stdout` (ours); its stderr is kept for the reason, and shown when it was not one.
 * Resolves with `{ ok: true }` or `{ ok: false, reason }`.
 */
export function runElectronInstaller({ root, env = process.env, stdout = (text) => process.stdout.write(text) }) {
  const installer = join(root, 'node_modules/electron/install.js');
  if (!existsSync(installer))
    return Promise.resolve({ ok: false, reason: `${installer} is missing (run npm install)` });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--require', INSTALL_HOOK, installer], {
      cwd: dirname(installer),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', stdout);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error) => resolve({ ok: false, reason: `the installer could not run: ${error.message}` }));
    child.on('close', (status) => {
      if (status === 0) {
        if (stderr.trim()) process.stderr.write(stderr);
        resolve({ ok: true });
      } else {
        resolve({ ok: false, reason: installFailureReason(stderr, status) });
      }
    });
  });
}

/**
 * The Electron binary to start, installing the runtime first when it is missing; or why there is none.
 * `install` is runElectronInstaller in production (a stand-in in tests); `say` prints one line.
 * Resolves with `{ binary }` or `{ reason }`.
 */
export async function ensureElectron({ root, env = process.env, say, install = runElectronInstaller }) {
  const found = findElectron(root, env);
  if (found) return { binary: found };
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    return { reason: `ELECTRON_OVERRIDE_DIST_PATH (${env.ELECTRON_OVERRIDE_DIST_PATH}) holds no Electron binary` };
  }
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD && env.ELECTRON_SKIP_BINARY_DOWNLOAD !== '0') {
    return { reason: 'the Electron runtime is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set' };
  }
  const pkg = electronPackage(root);
  if (!pkg) return { reason: 'the electron package is not installed (run npm install)' };
  const needs = minimumNode(pkg.node);
  const nodeNote =
    needs && older(process.version, needs)
      ? ` (its installer asks for Node ${needs} or later; this is ${process.version})`
      : '';
  say(
    `The Electron runtime is not installed: running Electron's installer to download Electron ${pkg.version} ` +
      `for ${process.platform}-${process.arch}, once${nodeNote}…`,
  );
  const result = await install({ root, env });
  if (!result.ok) return { reason: `the Electron download failed: ${result.reason}` };
  const installed = findElectron(root, env);
  if (!installed) return { reason: "Electron's installer finished but left no runtime in node_modules/electron/dist" };
  say(`Electron ${pkg.version} installed.`);
  return { binary: installed };
}

/**
 * Why Electron cannot show a window here even with its runtime: none on Linux without a display; and none as root,
 * where Chromium's sandbox refuses to start and Queuekeeper does not turn the sandbox off.
 */
export function electronCannotRun(env = process.env, platform = process.platform, uid = process.getuid?.()) {
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'there is no display (DISPLAY is not set)';
  if (platform === 'linux' && uid === 0) return "Electron's sandbox does not run as root, and the console keeps it on";
  return null;
}

/** The one line `npm start` prints before it falls back to the browser console. */
export function fallbackLine(reason) {
  return `The desktop app cannot open: ${reason}. Serving the console to a browser instead.`;
}

/**
 * What `npm start` opens: the Electron binary when the desktop app can open here, else null after one line that
 * says why. The runtime is installed first even where it cannot run now (no display, root): it is downloaded
 * once, and the next session with a display uses it.
 */
export async function desktopApp({ root, env = process.env, say, install, cannotRun = electronCannotRun }) {
  const electron = await ensureElectron({ root, env, say, ...(install ? { install } : {}) });
  const reason =
    electron.reason ??
    (existsSync(join(root, 'dist/electron/main.cjs')) ? cannotRun(env) : 'the Electron bundle was not built');
  if (!reason) return electron.binary;
  say(fallbackLine(reason));
  return null;
}
