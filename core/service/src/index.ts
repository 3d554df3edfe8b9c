/**
 * The service: one queue manager served over HTTP + WebSocket (and to Electron through ServiceHost).
 * host/ is the process host (the queue manager, its handlers and transactions, the runner that composes a
 * whole service), transports/ the HTTP and WebSocket servers, console/ what a browser gets at `/`.
 */
export { ServiceHost } from './host/host.js';
export { DELIVERING_OPERATIONS } from './host/handlers.js';
export { LOCK_FILE } from './host/data-lock.js';
export { runService, type RunningService } from './host/service-runner.js';
export { AUDIT_FILE } from './host/audit-log.js';
export { parseLogLevel } from './host/logger.js';
export { startHttpServer, type HttpServer } from './transports/http-server.js';
export { parseListenAddress } from './transports/listen-address.js';
