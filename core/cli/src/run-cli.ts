/** Runs `qk` on an argument list and returns its exit code: 0 ok, 1 failed, 2 wrong command line, 3 timeout. */
import { CommanderError } from 'commander';
import { isQkError } from '@qk/model';
import { ExitCode, processIo, type CliIo } from './io.js';
import { buildProgram } from './program.js';
import { UsageError } from './usage-error.js';
import { NothingThereError } from './lookup-options.js';

interface ErrorDocument {
  error: { code: string; message: string };
}

/** Runs one command line (without `node qk`) and returns the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  // --json must shape errors found while parsing too, so look for it before commander does.
  const json = argv.includes('--json');
  const fail = (exitCode: number, doc: ErrorDocument): number => {
    io.stderr(
      json
        ? `${JSON.stringify(doc)}\n`
        : `qk: ${doc.error.code === 'INVALID_PARAMETER' && exitCode === ExitCode.USAGE ? '' : `${doc.error.code}: `}${doc.error.message}\n`,
    );
    return exitCode;
  };
  const program = buildProgram(io, { json });
  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    return ExitCode.USAGE;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.OK;
      // A command group without its subcommand: commander printed its help already.
      if (error.code === 'commander.help')
        return json ? fail(ExitCode.USAGE, usage('a subcommand is missing (see qk --help)')) : ExitCode.USAGE;
      return fail(ExitCode.USAGE, usage(error.message.replace(/^error: /, '')));
    }
    if (error instanceof UsageError) return fail(ExitCode.USAGE, usage(error.message));
    if (isQkError(error)) {
      const nothing = error.code === 'IO_TIMEOUT' || error instanceof NothingThereError;
      return fail(nothing ? ExitCode.TIMEOUT : ExitCode.FAILED, {
        error: { code: error.code, message: error.message },
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return fail(ExitCode.FAILED, { error: { code: 'INTERNAL', message: `Internal error: ${message}` } });
  }
}

function usage(message: string): ErrorDocument {
  return { error: { code: 'INVALID_PARAMETER', message } };
}
