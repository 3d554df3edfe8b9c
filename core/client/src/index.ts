/** The typed client of the Queuekeeper API, for the CLI, tests and applications. */
export { QkClient, type ConnectOptions, type CallOptions } from './client.js';
export { readServiceEndpoint, type ServiceEndpoint } from './data-dir.js';
export { HttpTransport, LONG_POLL_ROUND_MS } from './http-transport.js';
export { WebSocketTransport, websocketUrl } from './websocket-transport.js';
export type { Transport } from './transport.js';
export { QkError, isQkError } from '@qk/model';
