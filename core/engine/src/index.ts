export * from './types.js';
export { openQueueManager } from './queue-manager.js';
