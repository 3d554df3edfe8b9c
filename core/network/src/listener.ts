/**
 * The peer listener: a TLS server that asks every caller for its certificate and lets in only the trusted
 * peer whose fingerprint it presents (docs/network.md "Sessions"). Anything else is refused and logged.
 */
import { createServer, type Server, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { StoredPeer } from '@qk/engine';
import type { PeerCredentials } from './certificate.js';
import { fingerprintOf } from './certificate.js';
import type { NetworkLog } from './log.js';

/** Handshakes slower than this are cut: an idle half-open connection holds nothing of value. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

export interface ListenerOptions {
  host: string;
  port: number;
  credentials: PeerCredentials;
  /** The trusted peer presenting this fingerprint, if any. */
  trusted(fingerprint: string): StoredPeer | undefined;
  /** A trusted peer connected: the socket is its. */
  onConnection(socket: TLSSocket, peer: StoredPeer): void;
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
  server.on('secureConnection', (socket: TLSSocket) => {
    const remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const certificate = socket.getPeerCertificate(true);
    const raw = certificate && 'raw' in certificate ? certificate.raw : undefined;
    if (!raw || raw.length === 0) {
      options.log.warn({ remote }, 'peer connection refused: no client certificate');
      socket.destroy();
      return;
    }
    const fingerprint = fingerprintOf(raw);
    const peer = options.trusted(fingerprint);
    if (!peer) {
      options.log.warn({ remote, fingerprint }, 'peer connection refused: certificate fingerprint not trusted');
      socket.destroy();
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
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    address: `${host}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
