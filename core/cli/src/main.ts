/**
 * The `qk` process: runs the command line of this process and exits with its code. Whatever the CLI layer
 * cannot do itself (run a service in this process for `qk service start`) is handed in by the composition
 * root that calls this (bin/qk-entry.ts), so core/cli never imports core/service (DESIGN's arrows).
 */
import { processIo, type CliIo } from './io.js';
import { runCli } from './run-cli.js';

/** Runs `qk` with this process's arguments and streams, then exits. */
export async function runQkProcess(extra: Partial<CliIo> = {}): Promise<void> {
  quietWhenReaderGoes();
  const code = await runCli(process.argv.slice(2), { ...processIo, ...extra });
  // Exit once stdout and stderr have flushed (a large document may still be going into a pipe) rather than
  // wait for idle keep-alive connections to time out, which cost every qk call a fifth of a second.
  await new Promise<void>((flushed) => process.stdout.write('', () => process.stderr.write('', () => flushed())));
  process.exit(code);
}

/**
 * The reader of stdout went away (`qk … | head -c 10`): the write fails with EPIPE, which Node raises as an
 * 'error' event nobody handles — a stack trace and exit 1. As a Unix tool stops on SIGPIPE, qk stops at once,
 * quietly: what the command did is done (a receive has taken its message; only its printout was cut), so the
 * exit code is the operation's, 0. Following commands (`--follow`) stop taking more then.
 */
function quietWhenReaderGoes(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
