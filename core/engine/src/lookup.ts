/**
 * Peeking and receiving by lookup ID (MQReceiveMessageByLookupId, R-L1, R-L2): the message with lookup ID N
 * (`current`), the one after or before it in queue order (`next`, `previous`), or the first or last of the
 * queue (`first`, `last`, which ignore N). Queue order is R-O1's: priority, then arrival.
 */
import { QkError, type LookupAction } from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { EngineContext } from './engine-context.js';

const none = (queue: string, what: string): QkError =>
  new QkError('MESSAGE_NOT_FOUND', `There is no message ${what} in '${queue}'.`);

/**
 * The message a lookup-ID action points at, or MESSAGE_NOT_FOUND (R-L2). `current` finds any message of the
 * queue (a peek may read a retained one; a receive checks); the walks see only messages that can be received
 * now, skipping those another receive holds.
 */
export function findByLookupId(
  ctx: EngineContext,
  queue: QueueRecord,
  lookupId: number | undefined,
  action: LookupAction,
): StoredMessage {
  const path = ctx.core.registry.pathOf(queue);
  if (lookupId === undefined && action !== 'first' && action !== 'last')
    throw new QkError('INVALID_PARAMETER', `The lookup action '${action}' needs a lookup ID; first and last do not.`);
  if (action === 'current') return ctx.messageIn(queue, lookupId ?? 0);
  let from: { priority: number; lookupId: number } | null = null;
  if (action === 'next' || action === 'previous') {
    const reference = ctx.messageIn(queue, lookupId ?? 0);
    from = { priority: reference.priority, lookupId: reference.lookupId };
  }
  const forward = action === 'next' || action === 'first';
  const held = ctx.claims.countIn(queue.id);
  for (;;) {
    const candidates = ctx.core.store.messages.neighbors(queue.id, from, forward, held + 1);
    const free = candidates.find((c) => !ctx.claims.has(c.lookupId));
    if (free) {
      const [message] = ctx.core.store.messages.rows([free]);
      if (message) return message;
    }
    if (candidates.length < held + 1) break;
    from = candidates[candidates.length - 1] ?? null;
  }
  const what =
    action === 'next'
      ? `after ${lookupId}`
      : action === 'previous'
        ? `before ${lookupId}`
        : `to ${action === 'first' ? 'come first' : 'come last'}`;
  throw none(path, what);
}
