/**
 * The peer listener: a TLS server that asks every caller for its certificate and lets in only the trusted
 * peer whose fingerprint it presents (docs/network.md "Sessions"). Anything else is refused and logged — and
 * told so: under TLS 1.3 the caller's handshake is over before its certificate is looked at here, so a bare
 * close would look to it like a connection lost. A refused caller's calls are answered ACCESS_DENIED instead
 * (`refuse`), for a short while, then the connection ends.
 */
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { StoredPeer } from '@qk/engine';
import type { PeerCredentials } from './certificate.js';
import { fingerprintOf } from './certificate.js';
import type { NetworkLog } from './log.js';

/** Handshakes slower than this are cut: an idle half-open connection holds nothing of value. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** How long a refused caller may stay to read its refusal (it hangs up as soon as it has). */
const REFUSAL_MS = 5_000;

export interface ListenerOptions {
  host: string;
  port: number;
  credentials: PeerCredentials;
  /** The trusted peer presenting this fingerprint, if any. */
  trusted(fingerprint: string): StoredPeer | undefined;
  /** A trusted peer connected: the socket is its. */
  onConnection(socket: TLSSocket, peer: StoredPeer): void;
  /**
   * A caller is not let in (`fingerprint`: its certificate's, null when it showed none): tell it so on the
   * socket. Without it the connection is simply closed. The listener ends the connection after REFUSAL_MS
   * whatever happens.
   */
  refuse?(socket: TLSSocket, fingerprint: string | null): void;
  log: NetworkLog;
}

export interface PeerListener {
  /** `HOST:PORT` as `qk peer add` takes it. */
  readonly address: string;
  close(): Promise<void>;
}

export async function startListener(options: ListenerOptions): Promise<PeerListener> {
  const server: Server = createServer({
    key: options.credentials.key,
    cert: options.credentials.cert,
    // Every peer must show a certificate; it is self-signed, so trust is the fingerprint check below.
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.3',
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
  });
  const sockets = new Set<TLSSocket>();
  /** Tells a caller it is refused (when the node says how), then ends its connection. */
  const refuse = (socket: TLSSocket, fingerprint: string | null): void => {
    if (!options.refuse) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    const timer = setTimeout(() => socket.destroy(), REFUSAL_MS);
    timer.unref();
    socket.on('close', () => {
      clearTimeout(timer);
      sockets.delete(socket);
    });
    options.refuse(socket, fingerprint);
  };
  server.on('secureConnection', (socket: TLSSocket) => {
    const remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const certificate = socket.getPeerCertificate(true);
    const raw = certificate && 'raw' in certificate ? certificate.raw : undefined;
    if (!raw || raw.length === 0) {
      options.log.warn({ remote }, 'peer connection refused: no client certificate');
      refuse(socket, null);
      return;
    }
    const fingerprint = fingerprintOf(raw);
    const peer = options.trusted(fingerprint);
    if (!peer) {
      options.log.warn({ remote, fingerprint }, 'peer connection refused: certificate fingerprint not trusted');
      refuse(socket, fingerprint);
      return;
    }
    sockets.add(socket);
    socket.setKeepAlive(true, 15_000);
    // A call's answer is one small frame: Nagle's algorithm would hold it for the peer's delayed ACK (40 ms).
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    options.onConnection(socket, peer);
  });
  server.on('tlsClientError', (error, socket) => {
    options.log.warn(
      { remote: `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`, error: error.message },
      'peer connection failed during the TLS handshake',
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error: Error) => options.log.error({ error: error.message }, 'peer listener error'));
  const bound = server.address() as AddressInfo;
  return {
    address: advertised(options.host, bound.port),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The address other computers dial, as `qk peer add` takes it: the listen host, or — listening on every
 * interface (0.0.0.0, ::), which no computer can dial — this computer's host name, as the service's url then
 * names it.
 */
export function advertised(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? hostname().toLowerCase() : host;
  return shown.includes(':') ? `[${shown}]:${port}` : `${shown}:${port}`;
}
