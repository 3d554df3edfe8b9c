/** Plain MessageInfo and QueueInfo values for tests of pure functions (no queue manager needed). */
import type { MessageInfo, QueueInfo } from '@qk/model';

const now = '2026-01-01T00:00:00.000Z';

/** A message with MSMQ's defaults and the given lookup ID. */
export function message(lookupId: number, patch: Partial<MessageInfo> = {}): MessageInfo {
  return {
    id: `{00000000-0000-0000-0000-000000000001}\\${lookupId}`,
    lookupId,
    class: 'NORMAL',
    classCode: 0,
    label: `m${lookupId}`,
    body: 'hello',
    bodyBase64: 'aGVsbG8=',
    bodySize: 5,
    priority: 3,
    delivery: 'express',
    journal: 0,
    acknowledge: 0,
    adminQueue: null,
    responseQueue: null,
    destinationQueue: '.\\private$\\orders',
    correlationId: null,
    appSpecific: 0,
    sourceMachine: 'ALPHA',
    sourceMachineId: '00000000-0000-0000-0000-000000000001',
    sentTime: now,
    arrivedTime: now,
    timeToReachQueue: 345600,
    timeToBeReceived: null,
    transactional: false,
    conversation: null,
    status: 1,
    moveCount: 0,
    abortCount: 0,
    lastMoveTime: null,
    deadLetterQueue: null,
    ...patch,
  };
}

/** A queue as queueList reports it. */
export function queue(path: string, patch: Partial<QueueInfo> = {}): QueueInfo {
  const type = /\\private\$\\/i.test(path) ? 'private' : /(JOURNAL|DEADLETTER)\$$/i.test(path) ? 'system' : 'public';
  return {
    path,
    formatName: `DIRECT=OS:${path}`,
    type,
    transactional: false,
    journal: false,
    label: '',
    quotaKB: null,
    journalQuotaKB: null,
    retention: false,
    messageCount: 0,
    bytes: 0,
    journalMessageCount: 0,
    journalBytes: 0,
    createdTime: now,
    modifiedTime: now,
    ...patch,
  };
}
