/** `qk send|receive|peek|messages|arrive`: the message traffic of one queue. */
import type { Command } from 'commander';
import { MessageClass } from '@qk/model';
import { action } from '../context.js';
import { formatMessage, formatMessagePage } from '../format/messages.js';
import type { CliIo } from '../io.js';
import { parseNumber, parseTimeoutSeconds, parseWhole } from '../parse-values.js';
import { addSendOptions, sendPropertiesFrom } from '../send-options.js';
import { addLookupOptions, lookingUp, lookupFrom } from '../lookup-options.js';
import { addPropertiesOption, propertiesFrom } from '../properties-option.js';
import { UsageError } from '../usage-error.js';
import { followQueue } from './follow.js';

/** Registers send, receive, peek, messages and arrive. */
export function registerMessagingCommands(program: Command, io: CliIo): void {
  addSendOptions(program.command('send <path>').description('send one message'))
    .option('--transactional', 'send in a single-message transaction (to a transactional queue)')
    .action(
      action(io, async (ctx, [path]) => {
        const message = sendPropertiesFrom(ctx.options);
        const client = await ctx.client();
        const result = await client.send({
          path: path as string,
          message,
          ...(ctx.options['transactional'] ? { transactional: true } : {}),
        });
        ctx.print(result, (r) => `Sent ${r.id} to ${path}.`);
      }),
    );

  addPropertiesOption(
    addLookupOptions(
      program
        .command('receive <path>')
        .description(
          'remove and print the first message, or the one --lookup-id/--action names (exit 3 when none arrives within --timeout, or the lookup finds none)',
        )
        .option(
          '--timeout <seconds>',
          'how long to wait for a message (fractions allowed; default 0 = do not wait); with --follow, stop once the queue has had none this long (default: never)',
        )
        .option(
          '--transactional',
          'receive in a single-message transaction (from a transactional queue); with --follow, commit each message once printed',
        )
        .option(
          '--follow',
          'keep receiving: print messages as they arrive (a streaming receive) until interrupted, --count are printed or --timeout passes without one; one JSON line each with --json',
        )
        .option('--count <n>', 'with --follow: stop after this many messages'),
    ),
  ).action(
    action(io, async (ctx, [path]) => {
      if (ctx.options['follow']) return followQueue(ctx, path as string);
      if (ctx.options['count'] !== undefined) throw new UsageError('--count goes with --follow.');
      const timeout = ctx.options['timeout'];
      const lookup = lookupFrom(ctx.options);
      const input = {
        path: path as string,
        ...(timeout !== undefined ? { timeoutMs: parseTimeoutSeconds(String(timeout)) } : {}),
        ...(ctx.options['transactional'] ? { transactional: true } : {}),
        ...lookup,
        ...propertiesFrom(ctx.options, ctx.json),
      };
      const client = await ctx.client();
      ctx.print(await lookingUp(lookup.lookupAction !== undefined, () => client.receive(input)), formatMessage);
    }),
  );

  addPropertiesOption(
    addLookupOptions(
      program
        .command('peek <path>')
        .description(
          'print the first message, or the one --lookup-id/--action names, without removing it (exit 3 when none arrives within --timeout, or the lookup finds none)',
        )
        .option('--timeout <seconds>', 'how long to wait for a message (fractions allowed; default 0)'),
    ),
  ).action(
    action(io, async (ctx, [path]) => {
      const timeout = ctx.options['timeout'];
      const lookup = lookupFrom(ctx.options);
      const input = {
        path: path as string,
        ...(timeout !== undefined ? { timeoutMs: parseTimeoutSeconds(String(timeout)) } : {}),
        ...lookup,
        ...propertiesFrom(ctx.options, ctx.json),
      };
      const client = await ctx.client();
      ctx.print(await lookingUp(lookup.lookupAction !== undefined, () => client.peek(input)), formatMessage);
    }),
  );

  program
    .command('messages <path>')
    .description('browse a queue without removing anything (retained messages included)')
    .option('--offset <n>', 'skip this many messages (default 0)')
    .option('--limit <n>', 'at most this many messages (1..1000)')
    .action(
      action(io, async (ctx, [path]) => {
        const o = ctx.options;
        const offset = o['offset'] !== undefined ? parseWhole(String(o['offset']), '--offset', 0) : undefined;
        const limit = o['limit'] !== undefined ? parseWhole(String(o['limit']), '--limit', 1, 1000) : undefined;
        const client = await ctx.client();
        const page = await client.browse({
          path: path as string,
          includeBody: true,
          ...(offset !== undefined ? { offset } : {}),
          ...(limit !== undefined ? { limit } : {}),
        });
        ctx.print(page, (p) => formatMessagePage(p, offset ?? 0));
      }),
    );

  addSendOptions(
    program
      .command('arrive <path>')
      .description(
        "hand a message 'from another computer' to the arrival path (duplicate removal, type and quota checks)",
      ),
  )
    .requiredOption('--id <msgid>', 'message ID as sent by the other computer ({GUID}\\N)')
    .requiredOption('--source-id <guid>', 'GUID of the sending computer')
    .requiredOption('--source-name <name>', 'name of the sending computer')
    .option('--transactional', 'a transactional message')
    .option('--sent-time <iso>', 'when the other computer sent it (ISO 8601)')
    .option('--class <class>', 'message class name (NORMAL, ACK_RECEIVE, …) or code (0xC002)')
    .action(
      action(io, async (ctx, [path]) => {
        const o = ctx.options;
        const message = {
          ...sendPropertiesFrom(o),
          id: String(o['id']),
          sourceMachineId: String(o['sourceId']),
          sourceMachine: String(o['sourceName']),
          ...(o['transactional'] ? { transactional: true } : {}),
          ...(o['sentTime'] !== undefined ? { sentTime: String(o['sentTime']) } : {}),
          ...(o['class'] !== undefined ? { classCode: parseClass(String(o['class'])) } : {}),
        };
        const client = await ctx.client();
        const result = await client.messageArrive({ path: path as string, message });
        ctx.print(result, (r) => (r.accepted ? `Accepted into ${path}.` : `Not accepted: ${r.reason ?? 'refused'}.`));
      }),
    );
}

function parseClass(text: string): number {
  const upper = text
    .trim()
    .toUpperCase()
    .replace(/^MQMSG_CLASS_/, '');
  const code = (MessageClass as Record<string, number>)[upper];
  if (code !== undefined) return code;
  // Unknown codes pass on: connectors may use classes MSMQ does not name.
  return parseNumber(text, '--class');
}
