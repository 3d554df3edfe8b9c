/** The draft of a message handed over by another computer: its own ID, source and send time are kept. */
import { normalizeMessageId, parseGuid, QkError } from '@qk/model';
import { makeDraft, type Draft, type DraftContext } from './drafts.js';
import type { ArrivingMessage } from './types.js';

export function arrivingDraft(message: ArrivingMessage, destination: string, ctx: DraftContext): Draft {
  const sourceId = parseGuid(message.sourceMachineId);
  if (!sourceId) throw new QkError('INVALID_PARAMETER', `sourceMachineId '${message.sourceMachineId}' is not a GUID.`);
  const sentMs = message.sentTime === undefined ? ctx.nowMs : Date.parse(message.sentTime);
  if (Number.isNaN(sentMs))
    throw new QkError('INVALID_PARAMETER', `sentTime '${message.sentTime}' is not an ISO 8601 time.`);
  const draft = makeDraft(message, destination, message.transactional === true, { ...ctx, nextSequence: () => 0 });
  return {
    ...draft,
    msgId: normalizeMessageId(message.id),
    sourceMachine: message.sourceMachine,
    sourceMachineId: sourceId,
    sentMs,
    classCode: message.classCode ?? draft.classCode,
  };
}
