/**
 * Messages in transit (docs/network.md): what an outgoing queue's messages carry besides the message — hops
 * made so far (R-H1) and, for transactional ones, their place in the source's stream to the destination queue
 * (R-E3). A message sent from here gets its number when it enters the outgoing queue, in the unit of work of
 * its send, so a transaction's messages have consecutive numbers and one group (R-E2).
 */
import { randomUUID } from 'node:crypto';
import { Delivery, Limits } from '@qk/model';
import type { MessageTable, StoredMessage, TransitRecord } from '@qk/store';
import type { Core } from '../core.js';
import { storedSize, timerDeadlines, type Draft } from '../drafts.js';
import type { TransitMessage, TransitSequence } from './port-types.js';

/** Records a message that entered an outgoing queue on this computer (a send, a move, an acknowledgment). */
export function enteredOutgoing(core: Core, message: StoredMessage, group: string | null): void {
  // Only this computer's own transactional messages start a sequence here; relayed ones keep theirs.
  if (!message.transactional || message.sourceMachineId !== core.identity.id) return;
  const queue = core.registry.get(message.queueId);
  if (!queue) return;
  const sequence = nextSequence(core, queue.nameKey);
  // Its previous number is worked out each time it leaves (Outbound's leases), from what is still here then.
  putTransit(core, message.table, {
    lookupId: message.lookupId,
    hops: 0,
    stream: sequence.stream,
    seq: sequence.seq,
    group,
    previous: null,
  });
}

/** Takes the next number of the stream to a destination queue (the outgoing queue's name key). */
function nextSequence(core: Core, destKey: string): { stream: string; seq: number } {
  const current = core.store.delivery.seqOut(destKey);
  const record = current ?? { destKey, stream: randomUUID(), nextSeq: 1, acked: 0 };
  // The row rolls back with the unit of work, so a refused send never burns a number.
  core.store.delivery.putSeqOut({ destKey, stream: record.stream, nextSeq: record.nextSeq + 1, acked: record.acked });
  return { stream: record.stream, seq: record.nextSeq };
}

/** Stores a transit row in the message's own database (express rows are lost with their message, R-V1). */
export function putTransit(core: Core, table: MessageTable, record: TransitRecord): void {
  core.store.delivery.putTransit(table, record);
}

/**
 * A queue name in a message leaving its source: `.` names the sending computer (CLI.md "Many computers"), so
 * an acknowledgment or response finds its way back. Other names pass as they are.
 */
export function qualify(name: string | null, computer: string): string | null {
  if (name === null) return null;
  return name.replace(
    /^(FORMATNAME:)?(DIRECT=(?:OS|TCP):)?\.\\/i,
    (_all, prefix: string | undefined, direct: string | undefined) => `${prefix ?? ''}${direct ?? ''}${computer}\\`,
  );
}

/** The message as the next hop gets it: remaining timers measured now, hops and sequence from its transit row. */
export function toTransit(
  message: StoredMessage,
  transit: TransitRecord | undefined,
  nowMs: number,
  self: { id: string; name: string },
): TransitMessage {
  // Sent from here: its own ID as written, nearly always; a spelling in another case is the same computer.
  const fromHere =
    message.sourceMachineId === self.id || message.sourceMachineId.toLowerCase() === self.id.toLowerCase();
  const { reachQueueBy, receiveBy } = timerDeadlines(message);
  const left = (deadline: number): number | null =>
    deadline === Infinity ? null : Math.max(0, Math.floor(deadline - nowMs));
  // A relayed message passes on the previous number it came with (R-E3); one sent from here gets it in its lease.
  const sequence: TransitSequence | null =
    transit?.stream && transit.seq !== null
      ? transit.previous === null
        ? { stream: transit.stream, number: transit.seq, group: transit.group }
        : { stream: transit.stream, number: transit.seq, group: transit.group, previous: transit.previous }
      : null;
  return {
    msgId: message.msgId,
    classCode: message.classCode,
    label: message.label,
    body: message.body,
    priority: message.priority,
    recoverable: message.delivery === Delivery.RECOVERABLE,
    journal: message.journal,
    ack: message.ack,
    adminQueue: fromHere ? qualify(message.adminQueue, self.name) : message.adminQueue,
    responseQueue: fromHere ? qualify(message.responseQueue, self.name) : message.responseQueue,
    destQueue: message.destQueue,
    correlationId: message.correlationId,
    appSpecific: message.appSpecific,
    sourceMachine: message.sourceMachine,
    sourceMachineId: message.sourceMachineId,
    sentMs: message.sentMs,
    reachQueueWithinMs: message.ttrq >= Limits.LONG_LIVED ? null : left(reachQueueBy),
    receiveWithinMs: left(receiveBy),
    ttrq: message.ttrq,
    ttbr: message.ttbr,
    hops: transit?.hops ?? 0,
    transactional: message.transactional,
    sequence,
    conversation: message.conversation,
  };
}

/**
 * The draft of a message handed over by another computer. Its timers count from its arrival here with what
 * remained of them on the sending computer (R-X2): no computer's clock is compared with another's.
 */
export function draftFromTransit(m: TransitMessage, nowMs: number): Draft {
  const seconds = (ms: number): number => Math.ceil(ms / 1000);
  const draft: Draft = {
    priority: m.priority,
    msgId: m.msgId,
    classCode: m.classCode,
    label: m.label,
    body: m.body,
    size: 0,
    bodySize: m.body.length,
    delivery: m.recoverable || m.transactional ? Delivery.RECOVERABLE : Delivery.EXPRESS,
    journal: m.journal,
    ack: m.ack,
    adminQueue: m.adminQueue,
    responseQueue: m.responseQueue,
    destQueue: m.destQueue,
    correlationId: m.correlationId,
    appSpecific: m.appSpecific,
    sourceMachine: m.sourceMachine,
    sourceMachineId: m.sourceMachineId,
    sentMs: m.sentMs,
    // R-X2: the timers start again here, with what remained of them.
    timerBaseMs: nowMs,
    ttrq: m.reachQueueWithinMs === null ? Limits.LONG_LIVED : seconds(m.reachQueueWithinMs),
    ttbr: m.receiveWithinMs === null ? null : seconds(m.receiveWithinMs),
    transactional: m.transactional,
    conversation: m.conversation,
    moveCount: 0,
    abortCount: 0,
    lastMoveMs: null,
    // A per-application dead-letter queue is the source's own (R-D9): it never travels.
    deadLetterQueue: null,
  };
  draft.size = storedSize(draft);
  return draft;
}
