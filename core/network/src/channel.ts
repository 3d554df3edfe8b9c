/**
 * The call channel a session runs on: one TLS socket carrying core/rpc's call protocol. Sessions see only
 * this interface; rpc-link.ts makes it from core/rpc, so the protocol is the one every connection uses.
 */
import type { TLSSocket } from 'node:tls';
import type { Envelope } from '@qk/api';
import type { NetworkLog } from './log.js';

/** The caller's end: calls with an envelope each (never a rejection). */
export interface PeerChannel {
  call(op: string, input: unknown, signal?: AbortSignal): Promise<Envelope<unknown>>;
  /**
   * Sends `bytes` as the connection's next attachment (a binary frame: protocol 3 only) and returns its number,
   * for the call made right after to name. A send that fails is not reported here: the call fails with it.
   */
  attach(bytes: Buffer): number;
  /** Ends the connection; calls not answered fail. */
  close(reason: string): void;
  /** Settles with the reason once the connection has ended, whoever ended it. */
  readonly closed: Promise<string>;
}

/** The listener's end: one answer per call. */
export interface PeerCallHandler {
  call(op: string, input: unknown, signal: AbortSignal): Promise<Envelope<unknown>>;
  /**
   * A binary frame arrived (an attachment); a returned text is a protocol violation the connection is cut for.
   * A handler without it takes none, as a listener from before protocol 3 did: one arriving cuts the connection.
   */
  binary?(data: Buffer): string | null;
  /** The connection ended. */
  closed(reason: string): void;
}

/** Makes both ends on a socket whose peer is already verified. */
export interface ChannelFactory {
  client(socket: TLSSocket, log: NetworkLog): PeerChannel;
  serve(socket: TLSSocket, handler: PeerCallHandler, log: NetworkLog): void;
}
