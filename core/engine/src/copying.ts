/**
 * Copying messages to another queue (QueueExplorer's copy and paste, drag with Ctrl): the original stays, and
 * the copy is a new message the administrator sends — a new ID, class NORMAL, sent now, timers counted from
 * now, this computer as its source, every other property and the body of the original. It goes through the
 * target's arrival rules as an administrator's transfer: a target that refuses it (full, wrong type) keeps
 * nothing and nobody is told (no NACK, no dead letter), as with "Move to another queue".
 */
import { QkError, type ErrorCode, type SendProperties } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import { arrive } from './arrival.js';
import { makeDraft } from './drafts.js';
import type { EngineContext } from './engine-context.js';
import { refusalCode } from './message-admin.js';

/** What a copy did. */
export interface CopyResult {
  copied: number;
  /** The copies' message IDs, in the order of the lookup IDs that were copied. */
  ids: string[];
  failed: Array<{ lookupId: number; code: ErrorCode; message: string }>;
}

/** What a sender would give to send the same message again. */
function sendPropertiesOf(m: StoredMessage): SendProperties {
  const props: SendProperties = {
    bodyBase64: m.body.toString('base64'),
    label: m.label,
    priority: m.priority,
    delivery: m.delivery === 1 ? 'recoverable' : 'express',
    journal: m.journal,
    acknowledge: m.ack,
    timeToReachQueue: m.ttrq,
    appSpecific: m.appSpecific,
  };
  if (m.adminQueue !== null) props.adminQueue = m.adminQueue;
  if (m.responseQueue !== null) props.responseQueue = m.responseQueue;
  if (m.ttbr !== null) props.timeToBeReceived = m.ttbr;
  if (m.correlationId !== null) props.correlationId = m.correlationId;
  if (m.conversation !== null) props.conversation = m.conversation;
  if (m.deadLetterQueue !== null) props.deadLetterQueue = m.deadLetterQueue;
  return props;
}

/** Copies one message; throws (with the target's reason) when it cannot, leaving nothing behind. */
async function copyOne(ctx: EngineContext, path: string, lookupId: number, target: string): Promise<string> {
  const source = ctx.resolveExisting(path);
  const original = ctx.messageIn(source, lookupId);
  const destination = ctx.resolveSendTarget(target);
  if (destination.kind !== 'remote' && destination.id === source.id)
    throw new QkError('INVALID_PARAMETER', `Message ${lookupId} would be copied into its own queue.`);
  // A new send: into a transactional queue it is a single-message transaction (R-M1 both ways).
  const transactional = destination.kind === 'remote' ? original.transactional : destination.transactional;
  const outcome = await ctx.execute(true, () => {
    const queue = ctx.currentTarget(destination);
    const draft = makeDraft(
      sendPropertiesOf(original),
      ctx.core.registry.pathOf(queue),
      transactional,
      ctx.draftContext(),
    );
    return arrive(ctx.core, draft, queue, 'move');
  });
  if (!outcome.placed)
    throw new QkError(
      refusalCode(outcome),
      `'${target}' did not take the copy of message ${lookupId}: ${outcome.reason}.`,
    );
  return outcome.message.msgId;
}

/** Copies messages of `path` to `target`; each that cannot be copied is reported and nothing is left of it. */
export async function copyMessages(
  ctx: EngineContext,
  path: string,
  lookupIds: readonly number[],
  target: string,
): Promise<CopyResult> {
  const result: CopyResult = { copied: 0, ids: [], failed: [] };
  for (const lookupId of lookupIds) {
    try {
      result.ids.push(await copyOne(ctx, path, lookupId, target));
      result.copied += 1;
    } catch (error) {
      const e = error instanceof QkError ? error : new QkError('INTERNAL', String(error));
      result.failed.push({ lookupId, code: e.code, message: e.message });
    }
  }
  return result;
}
