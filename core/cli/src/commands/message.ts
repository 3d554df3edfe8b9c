/** `qk message show|delete|move|reject|find`, `qk acks`, `qk conversation end`. */
import type { Command } from 'commander';
import { action } from '../context.js';
import { formatLocations, formatMessage } from '../format/messages.js';
import { formatCount } from '../format/table.js';
import type { CliIo } from '../io.js';
import { parseLookupId } from '../parse-values.js';

/** Registers the single-message commands. */
export function registerMessageCommands(program: Command, io: CliIo): void {
  const message = program.command('message').description('one message: show, delete, or find where it is');

  message
    .command('show <path> <lookupid>')
    .description('one message with its body, by lookup ID')
    .action(
      action(io, async (ctx, [path, lookupId]) => {
        const input = { path: path as string, lookupId: parseLookupId(lookupId as string) };
        const client = await ctx.client();
        ctx.print(await client.messageGet(input), formatMessage);
      }),
    );

  message
    .command('delete <path> <lookupid>')
    .description('delete one message by lookup ID')
    .action(
      action(io, async (ctx, [path, lookupId]) => {
        const input = { path: path as string, lookupId: parseLookupId(lookupId as string) };
        const client = await ctx.client();
        await client.messageDelete(input);
        ctx.print({}, () => `Deleted message ${input.lookupId} of ${path}.`);
      }),
    );

  message
    .command('move <path> <lookupid> <target>')
    .description(
      "move one message: to or from one of the queue's subqueues (PATH;NAME) it is MSMQ's MoveMessage, the subqueue opened on first use; to any other queue, through its arrival path",
    )
    .action(
      action(io, async (ctx, [path, lookupId, target]) => {
        const input = { path: path as string, lookupId: parseLookupId(lookupId as string), target: target as string };
        const client = await ctx.client();
        await client.messageMove(input);
        ctx.print({}, () => `Moved message ${input.lookupId} of ${path} to ${target}.`);
      }),
    );

  message
    .command('reject <path> <lookupid>')
    .description(
      'reject one message: it is removed, and its sender gets NACK_RECEIVE_REJECTED (0xC004) when it asked for negative receive acknowledgments',
    )
    .action(
      action(io, async (ctx, [path, lookupId]) => {
        const input = { path: path as string, lookupId: parseLookupId(lookupId as string) };
        const client = await ctx.client();
        await client.messageReject(input);
        ctx.print({}, () => `Rejected message ${input.lookupId} of ${path}.`);
      }),
    );

  message
    .command('find <id>')
    .description('where a message ID is on this computer now (queues, journals, dead-letter queues)')
    .action(
      action(io, async (ctx, [id]) => {
        const client = await ctx.client();
        ctx.print(await client.messageFind({ id: id as string }), (l) =>
          formatLocations(l, `Message ${id} is not on this computer.`),
        );
      }),
    );

  program
    .command('acks <id>')
    .description('every acknowledgment (ACK/NACK) on this computer whose correlation ID is the message ID')
    .action(
      action(io, async (ctx, [id]) => {
        const client = await ctx.client();
        ctx.print(await client.acknowledgmentsFor({ id: id as string }), (l) =>
          formatLocations(l, `No acknowledgments for ${id}.`),
        );
      }),
    );

  const conversation = program.command('conversation').description('Service Broker conversations');
  conversation
    .command('end <id>')
    .description('end a conversation: its retained messages go')
    .action(
      action(io, async (ctx, [id]) => {
        const client = await ctx.client();
        ctx.print(
          await client.conversationEnd({ conversation: id as string }),
          (r) => `Ended ${id}: ${formatCount(r.removed)} retained message${r.removed === 1 ? '' : 's'} removed.`,
        );
      }),
    );
}
