/**
 * Export and import of a queue's messages, losslessly: every stored property, binary bodies, timers as
 * durations from their base. Export is paged (a queue of a million is never one reply); import takes a
 * batch at a time, all of it or none.
 */
import {
  Delivery,
  formatMessageId,
  Limits,
  MessageStatus,
  normalizeMessageId,
  parseCorrelationId,
  parseGuid,
  QkError,
  type ExportedMessage,
  type SendProperties,
} from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { storedSize, type Draft } from './drafts.js';
import { expiryFor } from './arrival.js';
import { place } from './placement.js';
import { copyHasRoom, machineHasRoom } from './quotas.js';

/** At most this many messages per export page. */
const EXPORT_PAGE_MAX = 1_000;
/** A page stops once its bodies pass this many bytes (the first message always goes, whatever its size). */
const EXPORT_PAGE_BYTES = 8 * 1024 * 1024;

const iso = (ms: number): string => new Date(ms).toISOString();

function toExported(m: StoredMessage): ExportedMessage {
  return {
    lookupId: m.lookupId,
    id: m.msgId,
    classCode: m.classCode,
    label: m.label,
    bodyBase64: m.body.toString('base64'),
    priority: m.priority,
    delivery: m.delivery === Delivery.RECOVERABLE ? 'recoverable' : 'express',
    journal: m.journal,
    acknowledge: m.ack,
    adminQueue: m.adminQueue,
    responseQueue: m.responseQueue,
    destinationQueue: m.destQueue,
    correlationId: m.correlationId,
    appSpecific: m.appSpecific,
    sourceMachine: m.sourceMachine,
    sourceMachineId: m.sourceMachineId,
    sentTime: iso(m.sentMs),
    arrivedTime: iso(m.arrivedMs),
    timerBaseTime: iso(m.timerBaseMs),
    timeToReachQueue: m.ttrq,
    timeToBeReceived: m.ttbr,
    transactional: m.transactional,
    conversation: m.conversation,
    status: m.status,
    moveCount: m.moveCount,
    abortCount: m.abortCount,
    lastMoveTime: m.lastMoveMs === null ? null : iso(m.lastMoveMs),
    deadLetterQueue: m.deadLetterQueue,
  };
}

/** Where an export page ends: in the ready messages (queue order) or in the retained ones (lookup-ID order). */
type Position = { phase: 'ready'; priority: number; lookupId: number } | { phase: 'retained'; lookupId: number };

function parsePosition(after: string | undefined): Position | null {
  if (after === undefined || after === '') return null;
  const ready = /^r:(\d):(\d+)$/.exec(after);
  if (ready) return { phase: 'ready', priority: Number(ready[1]), lookupId: Number(ready[2]) };
  const retained = /^x:(\d+)$/.exec(after);
  if (retained) return { phase: 'retained', lookupId: Number(retained[1]) };
  throw new QkError('INVALID_PARAMETER', `'${after}' is not a position an export page returned.`);
}

/**
 * One page of a queue's messages for export: the ready ones in queue order, then the retained ones. `next`
 * is where the following page starts, null at the end. Messages that come or go between pages are seen
 * or not, as in any walk of a live queue; none is seen twice.
 */
export function exportPage(
  ctx: EngineContext,
  path: string,
  after: string | undefined,
  limit: number,
): { messages: ExportedMessage[]; next: string | null } {
  const queue = ctx.resolveExisting(path);
  const max = Math.max(1, Math.min(limit, EXPORT_PAGE_MAX));
  const store = ctx.core.store.messages;
  let position = parsePosition(after);
  const messages: ExportedMessage[] = [];
  let bytes = 0;
  const take = (rows: StoredMessage[], at: (m: StoredMessage) => Position): boolean => {
    for (const m of rows) {
      if (messages.length > 0 && (messages.length >= max || bytes + m.body.length > EXPORT_PAGE_BYTES)) return false;
      messages.push(toExported(m));
      bytes += m.body.length;
      position = at(m);
    }
    return true;
  };
  if (position === null || position.phase === 'ready') {
    const from = position === null ? null : { priority: position.priority, lookupId: position.lookupId };
    const rows = store.rows(store.neighbors(queue.id, from, true, max));
    if (!take(rows, (m) => ({ phase: 'ready', priority: m.priority, lookupId: m.lookupId })) || rows.length === max)
      return { messages, next: encode(position) };
    position = { phase: 'retained', lookupId: 0 };
  }
  const retainedFrom = position.phase === 'retained' ? position.lookupId : 0;
  const rows = store.rows(store.retainedAfter(queue.id, retainedFrom, max - messages.length));
  const complete = take(rows, (m) => ({ phase: 'retained', lookupId: m.lookupId }));
  const more = !complete || rows.length === max - (messages.length - rows.length);
  return { messages, next: more && messages.length > 0 ? encode(position) : null };
}

function encode(position: Position | null): string | null {
  if (position === null) return null;
  return position.phase === 'ready' ? `r:${position.priority}:${position.lookupId}` : `x:${position.lookupId}`;
}

function invalid(index: number, why: string): QkError {
  return new QkError('INVALID_PARAMETER', `Message ${index + 1} of the batch: ${why}.`);
}

function timeOf(text: string, index: number, what: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw invalid(index, `${what} '${text}' is not an ISO 8601 time`);
  return ms;
}

function checkRange(index: number, what: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw invalid(index, `${what} ${value} is not in ${min}..${max}`);
}

/** The draft of an exported message, every property checked as a send would check it. */
function importedDraft(m: ExportedMessage, index: number): { draft: Draft; status: number; arrivedMs: number } {
  const sourceId = parseGuid(m.sourceMachineId);
  if (!sourceId) throw invalid(index, `sourceMachineId '${m.sourceMachineId}' is not a GUID`);
  if (m.label.length > Limits.MAX_MESSAGE_LABEL_LENGTH)
    throw invalid(index, `the label has more than ${Limits.MAX_MESSAGE_LABEL_LENGTH} characters`);
  checkRange(index, 'priority', m.priority, Limits.MIN_PRIORITY, Limits.MAX_PRIORITY);
  checkRange(index, 'class', m.classCode, 0, 0xffff);
  checkRange(index, 'journal', m.journal, 0, 3);
  checkRange(index, 'acknowledge', m.acknowledge, 0, 0x0f);
  checkRange(index, 'appSpecific', m.appSpecific, 0, Limits.INFINITE);
  checkRange(index, 'timeToReachQueue', m.timeToReachQueue, 0, Limits.INFINITE);
  if (m.timeToBeReceived !== null) checkRange(index, 'timeToBeReceived', m.timeToBeReceived, 0, Limits.INFINITE);
  if (
    m.status !== MessageStatus.READY &&
    m.status !== MessageStatus.RETAINED_RECEIVED &&
    m.status !== MessageStatus.RETAINED_SENT
  )
    throw invalid(index, `status ${m.status} is not 0, 1 or 3`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(m.bodyBase64) || m.bodyBase64.length % 4 === 1)
    throw invalid(index, 'bodyBase64 is not base64');
  const body = Buffer.from(m.bodyBase64, 'base64');
  const draft: Draft = {
    priority: m.priority,
    msgId: normalizeMessageId(m.id),
    classCode: m.classCode,
    label: m.label,
    body,
    size: 0,
    bodySize: body.length,
    delivery: m.delivery === 'recoverable' ? Delivery.RECOVERABLE : Delivery.EXPRESS,
    journal: m.journal,
    ack: m.acknowledge,
    adminQueue: m.adminQueue,
    responseQueue: m.responseQueue,
    destQueue: m.destinationQueue,
    correlationId: m.correlationId === null ? null : formatMessageId(parseCorrelationId(m.correlationId)),
    appSpecific: m.appSpecific,
    sourceMachine: m.sourceMachine,
    sourceMachineId: sourceId,
    sentMs: timeOf(m.sentTime, index, 'sentTime'),
    timerBaseMs: timeOf(m.timerBaseTime, index, 'timerBaseTime'),
    ttrq: m.timeToReachQueue,
    ttbr: m.timeToBeReceived,
    transactional: m.transactional,
    conversation: m.conversation,
    moveCount: m.moveCount,
    abortCount: m.abortCount,
    lastMoveMs: m.lastMoveTime === null ? null : timeOf(m.lastMoveTime, index, 'lastMoveTime'),
    deadLetterQueue: m.deadLetterQueue,
  };
  draft.size = storedSize(draft);
  return { draft, status: m.status, arrivedMs: timeOf(m.arrivedTime, index, 'arrivedTime') };
}

const isDestination = (q: QueueRecord): boolean => q.kind === 'private' || q.kind === 'public' || q.kind === 'subqueue';

/**
 * Stores a batch of exported messages in a queue of this computer as they were — ID, class, source, times,
 * counts — each with a new lookup ID. All of the batch or none: a message that cannot be stored (bad value,
 * wrong transactional type, no room) refuses the batch. Nothing is acknowledged; timers that ran out while
 * the messages were elsewhere run out at the next tick, with what that owes.
 */
export async function importMessages(ctx: EngineContext, path: string, messages: ExportedMessage[]): Promise<number> {
  const { core } = ctx;
  const queue = ctx.resolveExisting(path);
  if (queue.kind === 'outgoing')
    throw new QkError('ACCESS_DENIED', 'Messages are imported into queues of this computer, not outgoing queues.');
  const owner = core.registry.ownerOf(queue);
  const drafts = messages.map((m, i) => importedDraft(m, i));
  drafts.forEach(({ draft }, i) => {
    if (isDestination(queue) && draft.transactional !== owner.transactional)
      throw new QkError(
        'TRANSACTION_USAGE',
        `Message ${i + 1} of the batch is ${draft.transactional ? '' : 'not '}transactional and '${path}' is ${owner.transactional ? '' : 'not '}(R-M1).`,
      );
  });
  const total = drafts.reduce((sum, d) => sum + d.draft.size, 0);
  const durable = drafts.some((d) => d.draft.delivery === Delivery.RECOVERABLE);
  return ctx.writingInto(queue, () =>
    ctx.execute(durable, () => {
      // Deleted while the batch waited for its commit (an administrator, or its queue): nothing is stored.
      if (core.registry.get(queue.id) !== queue) throw new QkError('QUEUE_DELETED', `The queue '${path}' was deleted.`);
      if (!machineHasRoom(core, total))
        throw new QkError('INSUFFICIENT_RESOURCES', 'The computer quota (MachineQuota) has no room for this batch.');
      if (!copyHasRoom(core, queue, total))
        throw new QkError('QUOTA_EXCEEDED', `'${path}' has no room for this batch under its quota.`);
      const timed = isDestination(queue);
      for (const { draft, status, arrivedMs } of drafts) {
        const expiresMs = timed && status === MessageStatus.READY ? expiryFor(draft, queue) : null;
        place(core, draft, queue, { status, arrivedMs, expiresMs });
      }
      return drafts.length;
    }),
  );
}

/** The send properties that reproduce an exported message as a new send (import `asNew`). */
export function sendPropertiesOf(m: ExportedMessage): SendProperties {
  const props: SendProperties = {
    bodyBase64: m.bodyBase64,
    label: m.label,
    priority: m.priority,
    delivery: m.delivery,
    journal: m.journal,
    acknowledge: m.acknowledge,
    timeToReachQueue: m.timeToReachQueue,
    appSpecific: m.appSpecific,
  };
  if (m.adminQueue !== null) props.adminQueue = m.adminQueue;
  if (m.responseQueue !== null) props.responseQueue = m.responseQueue;
  if (m.timeToBeReceived !== null) props.timeToBeReceived = m.timeToBeReceived;
  if (m.correlationId !== null) props.correlationId = m.correlationId;
  if (m.conversation !== null) props.conversation = m.conversation;
  if (m.deadLetterQueue !== null) props.deadLetterQueue = m.deadLetterQueue;
  return props;
}
