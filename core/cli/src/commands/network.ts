/** `qk peer …`, `qk route …`, `qk outgoing …`: trust, routing and outgoing queues (CLI.md "Many computers"). */
import type { Command } from 'commander';
import { action } from '../context.js';
import {
  formatOutgoingQueue,
  formatOutgoingQueues,
  formatPeer,
  formatPeers,
  formatRoute,
  formatRoutes,
} from '../format/network.js';
import type { CliIo } from '../io.js';

/** Registers peer, route and outgoing. */
export function registerNetworkCommands(program: Command, io: CliIo): void {
  const peer = program
    .command('peer')
    .description('the computers this one trusts, both to deliver to and to accept from');
  peer
    .command('add <name> <address>')
    .description(
      'trust computer NAME at HOST:PORT (its peerAddress) by its certificate fingerprint; replaces an earlier entry',
    )
    .requiredOption('--fingerprint <fp>', "the other computer's peerFingerprint (sha256:…)")
    .action(
      action(io, async (ctx, [name, address]) => {
        const client = await ctx.client();
        const input = {
          name: name as string,
          address: address as string,
          fingerprint: String(ctx.options['fingerprint']),
        };
        ctx.print(await client.peerAdd(input), formatPeer);
      }),
    );
  peer
    .command('list')
    .description('the trusted computers with their state')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.peerList({}), formatPeers);
      }),
    );
  peer
    .command('remove <name>')
    .description('stop trusting a computer; its outgoing queues wait')
    .action(
      action(io, async (ctx, [name]) => {
        const client = await ctx.client();
        ctx.print(await client.peerRemove({ name: name as string }), () => `${name} is no longer trusted.`);
      }),
    );

  const route = program.command('route').description('routing servers that messages for other computers go through');
  route
    .command('set <destination> <via>')
    .description('messages for computer DESTINATION (or *, every computer without a route of its own) go through VIA')
    .action(
      action(io, async (ctx, [destination, via]) => {
        const client = await ctx.client();
        ctx.print(await client.routeSet({ destination: destination as string, via: via as string }), formatRoute);
      }),
    );
  route
    .command('list')
    .description('the routes')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.routeList({}), formatRoutes);
      }),
    );
  route
    .command('remove <destination>')
    .description('remove the route of a computer (or *)')
    .action(
      action(io, async (ctx, [destination]) => {
        const client = await ctx.client();
        ctx.print(
          await client.routeRemove({ destination: destination as string }),
          () => `Route for ${destination} removed.`,
        );
      }),
    );

  const outgoing = program
    .command('outgoing')
    .description('outgoing queues: messages waiting to leave for other computers');
  outgoing
    .command('list')
    .description('outgoing queues with their state, next hop and counts')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.outgoingList({}), formatOutgoingQueues);
      }),
    );
  outgoing
    .command('pause <formatname>')
    .description("MSMQ's Pause: the messages stay and nothing is sent until resumed")
    .action(
      action(io, async (ctx, [formatName]) => {
        const client = await ctx.client();
        ctx.print(await client.outgoingPause({ formatName: formatName as string }), formatOutgoingQueue);
      }),
    );
  outgoing
    .command('resume <formatname>')
    .description("MSMQ's Resume of a paused outgoing queue")
    .action(
      action(io, async (ctx, [formatName]) => {
        const client = await ctx.client();
        ctx.print(await client.outgoingResume({ formatName: formatName as string }), formatOutgoingQueue);
      }),
    );
}
