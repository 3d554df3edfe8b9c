export * from './types.js';
export { openQueueManager } from './queue-manager.js';
export { destinationComputerOf } from './network/config.js';
export type { NetworkConfigApi, StoredPeer, OutgoingQueueRecord } from './network/config-types.js';
export { restartImpact, searchMessages } from './console-tools.js';
export type { RestartImpact, SearchFilter, SearchResult } from './console-tools.js';
export type * from './network/port-types.js';
