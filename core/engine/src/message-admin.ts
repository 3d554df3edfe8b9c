/**
 * What an administrator does to single messages: delete (a purge of one), move (MoveMessage within a queue's
 * family, or the console's "Move to another queue" through the arrival path), find, and end a conversation.
 */
import {
  isAcknowledgmentClass,
  MessageClass,
  normalizeMessageId,
  parseQueueName,
  QkError,
  type ErrorCode,
} from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { arrive, type ArrivalOutcome } from './arrival.js';
import { draftOf } from './placement.js';
import { removeMessage } from './removal.js';
import { moveWithinFamily, sameFamily } from './subqueues.js';
import { toMessageInfo } from './message-view.js';
import type { Draft } from './drafts.js';
import type { MessageLocation } from './types.js';

/** One message that an operation on many could not handle, and why. */
export interface MessageFailure {
  lookupId: number;
  code: string;
  message: string;
}

/**
 * Deletes messages as an administrator: each is a purge of one (R-P3) — NACK_Q_PURGED when asked, the
 * transactional dead letter when due, never a journal copy. With `strict`, a missing or held message fails the
 * call; otherwise it is skipped. Returns how many went.
 */
export function deleteMessages(ctx: EngineContext, path: string, lookupIds: number[], strict: boolean): number {
  const queue = ctx.resolveExisting(path);
  const messages: StoredMessage[] = [];
  for (const id of lookupIds) {
    if (ctx.claims.has(id)) {
      if (strict)
        throw new QkError('MESSAGE_LOCKED_UNDER_TRANSACTION', `Message ${id} is held by a receive that has not ended.`);
      continue;
    }
    const found = ctx.core.store.messages.get(id);
    if (found && found.queueId === queue.id) messages.push(found);
    else if (strict) ctx.messageIn(queue, id);
  }
  // Deleting is how an administrator makes room: on a full disk it may use the store's space reserve.
  ctx.runner.runNow(() => messages.forEach((m) => removeMessage(ctx.core, m, 'deleted')), { freesSpace: true });
  return messages.length;
}

/** The stable error code of an arrival the target refused. */
export function refusalCode(outcome: Extract<ArrivalOutcome, { placed: false }>): ErrorCode {
  switch (outcome.failureClass) {
    case MessageClass.NACK_Q_EXCEED_QUOTA:
      return 'QUOTA_EXCEEDED';
    case MessageClass.NACK_NOT_TRANSACTIONAL_Q:
    case MessageClass.NACK_NOT_TRANSACTIONAL_MSG:
      return 'TRANSACTION_USAGE';
    default:
      return 'INSUFFICIENT_RESOURCES';
  }
}

/**
 * Moves one message to any other queue through its arrival path (the console's "Move to another queue"). A
 * move the target refuses leaves the message where it was: no NACK, no dead letter, nothing lost. A message
 * that leaves a system queue is the original message again (class NORMAL).
 */
async function moveThroughArrival(ctx: EngineContext, source: QueueRecord, id: number, target: string): Promise<void> {
  const { core } = ctx;
  const destination = ctx.resolveSendTarget(target);
  const message = ctx.messageIn(source, id);
  if (ctx.claims.has(id)) throw new QkError('MESSAGE_LOCKED_UNDER_TRANSACTION', `Message ${id} is held by a receive.`);
  await ctx.holding([message], async () => {
    const outcome = await ctx.execute(message.table === 'main', () => {
      const queue = ctx.currentTarget(destination);
      const draft: Draft = {
        ...draftOf(message),
        classCode: source.kind === 'system' ? MessageClass.NORMAL : message.classCode,
        destQueue: core.registry.pathOf(queue),
        // R-S7: aborts are counted since the message entered its current queue; this is a new one.
        abortCount: 0,
      };
      const result = arrive(core, draft, queue, 'move');
      if (result.placed) removeMessage(core, message, 'moved');
      return result;
    });
    if (!outcome.placed)
      throw new QkError(refusalCode(outcome), `'${target}' did not take message ${id}: ${outcome.reason}.`);
  });
}

/**
 * `qk message move`: between a queue and its subqueues (or sibling subqueues) it is MSMQ's MoveMessage (R-S3;
 * the subqueue opens on first use); to another queue's subqueue it is refused (R-S3); to any other queue it
 * goes through the arrival path.
 */
export async function moveMessage(ctx: EngineContext, path: string, lookupId: number, target: string): Promise<void> {
  const source = ctx.resolveExisting(path);
  const ref = parseQueueName(target);
  const local = ctx.core.registry.isLocal(ref.computer);
  if (local && ref.subqueue !== undefined) {
    const destination = ctx.resolveExisting(target);
    if (!sameFamily(ctx.core, source, destination))
      throw new QkError(
        'INVALID_PARAMETER',
        `A message moves into a subqueue only from its own queue or a sibling subqueue (R-S3); '${ctx.core.registry.pathOf(source)}' is not one.`,
      );
    return moveWithinFamily(ctx, source, lookupId, destination);
  }
  if (local && source.kind === 'subqueue') {
    const destination = ctx.resolveExisting(target);
    if (sameFamily(ctx.core, source, destination)) return moveWithinFamily(ctx, source, lookupId, destination);
  }
  if (local && ctx.resolveExisting(target).id === source.id)
    throw new QkError('INVALID_PARAMETER', `Message ${lookupId} is in '${target}' already.`);
  return moveThroughArrival(ctx, source, lookupId, target);
}

/** Moves many messages; each one that fails is reported and stays where it was. */
export async function moveMessages(
  ctx: EngineContext,
  path: string,
  lookupIds: number[],
  target: string,
): Promise<{ moved: number; failed: MessageFailure[] }> {
  const failed: MessageFailure[] = [];
  let moved = 0;
  for (const id of lookupIds) {
    try {
      await moveMessage(ctx, path, id, target);
      moved += 1;
    } catch (error) {
      // Each message moves on its own: one that fails is reported in `failed`, the others go on.
      const e = error instanceof QkError ? error : new QkError('INTERNAL', String(error));
      if (e.code === 'INTERNAL') ctx.log().error({ err: error, path, lookupId: id, target }, 'Moving a message failed');
      failed.push({ lookupId: id, code: e.code, message: e.message });
    }
  }
  return { moved, failed };
}

function locate(ctx: EngineContext, messages: StoredMessage[]): MessageLocation[] {
  const now = ctx.core.clock.now();
  return messages.flatMap((m) => {
    const queue = ctx.core.registry.get(m.queueId);
    return queue ? [{ path: ctx.core.registry.pathOf(queue), message: toMessageInfo(m, now) }] : [];
  });
}

/** Where a message ID is on this computer now (queues, journals, dead-letter queues). */
export function findMessage(ctx: EngineContext, id: string): MessageLocation[] {
  return locate(ctx, ctx.core.store.messages.byMessageId(normalizeMessageId(id)));
}

/** Every acknowledgment on this computer whose correlation ID is the message ID. */
export function acknowledgmentsFor(ctx: EngineContext, id: string): MessageLocation[] {
  return locate(
    ctx,
    ctx.core.store.messages.byCorrelation(normalizeMessageId(id)).filter((m) => isAcknowledgmentClass(m.classCode)),
  );
}

/** Service Broker's END CONVERSATION: the conversation's messages leave application queues (seed 002). */
export function endConversation(ctx: EngineContext, conversation: string): number {
  const { core } = ctx;
  const messages = core.store.messages
    .byConversation(conversation)
    .filter((m) => !ctx.claims.has(m.lookupId))
    .filter((m) => {
      const kind = core.registry.get(m.queueId)?.kind;
      return kind === 'private' || kind === 'public' || kind === 'subqueue';
    });
  ctx.runner.runNow(() => messages.forEach((m) => removeMessage(core, m, 'conversationEnded')));
  return messages.length;
}
