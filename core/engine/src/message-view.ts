/** Converts stored messages to the JSON shape of CLI.md. */
import { messageClassName, Limits, type MessageInfo, type MessageProperty } from '@qk/model';
import type { MessageRecord } from '@qk/store';
import { remainingTimers } from './drafts.js';

// ignoreBOM: a leading byte-order mark is part of the body's text (U+FEFF); dropping it would make `body` and
// `bodyBase64` disagree, and a text sent with a BOM would not come back as it was sent.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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

/** Which forms of the body a view builds (each costs a decode or an encoding of the whole body). */
export interface BodyForms {
  text: boolean;
  base64: boolean;
}

const BOTH_FORMS: BodyForms = { text: true, base64: true };

/** No body: list pages leave it out (bodySize still tells its size). */
export const NO_BODY: BodyForms = { text: false, base64: false };

/** The JSON view of a message at `nowMs`, every property; the body in the forms asked for (null and '' else). */
export function toMessageInfo(m: MessageRecord, nowMs: number, forms: BodyForms = BOTH_FORMS): MessageInfo {
  return {
    id: m.msgId,
    lookupId: m.lookupId,
    class: messageClassName(m.classCode),
    classCode: m.classCode,
    label: m.label,
    body: forms.text ? bodyText(m.body) : null,
    bodyBase64: forms.base64 ? m.body.toString('base64') : '',
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

/** How a receive shows the messages it returns. */
export type MessageView = (m: MessageRecord, nowMs: number) => MessageInfo;

const fullView: MessageView = (m, nowMs) => toMessageInfo(m, nowMs);

/**
 * The view of a reader that named the properties it wants (MQMSGPROPS, MessageReadPropertyFilter): those, plus
 * `id` and `lookupId`, which name the message; without a list, every property. A reader that wants few
 * properties of small messages spares most of each message's cost: the body's second form, the reply's JSON
 * and its bytes on the socket (issue 11).
 *
 * The result is typed as a whole MessageInfo for the layers that pass it on; the properties not asked for are
 * absent, as the operation's contract says.
 */
export function messageView(properties: readonly MessageProperty[] | undefined): MessageView {
  if (properties === undefined) return fullView;
  const keys = [...new Set<MessageProperty>(['id', 'lookupId', ...properties])];
  const forms: BodyForms = { text: keys.includes('body'), base64: keys.includes('bodyBase64') };
  return (m, nowMs) => {
    const whole = toMessageInfo(m, nowMs, forms);
    const picked: Partial<Record<MessageProperty, unknown>> = {};
    for (const key of keys) picked[key] = whole[key];
    return picked as MessageInfo;
  };
}
