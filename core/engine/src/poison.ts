/**
 * Poison-message handling (MSMQ 4.0, R-S7, R-S8): the abort count of a message whose receiving transaction
 * was aborted, and rejecting a message so its sender learns of it (NACK_RECEIVE_REJECTED, 0xC004).
 */
import { MessageStatus, QkError } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { removeMessage } from './removal.js';

/**
 * R-S7: one more abort for each message a receiving transaction held when it was aborted. The count is kept
 * with the message (it survives a restart when the message does) and starts again when it moves.
 */
export function recordAborts(ctx: EngineContext, messages: readonly StoredMessage[]): void {
  if (messages.length === 0) return;
  ctx.runner.runNow(() => {
    for (const m of messages) ctx.core.store.messages.addAbort(m.table, m.lookupId);
  });
}

/**
 * Rejects a message (MQMarkMessageRejected, R-S8): it leaves its queue and its sender gets
 * NACK_RECEIVE_REJECTED (0xC004) when it asked for negative receive acknowledgments; a transactional one is
 * dead-lettered at its source as any unconfirmed transactional message is (R-D2). On a transactional queue
 * the removal and what it owes commit as one single-message transaction.
 */
export async function rejectMessage(ctx: EngineContext, path: string, lookupId: number): Promise<void> {
  const queue = ctx.resolveExisting(path);
  if (queue.kind !== 'private' && queue.kind !== 'public' && queue.kind !== 'subqueue') {
    throw new QkError(
      'ACCESS_DENIED',
      `Only messages in application queues and their subqueues can be rejected; '${ctx.core.registry.pathOf(queue)}' is not one.`,
    );
  }
  const message = ctx.messageIn(queue, lookupId);
  if (message.status !== MessageStatus.READY)
    throw new QkError('MESSAGE_NOT_FOUND', `Message ${lookupId} was received already (it is retained).`);
  if (ctx.claims.has(lookupId))
    throw new QkError(
      'MESSAGE_LOCKED_UNDER_TRANSACTION',
      `Message ${lookupId} is held by a receive that has not ended.`,
    );
  await ctx.holding([message], () =>
    ctx.execute(message.table === 'main', () => removeMessage(ctx.core, message, 'rejected')),
  );
}
