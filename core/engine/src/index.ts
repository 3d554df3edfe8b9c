export * from './types.js';
export { openQueueManager } from './queue-manager.js';
export type { StoredPeer, OutgoingQueueRecord } from './network/config-types.js';
export { restartImpact, searchMessages } from './console-tools.js';
