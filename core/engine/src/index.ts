export * from './types.js';
export { openQueueManager } from './queue-manager.js';
export { destinationComputerOf } from './network/config.js';
export type { NetworkConfigApi, StoredPeer, OutgoingQueueRecord } from './network/config-types.js';
