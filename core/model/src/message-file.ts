/**
 * The message file that `qk export` writes and the console's Export saves (docs/message-file-format.md): JSON
 * Lines, this header first, then one ExportedMessage per line. Both sides read the console's first format too.
 */
import type { ExportedMessage, MessageInfo } from './types.js';

/**
 * How an import stores messages: `asIs` as they were (ID, class, times, counts; new lookup IDs), `asNew` as
 * new sends from this computer (new IDs, class NORMAL, timers from now).
 */
export const importModes = ['asIs', 'asNew'] as const;
export type ImportMode = (typeof importModes)[number];

/** The first line of a message file. */
export interface MessageFileHeader {
  format: 'queuekeeper.messages';
  version: 2;
  computer: string;
  computerId: string;
  path: string;
  exportedTime: string;
}

/** A message of the first format: a MessageInfo, written before moves, aborts and per-app DLQs were kept. */
export type Version1Message = Omit<MessageInfo, 'moveCount' | 'abortCount' | 'lastMoveTime' | 'deadLetterQueue'> &
  Partial<Pick<MessageInfo, 'moveCount' | 'abortCount' | 'lastMoveTime' | 'deadLetterQueue'>>;

/** A first-format message as the current format has it; its timers count from its send. */
export function exportedFromVersion1(m: Version1Message): ExportedMessage {
  return {
    lookupId: m.lookupId,
    id: m.id,
    classCode: m.classCode,
    label: m.label,
    bodyBase64: m.bodyBase64,
    priority: m.priority,
    delivery: m.delivery,
    journal: m.journal,
    acknowledge: m.acknowledge,
    adminQueue: m.adminQueue,
    responseQueue: m.responseQueue,
    destinationQueue: m.destinationQueue,
    correlationId: m.correlationId,
    appSpecific: m.appSpecific,
    sourceMachine: m.sourceMachine,
    sourceMachineId: m.sourceMachineId,
    sentTime: m.sentTime,
    arrivedTime: m.arrivedTime,
    timerBaseTime: m.sentTime,
    timeToReachQueue: m.timeToReachQueue,
    timeToBeReceived: m.timeToBeReceived,
    transactional: m.transactional,
    conversation: m.conversation,
    status: m.status,
    moveCount: m.moveCount ?? 0,
    abortCount: m.abortCount ?? 0,
    lastMoveTime: m.lastMoveTime ?? null,
    deadLetterQueue: m.deadLetterQueue ?? null,
  };
}
