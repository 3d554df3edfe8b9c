/** Converts stored messages to the JSON shape of CLI.md. */
import { messageClassName, Limits, type MessageInfo } from '@qk/model';
import type { MessageRecord } from '@qk/store';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text where it is valid UTF-8, else null (CLI.md). */
export function bodyText(body: Buffer): string | null {
  try {
    return utf8.decode(body);
  } catch {
    // Not UTF-8: a binary body, shown as base64 only (expected, not a failure).
    return null;
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The JSON view of a message; `withBody: false` leaves the body out of list pages (bodySize still tells its size). */
export function toMessageInfo(m: MessageRecord, withBody = true): MessageInfo {
  return {
    id: m.msgId,
    lookupId: m.lookupId,
    class: messageClassName(m.classCode),
    classCode: m.classCode,
    label: m.label,
    body: withBody ? bodyText(m.body) : null,
    bodyBase64: withBody ? m.body.toString('base64') : '',
    bodySize: m.size,
    priority: m.priority,
    delivery: m.delivery === 1 ? 'recoverable' : 'express',
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
    timeToReachQueue: m.ttrq,
    timeToBeReceived: m.ttbr === null || m.ttbr >= Limits.INFINITE ? null : m.ttbr,
    transactional: m.transactional,
    conversation: m.conversation,
    status: m.status,
  };
}
