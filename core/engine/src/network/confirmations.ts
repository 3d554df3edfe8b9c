/**
 * What computers owe each other about transactional messages (docs/network.md): the destination's sequence
 * acknowledgments and final confirmations, sent store-and-forward as control items; and the source's sent
 * records, from which it dead-letters into its own XACTDEADLETTER$ on a negative final confirmation or when
 * none came in time (R-D2, R-A9).
 */
import { Limits, MessageClass } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import type { Core } from '../core.js';
import { timerDeadlines, type Draft } from '../drafts.js';
import { deadLetter } from '../acknowledgments.js';
import { draftOf } from '../placement.js';
import type { ControlItem, PendingControl } from './port-types.js';

// ── the source: sent records ──────────────────────────────────────────────────────────────────────────

/**
 * Keeps a transactional message the destination accepted until its final confirmation (R-D2). Without one,
 * it is dead-lettered once its time-to-be-received ran out plus XactDelayReceiveNack, whose default is the
 * smaller of its timers (R-A9, §5); with unlimited time-to-be-received it waits for the confirmation.
 */
export function recordSent(core: Core, message: StoredMessage, destKey: string): void {
  const { receiveBy } = timerDeadlines(message);
  let finalByMs: number | null = null;
  if (receiveBy !== Infinity && message.ttbr !== null) {
    const ttrqS = message.ttrq >= Limits.LONG_LIVED ? Infinity : message.ttrq;
    const configured = core.settings.getNullable('XactDelayReceiveNack');
    finalByMs = receiveBy + (configured ?? Math.min(message.ttbr, ttrqS)) * 1000;
  }
  const record = JSON.stringify({ ...draftOf(message), body: message.body.toString('base64') });
  core.store.delivery.putSent({ msgId: message.msgId, destKey, finalByMs, record });
}

function parseRecord(text: string): Draft {
  const raw = JSON.parse(text) as Draft & { body: string };
  return { ...raw, body: Buffer.from(raw.body, 'base64') };
}

/**
 * The final confirmation of a sent message: positive drops the record; negative dead-letters it here. A
 * negative one for a message still waiting in an outgoing queue (a routing server could not pass it on) fails
 * it there at once.
 */
function applyFinal(core: Core, messageId: string, classCode: number, handlers: ControlHandlers): void {
  const sent = core.store.delivery.sent(messageId);
  if (!sent) {
    if (classCode !== MessageClass.ACK_RECEIVE) handlers.failInTransit(messageId, classCode);
    return; // otherwise confirmed twice, or dead-lettered already as in doubt
  }
  core.store.delivery.removeSent(messageId);
  if (classCode !== MessageClass.ACK_RECEIVE) deadLetter(core, parseRecord(sent.record), classCode);
}

/** What applying control items needs from the outbound side. */
export interface ControlHandlers {
  /** The destination accepted a stream through a number: those messages are confirmed (R-E3, R-J4). */
  confirmThrough(stream: string, through: number): void;
  /** A transactional message sent from here failed on the way: dead-letter it here and stop sending it. */
  failInTransit(messageId: string, classCode: number): void;
}

/** Sent records whose final confirmation is overdue are dead-lettered as in doubt (R-D2, R-A9). Returns how many. */
export function expireSent(core: Core, nowMs: number, limit: number): number {
  const due = core.store.delivery.sentDue(nowMs, limit);
  for (const sent of due) {
    core.store.delivery.removeSent(sent.msgId);
    deadLetter(core, parseRecord(sent.record), MessageClass.NACK_RECEIVE_TIMEOUT);
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
