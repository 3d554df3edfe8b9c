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
      '--peer-listen <host:port>',
      'also accept deliveries from other computers on this address (mutual TLS; port 0 = any free port)',
    )
    .option('--routing', 'be a routing server: relay messages for other computers')
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
    .command('disconnect')
    .description("MSMQ's offline mode: every outgoing queue holds and no deliveries are accepted")
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.serviceDisconnect({}), (s) => `Offline.\n${formatStatus(s)}`);
      }),
    );

  service
    .command('connect')
    .description('end offline mode: outgoing queues send again and deliveries are accepted')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.serviceConnect({}), (s) => `Online.\n${formatStatus(s)}`);
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
    const peerListen = ctx.options['peerListen'];
    running = await starter.start({
      dataDir,
      name,
      listen: String(ctx.options['listen']),
      ...(peerListen !== undefined ? { peerListen: String(peerListen) } : {}),
      ...(ctx.options['routing'] === true ? { routing: true } : {}),
    });
  } catch (error) {
    // Only the listen address is checked before the service starts; a bad one is a wrong command line.
    if (isQkError(error) && error.code === 'INVALID_PARAMETER') throw new UsageError(error.message);
    throw error;
  }
  // CLI.md: with --peer-listen the ready line gains the peer address and fingerprint (status always has them).
  const ready = {
    ready: true,
    name: running.name,
    id: running.id,
    url: running.url,
    ...(running.peerAddress !== null
      ? { peerAddress: running.peerAddress, peerFingerprint: running.peerFingerprint }
      : {}),
  };
  ctx.print(
    ready,
    (r) =>
      `Queuekeeper service ${r.name} {${r.id}} ready at ${r.url} (data ${dataDir}; console ${running.consoleUrl}; Ctrl+C stops it)` +
      (running.peerAddress
        ? `\nPeers deliver to ${running.peerAddress}; this computer's fingerprint is ${running.peerFingerprint}`
        : ''),
  );
  await running.stopped;
  if (!ctx.json) ctx.io.stdout('Service stopped.\n');
}
