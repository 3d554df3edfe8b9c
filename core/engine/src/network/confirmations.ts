/**
 * What computers owe each other about transactional messages (docs/network.md): the destination's sequence
 * acknowledgments and final confirmations, sent store-and-forward as control items; and the source's sent
 * records, from which it dead-letters into its own XACTDEADLETTER$ after a negative final confirmation or when
 * none came in time (R-D2, R-A9, R-X8).
 */
import { isReceiveClass, Limits, MessageClass } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import type { Core } from '../core.js';
import { timerDeadlines, type Draft } from '../drafts.js';
import { deadLetter } from '../acknowledgments.js';
import { draftOf } from '../placement.js';
import type { ControlItem, PendingControl } from './port-types.js';

// ── the source: sent records ──────────────────────────────────────────────────────────────────────────

/**
 * Keeps a transactional message the destination accepted until its final confirmation (R-D2). Without one,
 * it is dead-lettered once its time-to-be-received ran out plus XactDelayReceiveNack (R-A9); with unlimited
 * time-to-be-received it waits for the confirmation.
 */
export function recordSent(core: Core, message: StoredMessage, destKey: string): void {
  const { receiveBy } = timerDeadlines(message);
  const finalByMs = receiveBy === Infinity ? null : receiveBy + receiveNackDelayMs(core, message);
  const record = JSON.stringify({ ...draftOf(message), body: message.body.toString('base64') });
  core.store.delivery.putSent({ msgId: message.msgId, destKey, finalByMs, record });
}

/**
 * XactDelayReceiveNack in milliseconds: the setting, or when it is absent the smaller of the message's timers
 * (§5). A message with neither timer limited has no default delay (0).
 */
function receiveNackDelayMs(core: Core, message: Pick<Draft, 'ttrq' | 'ttbr'>): number {
  const configured = core.settings.getNullable('XactDelayReceiveNack');
  if (configured !== null) return configured * 1000;
  const ttrqS = message.ttrq >= Limits.LONG_LIVED ? Infinity : message.ttrq;
  const smaller = Math.min(message.ttbr ?? Infinity, ttrqS);
  return smaller === Infinity ? 0 : smaller * 1000;
}

/** A sent record as stored: the message's draft, and the class of a negative confirmation that came for it. */
interface SentText {
  draft: Draft;
  /** Set once a negative final confirmation came: the class its dead letter gets when the delay is over. */
  failedClass: number | null;
}

/** A sent record's text as stored: the draft's fields (its body in base64), and `failedClass` once set. */
type SentFields = Omit<Draft, 'body'> & { body: string; failedClass?: number };

function parseRecord(text: string): SentText {
  return fromFields(JSON.parse(text) as SentFields);
}

function fromFields({ failedClass, ...raw }: SentFields): SentText {
  return { draft: { ...raw, body: Buffer.from(raw.body, 'base64') }, failedClass: failedClass ?? null };
}

/**
 * The final confirmation of a sent message: positive drops the record, whenever it comes while the record is
 * kept (R-A9: a late positive one cancels the dead letter). A negative one of a receive class (0xC000–0xC004:
 * the message reached its queue and left it unreceived, R-X8) dead-letters it here after XactDelayReceiveNack
 * — counted from when its time-to-be-received ran out if that is later (R-A9's "TTBR + delay"), so never past
 * the record's own deadline — unless a positive one comes meanwhile; the record keeps the class meanwhile. A
 * negative one of an arrival class (it never reached its queue: no receive can follow) dead-letters it at once.
 * A negative one for a message still waiting in an outgoing queue (a routing server could not pass it on)
 * fails it there at once.
 */
export function applyFinal(core: Core, messageId: string, classCode: number, handlers: ControlHandlers): void {
  const sent = core.store.delivery.sent(messageId);
  if (!sent) {
    if (handlers.finalBeforeReply(messageId, classCode)) return;
    if (classCode !== MessageClass.ACK_RECEIVE) handlers.failInTransit(messageId, classCode);
    return; // otherwise confirmed twice, or dead-lettered already as in doubt
  }
  if (classCode === MessageClass.ACK_RECEIVE) {
    core.store.delivery.removeSent(messageId);
    return;
  }
  const fields = JSON.parse(sent.record) as SentFields;
  const { draft, failedClass } = fromFields(fields);
  if (failedClass !== null) return; // a second negative one: the first one's dead letter is already due
  if (!isReceiveClass(classCode)) {
    core.store.delivery.removeSent(messageId);
    deadLetter(core, draft, classCode);
    return;
  }
  const delayed = core.clock.now() + receiveNackDelayMs(core, draft);
  const finalByMs = sent.finalByMs === null ? delayed : Math.min(sent.finalByMs, delayed);
  const record = JSON.stringify({ ...fields, failedClass: classCode });
  core.store.delivery.putSent({ msgId: sent.msgId, destKey: sent.destKey, finalByMs, record });
}

/** What applying control items needs from the outbound side. */
export interface ControlHandlers {
  /** The destination accepted a stream through a number: those messages are confirmed (R-E3, R-J4). */
  confirmThrough(stream: string, through: number): void;
  /** A transactional message sent from here failed on the way: dead-letter it here and stop sending it. */
  failInTransit(messageId: string, classCode: number): void;
  /** The final came before the reply of the call that carries the message: kept for then (true), or not. */
  finalBeforeReply(messageId: string, classCode: number): boolean;
}

/**
 * Sent records whose time is up are dead-lettered (R-D2): as in doubt (R-A9) when no final confirmation came,
 * else with the class of the negative one that came (R-X8). Returns how many.
 */
export function expireSent(core: Core, nowMs: number, limit: number): number {
  const due = core.store.delivery.sentDue(nowMs, limit);
  for (const sent of due) {
    core.store.delivery.removeSent(sent.msgId);
    const { draft, failedClass } = parseRecord(sent.record);
    deadLetter(core, draft, failedClass ?? MessageClass.NACK_RECEIVE_TIMEOUT);
  }
  return due.length;
}

/** Control items for computers `via` accepts, oldest first. */
export function pendingControl(core: Core, via: (computer: string) => boolean, max: number): PendingControl | null {
  const rows = core.store.delivery.pendingControl(10_000).filter((r) => via(r.toKey));
  if (rows.length === 0) return null;
  const taken = rows.slice(0, max);
  return { handles: taken.map((r) => r.id), items: taken.map((r) => JSON.parse(r.item) as ControlItem) };
}

/**
 * Control items that arrived: those for this computer are applied; a routing server keeps the others to
 * forward. Returns the items dropped (not for this computer, and this one relays nothing). Runs in a unit of work.
 */
export function receiveControl(
  core: Core,
  items: readonly ControlItem[],
  routing: boolean,
  handlers: ControlHandlers,
): ControlItem[] {
  const dropped: ControlItem[] = [];
  for (const item of items) {
    const forMe =
      item.to.id.toLowerCase() === core.identity.id.toLowerCase() ||
      item.to.name.toLowerCase() === core.identity.name.toLowerCase();
    if (!forMe) {
      if (!routing) {
        dropped.push(item);
        continue;
      }
      const dedupe = item.kind === 'sequenceAck' ? `seq:${item.stream}` : null;
      core.store.delivery.addControl(item.to.name.toLowerCase(), dedupe, JSON.stringify(item), core.clock.now());
      continue;
    }
    if (item.kind === 'sequenceAck') handlers.confirmThrough(item.stream, item.through);
    else applyFinal(core, item.messageId, item.classCode, handlers);
  }
  return dropped;
}
