/**
 * A complete service process: host + token + HTTP/WebSocket server + service.json, stopped cleanly by
 * `serviceStop`, SIGINT or SIGTERM. Used by `qk service start` and `npm start`.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { NetworkNode } from '@qk/network';
import { consoleLogger, type RpcLogger } from '@qk/rpc';
import { ServiceHost } from './host.js';
import { planExposure } from '../transports/exposure.js';
import { startFailure } from './start-failure.js';
import { startHttpServer, type HttpServer } from '../transports/http-server.js';
import { DEFAULT_LISTEN, urlFor, type ListenAddress } from '../transports/listen-address.js';
import { removeServiceFile, writeServiceFile } from './service-file.js';
import { loadOrCreateToken } from './token.js';

/** How to run a service. */
export interface RunServiceOptions {
  dataDir: string;
  name?: string | undefined;
  listen?: ListenAddress | undefined;
  /** See HttpServerOptions.consoleDir. */
  consoleDir?: string | null | undefined;
  /** Stop on SIGINT/SIGTERM (the CLI and `npm start` want this; tests do not). */
  handleSignals?: boolean | undefined;
  /** Required to listen on an address other computers can reach; then `tls` is required too. */
  allowRemote?: boolean | undefined;
  /** PEM files of the certificate and key to serve HTTPS with. */
  tls?: { certFile: string; keyFile: string } | undefined;
  /** Host names requests may carry besides loopback ones and this computer's (`--allow-host`). */
  allowedHosts?: readonly string[] | undefined;
  /** Origins of consoles served elsewhere that may call this service (`--allow-origin`). */
  allowedOrigins?: readonly string[] | undefined;
  /** Where the transports log what goes wrong (pino-compatible); warnings and errors go to stderr by default. */
  logger?: RpcLogger | undefined;
  /** Accept deliveries from other computers here (`--peer-listen`); without it this computer only sends. */
  peerListen?: ListenAddress | undefined;
  /** Relay messages for other computers (`--routing`). */
  routing?: boolean | undefined;
}

/** A running service. */
export interface RunningService {
  readonly host: ServiceHost;
  readonly http: HttpServer;
  readonly network: NetworkNode;
  /** Where clients reach it: the listen address, or this computer's name when listening on every interface. */
  readonly url: string;
  readonly token: string;
  readonly dataDir: string;
  /** Stops accepting, closes the engine (it flushes), removes service.json and the lock. Idempotent. */
  stop(): Promise<void>;
  /** Resolves once the service has stopped, whoever stopped it. */
  readonly stopped: Promise<void>;
}

/** The per-user data folder used when neither --data nor QK_DATA is given. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.local', 'share'), 'queuekeeper');
}

/** Opens the data folder, listens, writes service.json, and returns once requests are accepted. */
export async function runService(options: RunServiceOptions): Promise<RunningService> {
  const dataDir = resolve(options.dataDir);
  const listen = options.listen ?? DEFAULT_LISTEN;
  // Refused before anything opens: a wrong address must not leave a lock or a store touched.
  const exposure = planExposure(listen, options);
  let host: ServiceHost;
  try {
    host = ServiceHost.open({ dataDir, name: options.name });
  } catch (error) {
    throw startFailure(error, dataDir);
  }
  let http: HttpServer;
  let token: string;
  let url: string;
  let network: NetworkNode;
  try {
    token = loadOrCreateToken(dataDir);
    network = await host.startNetwork({ peerListen: options.peerListen, routing: options.routing });
    http = await startHttpServer(host, {
      listen,
      token,
      consoleDir: options.consoleDir,
      tls: exposure.tls,
      allowedHosts: [...exposure.hosts, ...(options.allowedHosts ?? [])],
      allowedOrigins: options.allowedOrigins,
      logger: options.logger ?? consoleLogger,
    });
    const status = host.handlers.serviceStatus({});
    url = exposure.publicHost === listen.host ? http.url : urlFor(exposure.publicHost, http.port, 'https');
    writeServiceFile(dataDir, {
      url,
      pid: process.pid,
      name: host.name,
      id: host.id,
      startedTime: (await status).startedTime,
    });
  } catch (error) {
    await host.close();
    throw startFailure(error, dataDir);
  }

  let markStopped!: () => void;
  const stopped = new Promise<void>((done) => (markStopped = done));
  let stopping: Promise<void> | undefined;
  const onSignal = (): void => void stop();
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      try {
        const closingHttp = http.close();
        // Closing the engine ends waiting receives, which lets the HTTP server finish its requests.
        await host.close();
        await closingHttp;
      } finally {
        removeServiceFile(dataDir);
        if (options.handleSignals) {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
        markStopped();
      }
    })();
    return stopping;
  };
  host.onStopRequested(() => void stop());
  if (options.handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return { host, http, network, url, token, dataDir, stop, stopped };
}
