/**
 * A complete service process: host + token + HTTP/WebSocket server + service.json, stopped cleanly by
 * `serviceStop`, SIGINT or SIGTERM. Used by `qk service start` and `npm start`.
 */
import { resolve } from 'node:path';
import type { NetworkNode } from '@qk/network';
import type { RpcLogger } from '@qk/rpc';
import { ServiceHost } from './host.js';
import { createServiceLogger, type LogLevel } from './logger.js';
import { startHeapTrimmer } from './heap-trimmer.js';
import { guardProcess } from './process-guard.js';
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
  /** Where the transports log instead of the service log (tests); the service log by default. */
  logger?: RpcLogger | undefined;
  /** `--log-level` (default info) of `DIR/logs/service.log`. */
  logLevel?: LogLevel | undefined;
  /** Where warnings and errors are also shown in readable form (`qk service start`: its stderr). */
  terminal?: (NodeJS.WritableStream & { isTTY?: boolean }) | undefined;
  /**
   * The service is what this process is for (`qk service start`, Electron's utility process): files it creates
   * are owner-only (umask 077), an unhandled rejection or uncaught exception is logged instead of ending it,
   * a broken store stops the service cleanly and then exits the process with code 1, and the heap a burst of
   * work grew is compacted at the next quiet moment (heap-trimmer.ts).
   */
  processOwner?: boolean | undefined;
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

/** Opens the data folder, listens, writes service.json, and returns once requests are accepted. */
export async function runService(options: RunServiceOptions): Promise<RunningService> {
  const dataDir = resolve(options.dataDir);
  const listen = options.listen ?? DEFAULT_LISTEN;
  // Refused before anything opens: a wrong address must not leave a lock or a store touched.
  const exposure = planExposure(listen, options);
  // Before anything is created: SQLite's files, the token, the logs (data-folder.ts tightens older ones).
  if (options.processOwner) process.umask(0o077);
  const log = createServiceLogger({ dataDir, level: options.logLevel, terminal: options.terminal });
  const logger = log.logger;
  let host: ServiceHost;
  try {
    host = ServiceHost.open({ dataDir, name: options.name, logger, afterLock: () => log.openFile() });
  } catch (error) {
    // A refused start (another service, a broken store) is reported by the caller; the log file never opened.
    await log.close();
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
      logger: options.logger ?? logger.child({ component: 'rpc' }),
      httpLogger: logger.child({ component: 'http' }),
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
    logger.error({ err: error }, 'The service could not start');
    await host.close();
    await log.close();
    throw startFailure(error, dataDir);
  }
  logger.info({ url, name: host.name, id: host.id, dataDir, logLevel: log.level }, 'The service is ready');

  let markStopped!: () => void;
  const stopped = new Promise<void>((done) => (markStopped = done));
  let stopping: Promise<void> | undefined;
  // A stop started by a signal, a client or a fault has nobody to answer: a failure of it is logged.
  const stopFailed = (error: unknown): void => logger.error({ err: error }, 'The service did not stop cleanly');
  const onSignal = (): void => {
    stop().catch(stopFailed);
  };
  let unguard = (): void => undefined;
  let stopTrimming = (): void => undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      logger.info({}, 'The service is stopping');
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
        logger.info({}, 'The service stopped');
        stopTrimming();
        await log.close();
        unguard();
        markStopped();
      }
    })();
    return stopping;
  };
  host.onStopRequested(() => {
    stop().catch(stopFailed);
  });
  if (options.processOwner) {
    const fatal = (error: unknown): void => {
      logger.fatal({ err: error }, 'The store is broken: the service stops, releasing its data folder');
      stop().then(
        () => process.exit(1),
        (stopError: unknown) => {
          stopFailed(stopError);
          process.exit(1);
        },
      );
    };
    host.onFatalError(fatal);
    unguard = guardProcess(logger, fatal);
    // Only where the process is the service's: a collection tuned for its heap is no business of an embedder's.
    stopTrimming = startHeapTrimmer({
      logger: logger.child({ component: 'memory' }),
      releaseCaches: () => host.releaseMemory(),
    });
  }
  if (options.handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return { host, http, network, url, token, dataDir, stop, stopped };
}
