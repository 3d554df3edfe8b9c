/** `qk queue create|list|show|set|delete|purge`. */
import type { Command } from 'commander';
import { action } from '../context.js';
import { formatQueue, formatQueueList } from '../format/queues.js';
import { formatCount } from '../format/table.js';
import type { CliIo } from '../io.js';
import { parseNumber, parseOnOff, parseQuota } from '../parse-values.js';

/** Registers the queue commands. */
export function registerQueueCommands(program: Command, io: CliIo): void {
  const queue = program.command('queue').description('create, list, show, change, delete and purge queues');

  queue
    .command('create <path>')
    .description('create a queue (.\\private$\\NAME, .\\NAME, or the same as DIRECT=OS:.\\private$\\NAME)')
    .option('--transactional', 'a transactional queue (cannot change later)')
    .option('--journal', 'keep a copy of every received message in the queue journal')
    .option('--quota <kb>', 'storage limit of the queue in KB')
    .option('--journal-quota <kb>', 'storage limit of the queue journal in KB')
    .option('--label <text>', 'queue label')
    .option('--retention', 'keep received and sent messages as retained (Service Broker RETENTION = ON)')
    .action(
      action(io, async (ctx, [path]) => {
        const o = ctx.options;
        const input = {
          path: path as string,
          ...(o['transactional'] ? { transactional: true } : {}),
          ...(o['journal'] ? { journal: true } : {}),
          ...(o['quota'] !== undefined ? { quotaKB: parseNumber(String(o['quota']), '--quota') } : {}),
          ...(o['journalQuota'] !== undefined
            ? { journalQuotaKB: parseNumber(String(o['journalQuota']), '--journal-quota') }
            : {}),
          ...(o['label'] !== undefined ? { label: String(o['label']) } : {}),
          ...(o['retention'] ? { retention: true } : {}),
        };
        const client = await ctx.client();
        ctx.print(await client.queueCreate(input), (q) => `Created ${q.path} (${q.formatName}).`);
      }),
    );

  queue
    .command('list')
    .description('all queues, system queues included')
    .action(
      action(io, async (ctx) => {
        const client = await ctx.client();
        ctx.print(await client.queueList({}), formatQueueList);
      }),
    );

  queue
    .command('show <path>')
    .description('one queue, a journal or a system queue')
    .action(
      action(io, async (ctx, [path]) => {
        const client = await ctx.client();
        ctx.print(await client.queueShow({ path: path as string }), formatQueue);
      }),
    );

  queue
    .command('set <path>')
    .description('change queue properties (the transactional type never changes)')
    .option('--journal <on|off>', 'queue journal')
    .option('--quota <kb|unlimited>', 'storage limit of the queue in KB')
    .option('--journal-quota <kb|unlimited>', 'storage limit of the journal in KB')
    .option('--label <text>', 'queue label')
    .option('--retention <on|off>', 'retention of received and sent messages')
    .action(
      action(io, async (ctx, [path]) => {
        const o = ctx.options;
        const input = {
          path: path as string,
          ...(o['journal'] !== undefined ? { journal: parseOnOff(String(o['journal']), '--journal') } : {}),
          ...(o['quota'] !== undefined ? { quotaKB: parseQuota(String(o['quota']), '--quota') } : {}),
          ...(o['journalQuota'] !== undefined
            ? { journalQuotaKB: parseQuota(String(o['journalQuota']), '--journal-quota') }
            : {}),
          ...(o['label'] !== undefined ? { label: String(o['label']) } : {}),
          ...(o['retention'] !== undefined ? { retention: parseOnOff(String(o['retention']), '--retention') } : {}),
        };
        const client = await ctx.client();
        ctx.print(await client.queueSet(input), formatQueue);
      }),
    );

  queue
    .command('delete <path>')
    .description('delete a queue and its messages')
    .action(
      action(io, async (ctx, [path]) => {
        const client = await ctx.client();
        await client.queueDelete({ path: path as string });
        ctx.print({}, () => `Deleted ${path}.`);
      }),
    );

  queue
    .command('purge <path>')
    .description('remove every message (PATH may be a journal or a system queue)')
    .action(
      action(io, async (ctx, [path]) => {
        const client = await ctx.client();
        ctx.print(
          await client.queuePurge({ path: path as string }),
          (r) => `Purged ${formatCount(r.purged)} message${r.purged === 1 ? '' : 's'} from ${path}.`,
        );
      }),
    );
}
