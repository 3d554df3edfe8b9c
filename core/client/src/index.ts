/** The typed client of the Queuekeeper API, for the CLI, tests and applications. */
export { QkClient, type ConnectOptions, type CallOptions } from './client.js';
export { ConsumerError, type ConsumeOptions, type Consumer } from './consumer.js';
export { dataDirFor, readServiceEndpoint, type ServiceEndpoint } from './data-dir.js';
export { HttpTransport, LONG_POLL_ROUND_MS } from './http-transport.js';
export { API_PREFIX, WEBSOCKET_PATH, SERVICE_FILE, TOKEN_FILE, OPERATION_NAMES } from './contract.js';
export type { Transport } from './transport.js';
export { QkError, isQkError } from '@qk/model';
