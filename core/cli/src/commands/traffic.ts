/** `qk traffic [PATH]` and `qk queue classes PATH`: what moves through a queue, and what a queue holds by class. */
import type { Command } from 'commander';
import { action } from '../context.js';
import { formatCount, renderFields, renderTable } from '../format/table.js';
import type { CliIo } from '../io.js';
import { parseNumber } from '../parse-values.js';

interface Series {
  endTime: string;
  incoming: number[];
  outgoing: number[];
  depth: number[];
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

function formatTraffic(what: string, s: Series): string {
  const seconds = s.incoming.length;
  return renderFields([
    ['Traffic of', what],
    ['Window', `${seconds} s ending ${s.endTime}`],
    ['Incoming', `${formatCount(sum(s.incoming))} (peak ${formatCount(Math.max(...s.incoming))}/s)`],
    ['Outgoing', `${formatCount(sum(s.outgoing))} (peak ${formatCount(Math.max(...s.outgoing))}/s)`],
    ['Depth', `${formatCount(s.depth[0] ?? 0)} → ${formatCount(s.depth[seconds - 1] ?? 0)}`],
  ]);
}

/** Registers `qk traffic` and `qk queue classes`. */
export function registerTrafficCommands(program: Command, io: CliIo): void {
  program
    .command('traffic [path]')
    .description('messages in and out per second and the depth, second by second (of a queue, or of the computer)')
    .option('--seconds <n>', 'how many seconds back (1..300, default 60)')
    .action(
      action(io, async (ctx, [path]) => {
        const seconds = ctx.options['seconds'];
        const client = await ctx.client();
        const series = await client.traffic({
          ...(path !== undefined ? { path } : {}),
          ...(seconds !== undefined ? { seconds: parseNumber(String(seconds), '--seconds') } : {}),
        });
        ctx.print(series, (s) => formatTraffic(path ?? 'this computer', s));
      }),
    );

  const queue = program.commands.find((c) => c.name() === 'queue');
  (queue ?? program)
    .command('classes <path>')
    .description('how many messages of each class a queue holds (a dead-letter queue by failure)')
    .action(
      action(io, async (ctx, [path]) => {
        const client = await ctx.client();
        ctx.print(await client.queueClassCounts({ path: path as string }), (r) =>
          r.counts.length === 0
            ? `${path} is empty.`
            : renderTable(
                [
                  { header: 'CLASS', value: (c) => c.class },
                  { header: 'CODE', value: (c) => `0x${c.classCode.toString(16).toUpperCase().padStart(4, '0')}` },
                  { header: 'MESSAGES', value: (c) => formatCount(c.count), right: true },
                ],
                r.counts,
              ),
        );
      }),
    );
}
