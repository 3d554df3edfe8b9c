export * from './types.js';
export { openQueueManager } from './queue-manager.js';
export type { StoredPeer } from './network/config-types.js';
export { restartImpact, searchMessages } from './console-tools.js';
export type * from './network/port-types.js';
