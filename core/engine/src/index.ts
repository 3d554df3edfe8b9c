export * from './types.js';
export { openQueueManager } from './queue-manager.js';
export { NetworkConfig, destinationComputerOf, type StoredPeer, type OutgoingQueueRecord } from './network/config.js';
