/** Finding the service that runs on a data folder, through the files it writes there. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ServiceFile } from '@qk/api';
import { QkError } from '@qk/model';
import { isServiceFile, SERVICE_FILE, TOKEN_FILE } from './contract.js';

/** Where and how to reach the service of a data folder. */
export interface ServiceEndpoint {
  url: string;
  token: string;
  service: ServiceFile;
  /** The message for "nobody answers", naming the folder. */
  unreachableHint: string;
}

/** The per-user data folder: `$XDG_DATA_HOME/queuekeeper` or `~/.local/share/queuekeeper`. */
function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.local', 'share'), 'queuekeeper');
}

/**
 * The data folder of this computer's queue manager, the one definition for `qk`, `npm start` and the desktop
 * app: the folder given (`--data`), else `QK_DATA`, else the per-user folder.
 */
export function dataDirFor(given: string | undefined, env: NodeJS.ProcessEnv): string {
  const nonEmpty = (value: string | undefined): string | undefined => (value && value.length > 0 ? value : undefined);
  return resolve(nonEmpty(given) ?? nonEmpty(env['QK_DATA']) ?? defaultDataDir(env));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads `DIR/service.json` and `DIR/token`; SERVICE_NOT_AVAILABLE "no service is running on DIR" when there is none. */
export function readServiceEndpoint(dataDir: string): ServiceEndpoint {
  const dir = resolve(dataDir);
  const notRunning = (why: string): QkError =>
    new QkError(
      'SERVICE_NOT_AVAILABLE',
      `No service is running on ${dir} (${why}); start one with: qk service start --data ${dir}`,
    );
  let service: ServiceFile;
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, SERVICE_FILE), 'utf8'));
    if (!isServiceFile(parsed)) throw new Error('not a service file');
    service = parsed;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw notRunning(missing ? `no ${SERVICE_FILE}` : `${SERVICE_FILE} is unreadable`);
  }
  if (!isAlive(service.pid)) throw notRunning(`the service that wrote ${SERVICE_FILE}, pid ${service.pid}, is gone`);
  let token: string;
  try {
    token = readFileSync(join(dir, TOKEN_FILE), 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES')
      throw new QkError('ACCESS_DENIED', `Cannot read ${join(dir, TOKEN_FILE)}: only the service's user may.`);
    throw notRunning(`no ${TOKEN_FILE}`);
  }
  return {
    url: service.url,
    token,
    service,
    unreachableHint: `No service is running on ${dir}: nothing answers at ${service.url}`,
  };
}
