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
    .option('--allow-remote', 'allow a --listen address other computers can reach (needs --tls-cert and --tls-key)')
    .option('--tls-cert <file>', 'PEM certificate to serve HTTPS with')
    .option('--tls-key <file>', 'PEM private key of --tls-cert')
    .option('--allow-host <name>', 'another host name clients may use to reach the service (repeatable)', collect, [])
    .option(
      '--allow-origin <origin>',
      'let consoles served from this origin (e.g. http://127.0.0.1:8185 on another service) call this one (repeatable)',
      collect,
      [],
    )
    .option(
      '--peer-listen <host:port>',
      'also accept deliveries from other computers on this address (mutual TLS; port 0 = any free port)',
    )
    .option('--routing', 'be a routing server: relay messages other computers deliver here (with --peer-listen)')
    .option(
      '--log-level <level>',
      'what DIR/logs/service.log records: fatal, error, warn, info (default), debug, trace or silent; warnings and errors also show on stderr',
    )
    .action(action(io, startService));

  program
    .command('console')
    .description('print a one-time link that opens the console in a browser (valid for a minute, once)')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.consoleLink(), (link) => link.url);
      }),
    );

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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
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
  const o = ctx.options;
  const certFile = typeof o['tlsCert'] === 'string' ? o['tlsCert'] : undefined;
  const keyFile = typeof o['tlsKey'] === 'string' ? o['tlsKey'] : undefined;
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new UsageError('--tls-cert and --tls-key go together: give both.');
  // A routing server relays what other computers deliver to it: without a peer listener nothing can arrive.
  // CLI.md lets either flag go alone, so this is said, not refused.
  if (o['routing'] === true && o['peerListen'] === undefined)
    ctx.io.stderr(
      'qk: warning: --routing without --peer-listen: no other computer can deliver to this one, so it relays nothing; give --peer-listen HOST:PORT too.\n',
    );
  let running;
  try {
    const peerListen = o['peerListen'];
    running = await starter.start({
      dataDir,
      name,
      listen: String(o['listen']),
      allowRemote: o['allowRemote'] === true,
      tls: certFile !== undefined && keyFile !== undefined ? { certFile, keyFile } : undefined,
      allowHosts: (o['allowHost'] as string[] | undefined) ?? [],
      allowOrigins: (o['allowOrigin'] as string[] | undefined) ?? [],
      ...(peerListen !== undefined ? { peerListen: String(peerListen) } : {}),
      ...(o['routing'] === true ? { routing: true } : {}),
      ...(typeof o['logLevel'] === 'string' ? { logLevel: o['logLevel'] } : {}),
    });
  } catch (error) {
    // What is checked before the service starts (the address, the TLS files, --log-level, --name) is a wrong
    // command line.
    if (isQkError(error) && error.code === 'INVALID_PARAMETER') throw new UsageError(error.message);
    throw error;
  }
  // Never the token: scripts read it from DATA/token, a browser signs in with a one-time link.
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
      `Queuekeeper service ${r.name} {${r.id}} ready at ${r.url}\n` +
      `  data folder: ${dataDir} (the access token is in ${join(dataDir, 'token')}, readable by this user only)\n` +
      `  console: ${running.consoleLink()} (one-time link, valid for a minute; \`qk console\` makes another)\n` +
      (running.peerAddress
        ? `  peers deliver to ${running.peerAddress}; this computer's fingerprint is ${running.peerFingerprint}\n`
        : '') +
      `  Ctrl+C stops it.`,
  );
  await running.stopped;
  if (!ctx.json) ctx.io.stdout('Service stopped.\n');
}
