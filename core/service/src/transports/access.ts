/**
 * Who may talk to the service. Three independent checks, applied to every request by the route it matched
 * (never by how its URL was spelled): the Host must name this service (a loopback name or one it was
 * configured with — DNS rebinding cannot borrow a page's origin), an Origin, when a browser sends one, must be
 * the console's own (or the Electron app's, or one the administrator allowed with --allow-origin), and the
 * bearer token must be the service's or a console session's.
 */
import { randomBytes } from 'node:crypto';
import { ELECTRON_APP_ORIGIN as APP_ORIGIN } from '@qk/api';
import { tokenMatches } from '../host/token.js';
/** How long a one-time console code may wait to be exchanged. */
export const CONSOLE_CODE_TTL_MS = 60_000;
const MAX_OPEN_CODES = 64;
const MAX_SESSIONS = 1_024;

/** A refused request: HTTP status, contract code, and what to do about it. */
export interface Refusal {
  status: number;
  code: 'ACCESS_DENIED' | 'UNAUTHORIZED' | 'INVALID_PARAMETER';
  message: string;
}

export interface AccessOptions {
  token: string;
  /** Host names (no port) besides the loopback ones that this service answers to. */
  hosts?: readonly string[] | undefined;
  /** Origins besides the service's own and the Electron app's whose pages may call it. */
  origins?: readonly string[] | undefined;
  /** `https` when the service listens with TLS. */
  scheme: 'http' | 'https';
}

/** The access rules of one service. */
export class Access {
  readonly #token: string;
  readonly #hosts: Set<string>;
  readonly #origins: Set<string>;
  readonly #scheme: 'http' | 'https';
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Set<string>();

  constructor(options: AccessOptions) {
    this.#token = options.token;
    this.#scheme = options.scheme;
    this.#hosts = new Set((options.hosts ?? []).map((host) => host.toLowerCase()));
    this.#origins = new Set([APP_ORIGIN, ...(options.origins ?? []).map(normalizeOrigin)]);
  }

  /** Adds a host name the service answers to (the address it listens on, once known). */
  allowHost(host: string): void {
    this.#hosts.add(bare(host.toLowerCase()));
  }

  /** Null when the Host header names this service; else why not. */
  checkHost(hostHeader: string | undefined): Refusal | null {
    const name = hostName(hostHeader);
    if (name !== undefined && (isLoopbackName(name) || this.#hosts.has(name))) return null;
    return {
      status: 403,
      code: 'ACCESS_DENIED',
      message: `This service does not answer to the host '${hostHeader ?? ''}'. Use 127.0.0.1 or localhost, or a name given with --allow-host.`,
    };
  }

  /** Null when there is no Origin or it may call this service; else why not. */
  checkOrigin(origin: string | undefined, hostHeader: string | undefined): Refusal | null {
    if (origin === undefined) return null;
    if (this.isOwnOrigin(origin, hostHeader) || this.#origins.has(normalizeOrigin(origin))) return null;
    return {
      status: 403,
      code: 'ACCESS_DENIED',
      message: `Pages from ${origin} may not call this service. A console served elsewhere needs this service started with --allow-origin ${origin}.`,
    };
  }

  /** A foreign origin the administrator allowed (it gets CORS headers); not the service's own. */
  isAllowedForeignOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
    return (
      origin !== undefined &&
      !this.isOwnOrigin(origin, hostHeader) &&
      normalizeOrigin(origin) !== APP_ORIGIN &&
      this.#origins.has(normalizeOrigin(origin))
    );
  }

  isOwnOrigin(origin: string, hostHeader: string | undefined): boolean {
    return hostHeader !== undefined && normalizeOrigin(origin) === normalizeOrigin(`${this.#scheme}://${hostHeader}`);
  }

  /** The service token, or a console session's. */
  acceptsToken(presented: string | undefined): boolean {
    if (presented === undefined) return false;
    if (tokenMatches(presented, this.#token)) return true;
    for (const session of this.#sessions) if (tokenMatches(presented, session)) return true;
    return false;
  }

  /** A one-time code for a console link: exchanged once, within a minute, for a session. */
  mintCode(now = Date.now()): string {
    this.#dropExpired(now);
    if (this.#codes.size >= MAX_OPEN_CODES) this.#codes.delete(this.#codes.keys().next().value as string);
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, now + CONSOLE_CODE_TTL_MS);
    return code;
  }

  /** Exchanges a code for a session token (valid until the service stops); undefined when it is not valid. */
  redeem(code: string, now = Date.now()): string | undefined {
    this.#dropExpired(now);
    let found: string | undefined;
    for (const open of this.#codes.keys()) if (tokenMatches(code, open)) found = open;
    if (found === undefined) return undefined;
    this.#codes.delete(found);
    if (this.#sessions.size >= MAX_SESSIONS) this.#sessions.delete(this.#sessions.values().next().value as string);
    const session = randomBytes(32).toString('hex');
    this.#sessions.add(session);
    return session;
  }

  #dropExpired(now: number): void {
    for (const [code, expires] of this.#codes) if (expires <= now) this.#codes.delete(code);
  }
}

/** Loopback names browsers and resolvers never send elsewhere (RFC 6761 for *.localhost). */
function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/** The host name of a Host header, lower-case, IPv6 without brackets; undefined when malformed. */
function hostName(header: string | undefined): string | undefined {
  if (!header || header.length > 300) return undefined;
  try {
    const url = new URL(`http://${header}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
    return bare(url.hostname.toLowerCase());
  } catch {
    // A Host header that is no host name is refused by the caller like an unknown one.
    return undefined;
  }
}

function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** An origin as browsers compare them (scheme, host, port; default ports dropped); the text itself if unparsable. */
function normalizeOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin;
  } catch {
    // Unparsable: compared as written, it matches no allowed origin and is refused.
    return origin;
  }
}
