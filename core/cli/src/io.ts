import type { ServiceStarter } from './service-starter.js';

/** Where the CLI writes, so tests can run it in-process, and what it may start. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Runs `qk service start`; absent where no service can be run (then that command fails clearly). */
  serviceStarter?: ServiceStarter | undefined;
  /** Resolves once what was written to stdout has drained below its buffer's limit (absent: at once). */
  drain?: (() => Promise<void>) | undefined;
  /** Calls `listener` on Ctrl+C or SIGTERM until the returned function is called (absent: never). */
  onInterrupt?: ((listener: () => void) => () => void) | undefined;
}

/** The real process streams. */
export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  drain: () =>
    process.stdout.writableNeedDrain
      ? new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()))
      : Promise.resolve(),
  onInterrupt: (listener) => {
    process.on('SIGINT', listener);
    process.on('SIGTERM', listener);
    return () => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    };
  },
};

/** Exit codes of CLI.md. */
export const ExitCode = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  TIMEOUT: 3,
} as const;
