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
import { helpFooter } from './help-footer.js';
import type { CliIo } from './io.js';
import { cliVersion } from './version.js';

/** Builds the program; output goes to `io`, errors are thrown (exitOverride) for runCli to map to exit codes. */
export function buildProgram(io: CliIo, options: { json?: boolean } = {}): Command {
  const program: Command = new Command('qk')
    .description('Queuekeeper: message queuing with the semantics of Microsoft Message Queuing')
    // With --json the version is one JSON document too (found by the CLI fuzz: `queue set -Vx` printed bare text).
    .version(options.json ? JSON.stringify({ version: cliVersion }) : cliVersion, '-V, --version')
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
    .addHelpText('after', () => helpFooter(program));

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
