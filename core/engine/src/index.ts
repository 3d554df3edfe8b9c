export * from './types.js';
export { openQueueManager } from './queue-manager.js';
export { restartImpact, searchMessages } from './console-tools.js';
export type { RestartImpact, SearchFilter, SearchResult } from './console-tools.js';
