/** The `qk` command tree (CLI.md), with the extra commands arrive, message show/find and acks. */
import { Command, Option } from 'commander';
import { registerMessageCommands } from './commands/message.js';
import { registerMessagingCommands } from './commands/messaging.js';
import { registerNetworkCommands } from './commands/network.js';
import { registerQueueCommands } from './commands/queue.js';
import { registerServiceCommands } from './commands/service.js';
import { registerSettingsCommands } from './commands/settings.js';
import { registerToolCommands } from './commands/tools.js';
import { registerTrafficCommands } from './commands/traffic.js';
import { registerTransferCommands } from './commands/transfer.js';
import type { CliIo } from './io.js';
import { cliVersion } from './version.js';

const HELP_FOOTER = `
All commands:
  qk service start [--name NAME] [--listen HOST:PORT] [--peer-listen HOST:PORT] [--routing]
                                                         run the service here (default 127.0.0.1:0 = any free port)
  qk service start … --allow-remote --tls-cert FILE --tls-key FILE   listen beyond loopback (TLS only)
  qk service start … [--allow-host NAME] [--allow-origin ORIGIN]      other names / console origins it accepts
  qk service status | restart | stop | disconnect | connect
  qk console                                             a one-time link that opens the console in a browser
  qk queue create PATH [--transactional] [--journal] [--quota KB] [--journal-quota KB] [--label TEXT] [--retention]
  qk queue list | show PATH | delete PATH | purge PATH | classes PATH
  qk queue set PATH [--journal on|off] [--quota KB|unlimited] [--journal-quota KB|unlimited] [--label TEXT] [--retention on|off]
  qk send PATH [send options] [--transactional] [--dead-letter-queue PATH]   (qk send --help lists the send options)
  qk receive PATH [--timeout S] [--transactional] [--lookup-id N] [--action first|last|next|previous|current]
  qk peek PATH [--timeout S] [--lookup-id N] [--action …]
  qk messages PATH [--offset N] [--limit N]                (PATH may be a subqueue: .\\private$\\orders;poison)
  qk message show PATH LOOKUPID | delete PATH LOOKUPID | find ID
  qk message move PATH LOOKUPID TARGET | reject PATH LOOKUPID
  qk resend PATH [LOOKUPID…]                             dead letters back to their destinations, fresh timers
  qk export PATH FILE | qk import PATH FILE              every message of a queue to a file and back
  qk acks ID                                             acknowledgments whose correlation ID is ID
  qk arrive PATH --id MSGID --source-id GUID --source-name NAME [send options] [--transactional]
  qk conversation end ID
  qk traffic [PATH] [--seconds N]                        messages in/out per second and depth (queue or computer)
  qk settings                                            qk settings set NAME VALUE
  qk peer add NAME HOST:PORT --fingerprint FP | list | remove NAME
  qk route set DEST VIA | list | remove DEST             DEST may be * (every computer without a route)
  qk outgoing list | pause FORMATNAME | resume FORMATNAME

Reaching a service:
  --data DIR (or QK_DATA)                the service running on that data folder (default: $XDG_DATA_HOME/queuekeeper
                                         or ~/.local/share/queuekeeper)
  --service URL --token T (QK_SERVICE, QK_TOKEN)   any service, local or remote

Queue names: .\\private$\\orders, HOST\\private$\\orders, .\\orders, .\\private$\\orders\\JOURNAL$,
  .\\JOURNAL$, .\\DEADLETTER$, .\\XACTDEADLETTER$, and format names (DIRECT=OS:HOST\\private$\\q, MACHINE=GUID;DEADLETTER, …).

Output: tables for people; --json prints one JSON document on stdout, or {"error":{"code","message"}} on stderr.
Exit codes: 0 success, 1 the operation failed, 2 the command line is wrong, 3 nothing arrived within --timeout.
`;

/** Builds the program; output goes to `io`, errors are thrown (exitOverride) for runCli to map to exit codes. */
export function buildProgram(io: CliIo, options: { json?: boolean } = {}): Command {
  const program = new Command('qk')
    .description('Queuekeeper: message queuing with the semantics of Microsoft Message Queuing')
    .version(cliVersion, '-V, --version')
    .addOption(new Option('--data <dir>', 'data folder of the service to use (env QK_DATA)'))
    .addOption(new Option('--service <url>', 'URL of the service to use (env QK_SERVICE)'))
    .addOption(new Option('--token <token>', 'token of the service given by --service (env QK_TOKEN)'))
    .option('--json', 'machine-readable output')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      // With --json, stderr carries exactly one error document: commander's own usage text would spoil it.
      writeErr: (text) => (options.json ? undefined : io.stderr(text)),
      // runCli prints errors itself (as JSON with --json).
      outputError: () => undefined,
    })
    .showSuggestionAfterError(true)
    .addHelpText('after', HELP_FOOTER);

  registerServiceCommands(program, io);
  registerQueueCommands(program, io);
  registerMessagingCommands(program, io);
  registerMessageCommands(program, io);
  registerSettingsCommands(program, io);
  registerNetworkCommands(program, io);
  registerTrafficCommands(program, io);
  registerTransferCommands(program, io);
  registerToolCommands(program, io);
  return program;
}
