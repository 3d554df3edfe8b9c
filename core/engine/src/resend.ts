/**
 * "Resend dead letters" (the console's action, `qk resend`): each dead letter goes back to its destination as
 * a new send from the administrator — same ID, label, body and properties, class NORMAL, and its
 * time-to-reach-queue and time-to-be-received counted again from the moment of resending, so it does not
 * expire again at once and tell its sender a second time.
 */
import { isNackClass, MessageClass, QkError, type ErrorCode } from '@qk/model';
import { arrivalOf, type QueueRecord, type StoredMessage } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { arrive } from './arrival.js';
import { draftOf } from './placement.js';
import { removeMessage } from './removal.js';
import { refusalCode } from './message-admin.js';
import type { Draft } from './drafts.js';

/** Dead letters resent per group commit. */
const CHUNK = 500;

/** One resend that did not happen; the dead letter stays where it was. */
export interface ResendFailure {
  lookupId: number;
  /** Where it was to go (its destination queue), null when the message itself was not found. */
  destination: string | null;
  error: { code: ErrorCode; message: string };
}

const failure = (lookupId: number, destination: string | null, error: unknown): ResendFailure => {
  const e = error instanceof QkError ? error : new QkError('INTERNAL', String(error));
  return { lookupId, destination, error: { code: e.code, message: e.message } };
};

/** Queues dead letters are resent from: the two system dead-letter queues, or a per-application one (R-D9). */
function checkSource(ctx: EngineContext, queue: QueueRecord): void {
  const system = queue.kind === 'system' && (queue.name === 'DEADLETTER' || queue.name === 'DEADXACT');
  if (!system && queue.kind !== 'private' && queue.kind !== 'public') {
    throw new QkError(
      'INVALID_PARAMETER',
      `Dead letters are resent from .\\DEADLETTER$, .\\XACTDEADLETTER$ or a per-application dead-letter queue; '${ctx.core.registry.pathOf(queue)}' is none of them.`,
    );
  }
}

/** Resends one dead letter; throws when it cannot, leaving it in place. */
async function resendOne(ctx: EngineContext, source: QueueRecord, message: StoredMessage): Promise<void> {
  const { core } = ctx;
  if (source.kind !== 'system' && !isNackClass(message.classCode))
    throw new QkError(
      'INVALID_PARAMETER',
      `Message ${message.lookupId} is not a dead letter (class ${message.classCode}).`,
    );
  if (ctx.claims.has(message.lookupId))
    throw new QkError('MESSAGE_LOCKED_UNDER_TRANSACTION', `Message ${message.lookupId} is held by a receive.`);
  const destination = ctx.resolveSendTarget(message.destQueue);
  await ctx.holding([message], async () => {
    const outcome = await ctx.execute(true, () => {
      const queue = ctx.currentTarget(destination);
      const now = core.clock.now();
      const draft: Draft = {
        ...draftOf(message),
        classCode: MessageClass.NORMAL,
        sentMs: now,
        timerBaseMs: now,
        moveCount: 0,
        abortCount: 0,
        lastMoveMs: null,
      };
      const result = arrive(core, draft, queue, 'resend');
      if (result.placed) removeMessage(core, message, 'moved');
      return result;
    });
    if (!outcome.placed)
      throw new QkError(refusalCode(outcome), `'${message.destQueue}' did not take it again: ${outcome.reason}.`);
  });
}

/**
 * Resends the named dead letters of a dead-letter queue, or all of them (those there when the call began).
 * Each that cannot go stays where it was and is reported.
 */
export async function resendDeadLetters(
  ctx: EngineContext,
  path: string,
  lookupIds: number[] | undefined,
): Promise<{ resent: number; failed: ResendFailure[] }> {
  const source = ctx.resolveExisting(path);
  checkSource(ctx, source);
  const failed: ResendFailure[] = [];
  let resent = 0;
  const run = async (messages: { lookupId: number; message: StoredMessage | undefined }[]): Promise<void> => {
    // Resent side by side, so durable ones share one commit; each succeeds or fails alone.
    const outcomes = await Promise.allSettled(
      messages.map(({ lookupId, message }) =>
        message
          ? resendOne(ctx, source, message)
          : Promise.reject(
              new QkError('MESSAGE_NOT_FOUND', `There is no message with lookup ID ${lookupId} in '${path}'.`),
            ),
      ),
    );
    outcomes.forEach((o, i) => {
      if (o.status === 'fulfilled') resent += 1;
      else failed.push(failure(messages[i]?.lookupId ?? 0, messages[i]?.message?.destQueue ?? null, o.reason));
    });
  };
  if (lookupIds !== undefined) {
    for (let i = 0; i < lookupIds.length; i += CHUNK) {
      const ids = lookupIds.slice(i, i + CHUNK);
      await run(
        ids.map((lookupId) => {
          const m = ctx.core.store.messages.get(lookupId);
          return { lookupId, message: m && m.queueId === source.id ? m : undefined };
        }),
      );
    }
    return { resent, failed };
  }
  // All of them: walk the queue in order, taking those that were there when the call began (arrival numbers
  // only grow), so dead letters that arrive meanwhile are not chased. What fails stays behind the walk.
  const ceiling = ctx.core.sequences.lastArrival();
  let from: { priority: number; lookupId: number } | null = null;
  for (;;) {
    const page = ctx.core.store.messages.neighbors(source.id, from, true, CHUNK);
    if (page.length === 0) break;
    from = page[page.length - 1] ?? null;
    const rows = ctx.core.store.messages.rows(page.filter((n) => arrivalOf(n.lookupId) <= ceiling));
    await run(rows.map((m) => ({ lookupId: m.lookupId, message: m })));
  }
  return { resent, failed };
}
