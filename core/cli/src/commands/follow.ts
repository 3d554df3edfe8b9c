/**
 * `qk receive PATH --follow [--count N] [--timeout S]`: a streaming receive (issue 11). Messages are printed as
 * they arrive — one JSON line each with --json — until --count messages were printed, the queue has had no
 * message for --timeout seconds (0: print what is there, then stop), or the command is interrupted. Ended by
 * its timeout before --count messages (without --count: before any), it exits 3, as a receive that got
 * nothing does. The stream's credit never runs past --count, so no message is taken that is not printed; on an
 * interrupt, the messages already on their way are printed before the command ends. With --transactional each
 * message is committed once printed, so an interrupt puts back only what was not printed.
 */
import { QkError, type MessageInfo } from '@qk/model';
import type { CommandContext } from '../context.js';
import { formatMessage } from '../format/messages.js';
import { parseTimeoutSeconds, parseWhole } from '../parse-values.js';
import { propertiesFrom } from '../properties-option.js';
import { UsageError } from '../usage-error.js';

/** Messages on their way to `qk` at most. */
const FOLLOW_CREDIT = 100;

export async function followQueue(ctx: CommandContext, path: string): Promise<void> {
  const o = ctx.options;
  if (o['lookupId'] !== undefined || o['action'] !== undefined)
    throw new UsageError('--follow receives messages as they arrive: leave out --lookup-id and --action.');
  const count = o['count'] === undefined ? undefined : parseWhole(String(o['count']), '--count', 1);
  const properties = propertiesFrom(o, ctx.json);
  const timeoutMs = o['timeout'] === undefined ? undefined : parseTimeoutSeconds(String(o['timeout']));
  const client = await ctx.client();
  let printed = 0;
  const consumer = client.consume(
    path,
    {
      credit: Math.min(FOLLOW_CREDIT, count ?? FOLLOW_CREDIT),
      max: count,
      transactional: o['transactional'] === true,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...properties,
    },
    async (message: MessageInfo) => {
      ctx.print(message, (m) => `${formatMessage(m)}\n`);
      printed++;
      // A reader of our output that is slower than the queue holds the stream back (its credit waits).
      await ctx.io.drain?.();
    },
  );
  // How the consumer ended is `done`'s, awaited below.
  const stop = ctx.io.onInterrupt?.(() => void consumer.close().catch(() => undefined));
  try {
    await consumer.done;
  } finally {
    stop?.();
  }
  if (!ctx.json) ctx.io.stderr(`${printed} message${printed === 1 ? '' : 's'} received from ${path}.\n`);
  if (consumer.timedOut && printed < (count ?? 1))
    throw new QkError(
      'IO_TIMEOUT',
      count === undefined
        ? `No message arrived from ${path} within ${String(o['timeout'])} s.`
        : `${printed} of ${count} messages arrived from ${path}; then none within ${String(o['timeout'])} s.`,
    );
}
