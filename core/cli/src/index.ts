/** The `qk` command: its process entry (bin/qk-entry.ts composes it with the service starter). */
export { UsageError } from './usage-error.js';
export { buildProgram } from './program.js';
export { ExitCode, type CliIo } from './io.js';
export { runCli } from './run-cli.js';
export * from './parse-values.js';
export { resolveTarget, defaultDataDir, type Target, type GlobalOptions } from './target.js';
export type { ServiceStarter, ServiceStartOptions, StartedService } from './service-starter.js';
export { runQkProcess } from './main.js';
