// npm start's browser window: the console in Chromium, sandboxed unless Chromium refuses to start that way.
// A plain Node script like start.mjs (it runs before any build); its types are in console-window.d.mts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = '/usr/bin/chromium';

/** How long Chromium may take to fail on its sandbox before it counts as started. */
const SANDBOX_CHECK_MS = 5_000;

/**
 * Opens the console at `url` (a one-time link: the token is never on a command line, where every local user
 * can read it in /proc) in Chromium with its sandbox. Chromium refuses to start sandboxed as root (and where
 * the kernel denies it user namespaces): only then is it started again with --no-sandbox, after a line saying
 * why, with a fresh link from `handle.retryUrl` (the first window may have spent the one-time code).
 * Returns null when there is no display or no Chromium.
 */
export function openConsoleWindow(
  url,
  { say, onExit, chromium = CHROMIUM, env = process.env, uid = process.getuid?.() } = {},
) {
  if (!env.DISPLAY || !existsSync(chromium)) return null;
  const args = [
    `--app=${url}`,
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
  const handle = { browser: null, retryUrl: null, kill: (signal) => handle.browser?.kill(signal) };
  const launch = (sandboxed) => {
    const profile = mkdtempSync(join(tmpdir(), 'queuekeeper-chromium-'));
    const extra = sandboxed ? [] : ['--no-sandbox', '--test-type'];
    const browser = spawn(chromium, [...args, `--user-data-dir=${profile}`, ...extra], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    handle.browser = browser;
    const started = Date.now();
    let stderr = '';
    browser.stderr.setEncoding('utf8').on('data', (chunk) => {
      if (stderr.length < 64_000) stderr += chunk;
    });
    browser.on('error', (error) => say?.(`Chromium could not be started: ${error.message}`));
    browser.on('exit', (code) => {
      rmSync(profile, { recursive: true, force: true });
      const refusedSandbox =
        sandboxed && code !== 0 && Date.now() - started < SANDBOX_CHECK_MS && /sandbox/i.test(stderr);
      if (!refusedSandbox) return onExit?.();
      const why =
        uid === 0
          ? 'Chromium will not run sandboxed as root'
          : `Chromium could not start its sandbox here (${
              stderr
                .split('\n')
                .find((l) => /sandbox/i.test(l))
                ?.trim() ?? 'no reason given'
            })`;
      say?.(`${why}: opening the console with --no-sandbox. Run npm start as a normal user to keep the sandbox.`);
      Promise.resolve(handle.retryUrl?.() ?? url).then(
        (fresh) => {
          args[0] = `--app=${fresh}`;
          launch(false);
        },
        () => launch(false),
      );
    });
  };
  launch(true);
  return handle;
}
