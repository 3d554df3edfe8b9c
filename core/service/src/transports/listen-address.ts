/** `--listen HOST:PORT` parsing; loopback unless the administrator asks otherwise. */
import { QkError } from '@qk/model';

/** Where the HTTP server listens. */
export interface ListenAddress {
  host: string;
  /** 0 = any free port. */
  port: number;
}

/** Loopback, any free port: the safe default for a headless `qk service start`. */
export const DEFAULT_LISTEN: ListenAddress = { host: '127.0.0.1', port: 0 };

/** Parses `HOST:PORT`, `[V6]:PORT`, `:PORT` or `PORT`; throws INVALID_PARAMETER otherwise. */
export function parseListenAddress(text: string): ListenAddress {
  const trimmed = text.trim();
  let host: string;
  let portText: string;
  const v6 = /^\[([0-9a-fA-F:.]+)\]:(\d+)$/.exec(trimmed);
  if (v6) {
    host = v6[1] as string;
    portText = v6[2] as string;
  } else if (/^\d+$/.test(trimmed)) {
    host = DEFAULT_LISTEN.host;
    portText = trimmed;
  } else {
    const at = trimmed.lastIndexOf(':');
    if (at < 0) throw invalid(text);
    host = trimmed.slice(0, at) || DEFAULT_LISTEN.host;
    portText = trimmed.slice(at + 1);
    if (host.includes(':') || !/^[A-Za-z0-9.-]+$/.test(host)) throw invalid(text);
  }
  if (!/^\d{1,5}$/.test(portText)) throw invalid(text);
  const port = Number(portText);
  if (port > 65_535) throw invalid(text);
  return { host, port };
}

function invalid(text: string): QkError {
  return new QkError(
    'INVALID_PARAMETER',
    `'${text}' is not a listen address; expected HOST:PORT, e.g. 127.0.0.1:8185 (port 0 = any free port).`,
  );
}

/** The URL clients use to reach a server listening on `host:port` (a wildcard address is reached over loopback). */
export function urlFor(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reachable.includes(':') ? `${scheme}://[${reachable}]:${port}` : `${scheme}://${reachable}:${port}`;
}
