/** Which service a command talks to: `--service URL --token T`, `--data DIR`, their env twins, or the per-user folder. */
import { dataDirFor, QkClient } from '@qk/client';
import { UsageError } from './usage-error.js';

/** The global options every command accepts. */
export interface GlobalOptions {
  data?: string | undefined;
  service?: string | undefined;
  token?: string | undefined;
  json?: boolean | undefined;
}

/** Where the service is. */
export type Target = { kind: 'data'; dataDir: string } | { kind: 'service'; url: string; token: string };

const nonEmpty = (value: string | undefined): string | undefined => (value && value.length > 0 ? value : undefined);

/** The data folder of `--data`, else QK_DATA, else the per-user folder (for `service start`). */
export function dataDirOf(options: GlobalOptions, env: NodeJS.ProcessEnv): string {
  return dataDirFor(options.data, env);
}

/** Flags beat the environment; `--service` beats `--data` when both are given on the command line. */
export function resolveTarget(options: GlobalOptions, env: NodeJS.ProcessEnv): Target {
  const serviceFlag = nonEmpty(options.service);
  const dataFlag = nonEmpty(options.data);
  const url = serviceFlag ?? (dataFlag ? undefined : nonEmpty(env['QK_SERVICE']));
  if (url !== undefined) {
    const token = nonEmpty(options.token) ?? nonEmpty(env['QK_TOKEN']);
    if (!token)
      throw new UsageError(
        '--service needs --token TOKEN (or QK_TOKEN); the token is in the data folder of that service, file "token".',
      );
    return { kind: 'service', url, token };
  }
  if (nonEmpty(options.token))
    throw new UsageError('--token goes with --service URL; with --data the token is read from the data folder.');
  return { kind: 'data', dataDir: dataDirOf(options, env) };
}

/** Connects to the target over HTTP (one request per call suits a one-shot command). */
export function connect(target: Target): Promise<QkClient> {
  return target.kind === 'data'
    ? QkClient.fromDataDir(target.dataDir)
    : QkClient.connect({ url: target.url, token: target.token });
}
