/** The `qk` command: its process entry (bin/qk-entry.ts composes it with the service starter). */
export { UsageError } from './usage-error.js';
export * from './parse-values.js';
export type { ServiceStarter } from './service-starter.js';
export { runQkProcess } from './main.js';
