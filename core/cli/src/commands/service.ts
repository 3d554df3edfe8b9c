/** `qk service start|status|restart|stop`. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { SERVICE_FILE } from '@qk/client';
import { isQkError, QkError } from '@qk/model';
import { action, type CommandContext } from '../context.js';
import { formatStatus } from '../format/service.js';
import { formatRestartImpact } from './tools.js';
import type { CliIo } from '../io.js';
import { dataDirOf } from '../target.js';
import { UsageError } from '../usage-error.js';

/** How long `service stop` waits for the process to finish flushing and release the data folder. */
const STOP_WAIT_MS = 30_000;

/** Registers the service commands. */
export function registerServiceCommands(program: Command, io: CliIo): void {
  const service = program.command('service').description('run, inspect, restart or stop the queue manager service');

  service
    .command('start')
    .description(
      'run the service in the foreground until SIGINT/SIGTERM or `qk service stop` (default: --listen 127.0.0.1:0, any free port on loopback)',
    )
    .option('--name <name>', 'computer name of this queue manager (default: the stored name, else the host name)')
    .option('--listen <host:port>', 'address to listen on; port 0 = any free port', '127.0.0.1:0')
    .option(
      '--log-level <level>',
      'what DIR/logs/service.log records: fatal, error, warn, info (default), debug, trace or silent; warnings and errors also show on stderr',
    )
    .action(action(io, startService));

  service
    .command('status')
    .description("the queue manager's state")
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.serviceStatus({}), formatStatus);
      }),
    );

  service
    .command('restart')
    .description(
      'restart the queue manager in place: pending settings apply, express messages are lost, the duplicate cache empties',
    )
    .option('--dry-run', 'say what a restart would lose now (express messages per queue) and restart nothing')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        if (ctx.options['dryRun'] === true) {
          ctx.print(await client.serviceRestartImpact({}), formatRestartImpact);
          return;
        }
        ctx.print(await client.serviceRestart({}), (s) => `Restarted.\n${formatStatus(s)}`);
      }),
    );

  service
    .command('stop')
    .description('stop the service (waits until it has released its data folder)')
    .action(
      action(io, async (ctx) => {
        const target = ctx.target();
        const client = await ctx.client();
        await client.serviceStop({});
        if (target.kind === 'data') await waitForStop(target.dataDir);
        ctx.print({}, () => 'Stopped.');
      }),
    );
}

async function waitForStop(dataDir: string): Promise<void> {
  const file = join(dataDir, SERVICE_FILE);
  const deadline = Date.now() + STOP_WAIT_MS;
  // The service removes service.json after closing its store and releasing the lock.
  while (existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function startService(ctx: CommandContext): Promise<void> {
  if (ctx.options.service) throw new UsageError('service start runs a local service: give --data DIR, not --service.');
  const starter = ctx.io.serviceStarter;
  if (!starter)
    throw new QkError(
      'SERVICE_NOT_AVAILABLE',
      'This qk cannot run a service here; start one with the qk command of a Queuekeeper installation.',
    );
  const dataDir = dataDirOf(ctx.options, ctx.io.env);
  const name = typeof ctx.options['name'] === 'string' ? ctx.options['name'] : undefined;
  let running;
  try {
    const logLevel = typeof ctx.options['logLevel'] === 'string' ? ctx.options['logLevel'] : undefined;
    running = await starter.start({ dataDir, name, listen: String(ctx.options['listen']), logLevel });
  } catch (error) {
    // A malformed --listen, --log-level or --name is refused before the queue manager opens: a wrong command line.
    if (isQkError(error) && error.code === 'INVALID_PARAMETER') throw new UsageError(error.message);
    throw error;
  }
  const ready = { ready: true, name: running.name, id: running.id, url: running.url };
  ctx.print(
    ready,
    (r) =>
      `Queuekeeper service ${r.name} {${r.id}} ready at ${r.url} (data ${dataDir}; console ${running.consoleUrl}; Ctrl+C stops it)`,
  );
  await running.stopped;
  if (!ctx.json) ctx.io.stdout('Service stopped.\n');
}
