/**
 * The JSON shapes and name rules of many computers (CLI.md "Many computers"; docs/network.md): trusted
 * peers, routes, outgoing queues.
 */
import { QkError } from './errors.js';
import { validateComputerName } from './names.js';

/** `connected` a session is up; `idle` nothing to do; `unreachable` the last attempt failed; `refused` TLS or trust failed. */
export type PeerState = 'connected' | 'idle' | 'unreachable' | 'refused';
export const peerStates = ['connected', 'idle', 'unreachable', 'refused'] as const satisfies readonly PeerState[];

/** MSMQ's outgoing-queue states: Connected, Waiting to connect, On hold, Inactive. */
export type OutgoingState = 'connected' | 'waiting' | 'onHold' | 'inactive';
export const outgoingStates = [
  'connected',
  'waiting',
  'onHold',
  'inactive',
] as const satisfies readonly OutgoingState[];

export interface PeerInfo {
  name: string;
  /** `HOST:PORT` of its peer listener. */
  address: string;
  /** `sha256:` + hex of its certificate. */
  fingerprint: string;
  /** When a session with it last came up (ISO 8601), or null. */
  lastConnected: string | null;
  state: PeerState;
}

export interface RouteInfo {
  /** A computer name, or `*` for every computer without a route of its own. */
  destination: string;
  /** The routing server messages for `destination` go through. */
  via: string;
}

export interface OutgoingQueueInfo {
  /** The destination queue's format name, as MSMQ's console names outgoing queues. */
  formatName: string;
  destinationComputer: string;
  /** The computer the next session goes to (the destination or a routing server), or null when none is known. */
  nextHop: string | null;
  state: OutgoingState;
  messageCount: number;
  bytes: number;
  /** Transactional messages sent but not yet confirmed by the destination. */
  unconfirmedCount: number;
  lastError: string | null;
  lastConnectedTime: string | null;
}

/** The wildcard destination of `qk route set * VIA`. */
export const ROUTE_ANY = '*';

const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;

/**
 * Reads a certificate fingerprint as an administrator may paste it: `sha256:` + hex, any case, with or
 * without colons (as openssl and Node print it). Returns the canonical form: lower case, no colons.
 */
export function parseFingerprint(text: string): string {
  const match = /^sha256:(.*)$/i.exec(text.trim());
  const normalized = match?.[1] === undefined ? '' : `sha256:${match[1].replace(/:/g, '').toLowerCase()}`;
  if (!FINGERPRINT.test(normalized)) {
    throw new QkError(
      'INVALID_PARAMETER',
      `'${text}' is not a certificate fingerprint: expected sha256: followed by 64 hex digits (as a ready line or qk service status prints it).`,
    );
  }
  return normalized;
}

/** A peer listener address, `HOST:PORT` or `[IPv6]:PORT`, with a port from 1 to 65535. */
export function parsePeerAddress(text: string): { host: string; port: number } {
  const trimmed = text.trim();
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(trimmed);
  const host = match?.[1] ?? match?.[2];
  const port = match?.[3] === undefined ? NaN : Number(match[3]);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new QkError(
      'INVALID_PARAMETER',
      `'${text}' is not a peer address: expected HOST:PORT with a port from 1 to 65535 (the peerAddress of the other computer's ready line).`,
    );
  }
  return { host, port };
}

/** Checks a computer name given to `qk peer add` or `qk route set`; `*` only where `allowAny`. */
export function checkComputerName(name: string, allowAny = false): string {
  const trimmed = name.trim();
  if (allowAny && trimmed === ROUTE_ANY) return trimmed;
  if (trimmed === '.' || trimmed.includes('\\') || trimmed.includes(':') || trimmed === ROUTE_ANY) {
    throw new QkError('INVALID_PARAMETER', `'${name}' is not a computer name.`);
  }
  try {
    validateComputerName(trimmed);
  } catch (error) {
    throw new QkError('INVALID_PARAMETER', error instanceof Error ? error.message : String(error));
  }
  return trimmed;
}
