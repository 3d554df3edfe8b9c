/**
 * The service: one queue manager served over HTTP + WebSocket (and to Electron through ServiceHost).
 * host/ is the process host (the queue manager, its handlers and transactions, the runner that composes a
 * whole service), transports/ the HTTP and WebSocket servers, console/ what a browser gets at `/`.
 */
export { ServiceHost, type ServiceHostOptions } from './host/host.js';
export { DELIVERING_OPERATIONS, type CallContext } from './host/handlers.js';
export { TransactionRegistry, HTTP_TRANSACTION_IDLE_MS } from './host/transaction-registry.js';
export { acquireDataLock, LOCK_FILE, type DataLock } from './host/data-lock.js';
export { loadOrCreateToken, tokenMatches, bearerToken } from './host/token.js';
export { writeServiceFile, removeServiceFile } from './host/service-file.js';
export { runService, defaultDataDir, type RunServiceOptions, type RunningService } from './host/service-runner.js';
export { AUDIT_FILE } from './host/audit-log.js';
export { parseLogLevel, type LogLevel } from './host/logger.js';
export { productVersion } from './host/version.js';
export { startHttpServer, HTTP_BODY_LIMIT, type HttpServer, type HttpServerOptions } from './transports/http-server.js';
export { parseListenAddress, urlFor, DEFAULT_LISTEN, type ListenAddress } from './transports/listen-address.js';
export { consoleCsp, findConsoleDir } from './console/console-assets.js';
