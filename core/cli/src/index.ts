/** The `qk` command: its process entry (bin/qk-entry.ts composes it with the service starter). */
export { UsageError } from './usage-error.js';
export { buildProgram } from './program.js';
export { ExitCode, type CliIo } from './io.js';
export { runCli } from './run-cli.js';
export * from './parse-values.js';
export type { ServiceStarter } from './service-starter.js';
export { runQkProcess } from './main.js';
