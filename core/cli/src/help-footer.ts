/** The text after `qk --help`: every command, generated from the command tree so it can never drift from it. */
import type { Command } from 'commander';

const SYNOPSIS_WIDTH = 46;

/** `qk queue create [options] <path>` and its description, for every command and subcommand in definition order. */
function commandLines(command: Command, prefix: string): string[] {
  const lines: string[] = [];
  for (const sub of command.commands) {
    const path = `${prefix} ${sub.name()}`;
    const usage = sub.commands.length > 0 && sub.registeredArguments.length === 0 ? '' : ` ${sub.usage()}`;
    const synopsis = `${path}${usage}`;
    const gap = synopsis.length < SYNOPSIS_WIDTH ? ' '.repeat(SYNOPSIS_WIDTH - synopsis.length) : '  ';
    lines.push(`  ${synopsis}${gap}${sub.description()}`);
    lines.push(...commandLines(sub, path));
  }
  return lines;
}

/** What follows the options in `qk --help`. */
export function helpFooter(program: Command): string {
  return `
All commands (qk COMMAND --help tells each one's options):
${commandLines(program, 'qk').join('\n')}

Reaching a service:
  --data DIR (or QK_DATA)                the service running on that data folder (default: $XDG_DATA_HOME/queuekeeper
                                         or ~/.local/share/queuekeeper)
  --service URL --token T (QK_SERVICE, QK_TOKEN)   any service, local or remote

Queue names: .\\private$\\orders, HOST\\private$\\orders, .\\orders, .\\private$\\orders\\JOURNAL$,
  .\\JOURNAL$, .\\DEADLETTER$, .\\XACTDEADLETTER$, and format names (DIRECT=OS:HOST\\private$\\q, MACHINE=GUID;DEADLETTER, …).

Output: tables for people; --json prints one JSON document on stdout, or {"error":{"code","message"}} on stderr.
Exit codes: 0 success, 1 the operation failed, 2 the command line is wrong, 3 nothing arrived within --timeout.
`;
}
