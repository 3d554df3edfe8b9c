/**
 * The console's daily tools on the command line (issue 12): `qk message copy`, `qk search`, and `qk service restart --dry-run`
 * (what a restart would lose), each one call of the same API operation the console makes.
 */
import type { Command } from 'commander';
import type { OperationInput, OperationOutput } from '@qk/api';
import { QkError } from '@qk/model';
import { action } from '../context.js';
import { formatLocations } from '../format/messages.js';
import { formatCount, renderTable } from '../format/table.js';
import type { CliIo } from '../io.js';
import { parseLookupId, parseNumber, parseWhole } from '../parse-values.js';
import { UsageError } from '../usage-error.js';

type SearchFilter = OperationInput<'messagesSearch'>['filter'];

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** The browse filter named by the options of `qk search` (and the same words as the console's filter bar). */
function filterOf(options: Record<string, unknown>): SearchFilter {
  const text = (name: string): string | undefined => {
    const value = options[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const filter: SearchFilter = {};
  const label = text('label');
  const body = text('body');
  const correlationId = text('correlationId');
  const sourceComputer = text('sourceComputer');
  const appSpecific = text('appSpecific');
  const classes = text('class');
  const delivery = text('delivery');
  if (label) filter.label = label;
  if (body) filter.bodyText = body;
  if (correlationId) filter.correlationId = correlationId;
  if (sourceComputer) filter.sourceMachine = sourceComputer;
  if (appSpecific) filter.appSpecific = parseNumber(appSpecific, '--app-specific');
  if (classes) filter.classCodes = classes.split(',').map((c) => parseNumber(c, '--class'));
  if (delivery) {
    if (delivery !== 'express' && delivery !== 'recoverable')
      throw new UsageError(`--delivery must be express or recoverable, not '${delivery}'.`);
    filter.delivery = delivery;
  }
  if (Object.keys(filter).length === 0)
    throw new UsageError('Say what to search for: --label, --body, --class, --correlation-id, --app-specific, …');
  return filter;
}

/** What `qk service restart --dry-run` prints. */
export function formatRestartImpact(impact: OperationOutput<'serviceRestartImpact'>): string {
  const lines = [
    impact.expressMessages === 0
      ? 'A restart now loses no messages.'
      : `A restart now loses ${plural(impact.expressMessages, 'express message')} in ${plural(impact.queues.length, 'queue')}:`,
  ];
  if (impact.queues.length > 0)
    lines.push(
      renderTable(
        [
          { header: 'QUEUE', value: (q) => q.path },
          { header: 'EXPRESS MESSAGES', value: (q) => formatCount(q.messages), right: true },
        ],
        impact.queues,
      ),
    );
  lines.push(`The duplicate cache (${plural(impact.duplicateCacheEntries, 'entry')}) starts empty.`);
  if (impact.pendingSettings.length > 0) lines.push(`Settings that take effect: ${impact.pendingSettings.join(', ')}.`);
  return lines.join('\n');
}

/** Registers `qk message copy` and `qk search`. */
export function registerToolCommands(program: Command, io: CliIo): void {
  const message = program.commands.find((c) => c.name() === 'message') ?? program.command('message');
  message
    .command('copy <path> <lookupid> <target>')
    .description(
      'copy one message to another queue, keeping the original (the copy is a new message: new ID, timers from now)',
    )
    .action(
      action(io, async (ctx, [path, lookupId, target]) => {
        const client = await ctx.client();
        const result = await client.messagesCopy({
          path: path as string,
          lookupIds: [parseLookupId(lookupId as string)],
          target: target as string,
        });
        const failure = result.failed[0];
        if (failure) throw new QkError(failure.code, failure.message);
        ctx.print(result, (r) => `Copied to ${target as string} as ${r.ids[0] ?? ''}.`);
      }),
    );

  program
    .command('search')
    .description('find messages in every queue, journal and system queue')
    .option('--label <text>', 'label contains (case-insensitive)')
    .option('--body <text>', 'text body contains (case-insensitive)')
    .option('--class <codes>', 'message class codes, comma-separated (0x8003,0xC002)')
    .option('--correlation-id <id>', 'this exact correlation ID ({GUID}\\N)')
    .option('--app-specific <n>', 'this application-specific value')
    .option('--source-computer <name>', 'source computer name contains')
    .option('--delivery <kind>', 'express or recoverable')
    .option('--limit <n>', 'at most this many messages (1..1000, default 200)')
    .action(
      action(io, async (ctx) => {
        const filter = filterOf(ctx.options);
        const limit = ctx.options['limit'];
        const client = await ctx.client();
        const result = await client.messagesSearch({
          filter,
          ...(limit !== undefined ? { limit: parseWhole(String(limit), '--limit', 1, 1000) } : {}),
        });
        ctx.print(result, (r) =>
          r.total === 0
            ? 'No message matches.'
            : `${formatLocations(r.matches, '')}\n${plural(r.total, 'message')} in ${plural(r.queues.length, 'queue')}${
                r.matches.length < r.total ? ` (${formatCount(r.matches.length)} shown)` : ''
              }.`,
        );
      }),
    );
}
