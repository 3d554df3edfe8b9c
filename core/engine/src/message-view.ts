/** Converts stored messages to the JSON shape of CLI.md. */
import { messageClassName, Limits, type MessageInfo } from '@qk/model';
import type { MessageRecord } from '@qk/store';
import { remainingTimers } from './drafts.js';

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

/** ISO text of a time, remembering the last one: messages handled together mostly share their millisecond. */
function isoCache(): (ms: number) => string {
  let lastMs = NaN;
  let lastText = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastText = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastText;
  };
}
const sentIso = isoCache();
const arrivedIso = isoCache();

/**
 * The time-to-be-received a reader sees: what remains where the timer runs (a ready message waiting in a
 * destination or outgoing queue, reference §1.1), else what the message carries (a journal or dead-letter
 * copy, a retained message).
 */
function timeToBeReceived(m: MessageRecord, nowMs: number): number | null {
  if (m.ttbr === null || m.ttbr >= Limits.INFINITE) return null;
  return m.expiresMs === null ? m.ttbr : remainingTimers(m, nowMs).ttbr;
}

/**
 * The JSON view of a message at `nowMs`; `withBody: false` leaves the body out of list pages (bodySize still
 * tells its size).
 */
export function toMessageInfo(m: MessageRecord, nowMs: number, withBody = true): MessageInfo {
  return {
    id: m.msgId,
    lookupId: m.lookupId,
    class: messageClassName(m.classCode),
    classCode: m.classCode,
    label: m.label,
    body: withBody ? bodyText(m.body) : null,
    bodyBase64: withBody ? m.body.toString('base64') : '',
    bodySize: m.bodySize,
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
    sentTime: sentIso(m.sentMs),
    arrivedTime: arrivedIso(m.arrivedMs),
    timeToReachQueue: m.ttrq,
    timeToBeReceived: timeToBeReceived(m, nowMs),
    transactional: m.transactional,
    conversation: m.conversation,
    status: m.status,
    moveCount: m.moveCount,
    abortCount: m.abortCount,
    lastMoveTime: m.lastMoveMs === null ? null : new Date(m.lastMoveMs).toISOString(),
    deadLetterQueue: m.deadLetterQueue,
  };
}
