/** The `qk` command, runnable in-process (tests) through runCli. */
export { runCli } from './run-cli.js';
export { buildProgram } from './program.js';
export { ExitCode, processIo, type CliIo } from './io.js';
export { UsageError } from './usage-error.js';
export * from './parse-values.js';
export { resolveTarget, defaultDataDir, type Target, type GlobalOptions } from './target.js';
export type { ServiceStarter, ServiceStartOptions, StartedService } from './service-starter.js';
export { runQkProcess } from './main.js';
