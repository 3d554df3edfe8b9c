/**
 * Sending from this computer: a send is checked and drafted first (everything MSMQ refuses at the API is
 * refused here, before anything is stored), then delivered through the arrival path inside a unit of work.
 */
import { MessageStatus, parseQueueName, QkError, type SendProperties } from '@qk/model';
import type { QueueRecord } from '@qk/store';
import type { EngineContext, SendTarget } from './engine-context.js';
import { makeDraft, type Draft } from './drafts.js';
import { arrive } from './arrival.js';
import { place } from './placement.js';
import { copyHasRoom } from './quotas.js';
import { qualify } from './network/transit.js';
import type { PendingSend } from './transactions.js';

/** R-D9: a per-application dead-letter queue is a local transactional queue, for a transactional message with DL. */
function checkApplicationDeadLetterQueue(ctx: EngineContext, draft: Draft): void {
  const { registry } = ctx.core;
  const named = draft.deadLetterQueue ?? '';
  if (!draft.transactional)
    throw new QkError('INVALID_PARAMETER', '--dead-letter-queue is for transactional messages only (R-D9).');
  if ((draft.journal & 1) === 0)
    throw new QkError(
      'INVALID_PARAMETER',
      '--dead-letter-queue needs the dead-letter flag (--journal deadletter, R-D9).',
    );
  const ref = parseQueueName(named);
  if (!registry.isLocal(ref.computer))
    throw new QkError('INVALID_PARAMETER', `The dead-letter queue '${named}' must be a queue of this computer (R-D9).`);
  const queue = ref.journal || ref.subqueue !== undefined ? undefined : registry.resolveLocal(ref, named);
  if (queue === undefined || (queue.kind !== 'private' && queue.kind !== 'public'))
    throw new QkError(
      'INVALID_PARAMETER',
      `The dead-letter queue '${named}' must be an application queue of this computer, not a journal, system queue or subqueue (R-D9).`,
    );
  if (!queue.transactional)
    throw new QkError('INVALID_PARAMETER', `The dead-letter queue '${named}' must be a transactional queue (R-D9).`);
}

/** Checks a send and drafts its message (with its new ID); nothing is stored yet. */
export function prepareSend(
  ctx: EngineContext,
  path: string,
  props: SendProperties,
  transactional: boolean,
  resolved?: SendTarget,
): PendingSend {
  const { registry } = ctx.core;
  const target = resolved ?? ctx.resolveSendTarget(path);
  let from: QueueRecord | undefined;
  if (props.from !== undefined && props.from !== '') {
    from = ctx.resolveExisting(props.from);
    if (from.kind !== 'private' && from.kind !== 'public')
      throw new QkError('INVALID_PARAMETER', `--from must name an application queue of this computer.`);
  }
  const remote = 'kind' in target && target.kind === 'remote';
  const destination = remote ? target.formatName : registry.pathOf(target);
  const draftContext = ctx.draftContext();
  // CLI.md "Many computers": a `.` path (administration, response queue) names the sending computer and is
  // resolved to its name when the message is sent — so the copies kept here (the outgoing queue, the source
  // journal) show what the destination sees.
  const sent = remote ? withSenderNamed(props, draftContext.computerName) : props;
  const draft = makeDraft(sent, destination, transactional, draftContext);
  if (draft.deadLetterQueue !== null) checkApplicationDeadLetterQueue(ctx, draft);
  return { draft, target, from };
}

/** The send's administration and response queues with a leading `.` replaced by this computer's name. */
function withSenderNamed(props: SendProperties, computer: string): SendProperties {
  const named = (name: string | undefined): string | undefined =>
    name === undefined || name === '' ? name : (qualify(name, computer) ?? undefined);
  const adminQueue = named(props.adminQueue);
  const responseQueue = named(props.responseQueue);
  return {
    ...props,
    ...(adminQueue !== undefined ? { adminQueue } : {}),
    ...(responseQueue !== undefined ? { responseQueue } : {}),
  };
}

/** Delivers one prepared send. Runs inside a unit of work. */
export function deliverSend(ctx: EngineContext, { draft, target, from }: PendingSend): void {
  const { core } = ctx;
  arrive(core, draft, ctx.currentTarget(target), 'local');
  // Seed 002: a queue with retention keeps a status-3 copy of what is sent from it.
  const fromQueue = from ? core.registry.get(from.id) : undefined;
  if (fromQueue?.retention && copyHasRoom(core, fromQueue, draft.size)) {
    place(core, draft, fromQueue, { status: MessageStatus.RETAINED_SENT });
  }
}
