/** One call protocol for every connection (WebSocket, Electron IPC, the peer link). Browser-safe. */
export * from './frames.js';
export * from './transport.js';
export * from './logger.js';
export * from './limits.js';
export { serveRpc, type RpcCallContext, type RpcHandler } from './server.js';
export { RpcClient, type RpcStreamCall } from './client.js';
