/**
 * Listening beyond loopback is an explicit choice (issue 7, item 6): refused without `--allow-remote`, and
 * with it only over TLS, since the bearer token would otherwise cross the network in clear text.
 */
import { readFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { QkError } from '@qk/model';
import type { ListenAddress } from './listen-address.js';

export interface ExposureOptions {
  allowRemote?: boolean | undefined;
  tls?: { certFile: string; keyFile: string } | undefined;
}

/** What the HTTP server needs to listen as asked: TLS material, and the names it then answers to. */
export interface Exposure {
  tls: { cert: Buffer; key: Buffer } | undefined;
  /** Names of this computer requests may carry in Host (besides loopback and the listen host). */
  hosts: string[];
  /** The host clients elsewhere use in URLs (the ready line names it): the listen host, or this computer's name. */
  publicHost: string;
}

/** True for addresses only this computer can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

const isWildcard = (host: string): boolean => host === '0.0.0.0' || host === '::';

/** Checks the listen address against the flags and loads the TLS files; INVALID_PARAMETER when refused. */
export function planExposure(listen: ListenAddress, options: ExposureOptions): Exposure {
  const remote = !isLoopbackHost(listen.host);
  if (remote && !options.allowRemote) {
    throw new QkError(
      'INVALID_PARAMETER',
      `--listen ${listen.host} is reachable from other computers: add --allow-remote (with --tls-cert FILE --tls-key FILE) to mean it, or listen on 127.0.0.1.`,
    );
  }
  if (remote && !options.tls) {
    throw new QkError(
      'INVALID_PARAMETER',
      `Listening on ${listen.host} needs TLS, or the token would cross the network in clear text: give --tls-cert FILE --tls-key FILE.`,
    );
  }
  if (!remote && options.allowRemote) {
    throw new QkError('INVALID_PARAMETER', `--allow-remote needs a --listen address other computers can reach.`);
  }
  const tls = options.tls ? { cert: readPem(options.tls.certFile), key: readPem(options.tls.keyFile) } : undefined;
  if (!remote) return { tls, hosts: [], publicHost: listen.host };
  const name = hostname().toLowerCase();
  const addresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [entry.address.toLowerCase()] : []));
  return { tls, hosts: [name, ...addresses], publicHost: isWildcard(listen.host) ? name : listen.host };
}

function readPem(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new QkError(
      'INVALID_PARAMETER',
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    );
  }
}
