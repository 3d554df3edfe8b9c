/** The service: one queue manager served over HTTP + WebSocket (and to Electron through ServiceHost). */
export { ServiceHost, type ServiceHostOptions } from './host.js';
export type { CallContext } from './handlers.js';
export { TransactionRegistry, HTTP_TRANSACTION_IDLE_MS } from './transaction-registry.js';
export { acquireDataLock, LOCK_FILE, type DataLock } from './data-lock.js';
export { loadOrCreateToken, tokenMatches, bearerToken } from './token.js';
export { writeServiceFile, removeServiceFile } from './service-file.js';
export { startHttpServer, HTTP_BODY_LIMIT, type HttpServer, type HttpServerOptions } from './http-server.js';
export { consoleCsp, findConsoleDir } from './console-assets.js';
export { parseListenAddress, urlFor, DEFAULT_LISTEN, type ListenAddress } from './listen-address.js';
export { runService, defaultDataDir, type RunServiceOptions, type RunningService } from './service-runner.js';
export { AUDIT_FILE } from './audit-log.js';
export { productVersion } from './version.js';
export { serviceStarter } from './service-starter.js';
