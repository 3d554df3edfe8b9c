import { describe, expect, it } from 'vitest';
import {
  acknowledgmentText,
  beReceivedText,
  journalText,
  reachQueueText,
} from '../../../../renderer/src/format/message-props.js';
import { quotaState, queueWarnings } from '../../../../renderer/src/format/quota-state.js';
import { message, queue } from '../support/messages.js';

describe('names beside numbers', () => {
  it('acknowledgment levels and journal flags read as MSMQ names them, with the number', () => {
    expect(acknowledgmentText(12)).toBe('NACK_RECEIVE (negative arrival and receive) · 12');
    expect(acknowledgmentText(5)).toBe('Full reach queue (positive and negative arrival) · 5');
    expect(acknowledgmentText(0)).toBe('None · 0');
    expect(acknowledgmentText(3)).toBe('Positive arrival, positive receive · 3');
    expect(journalText(3)).toBe('Journal and dead letter · 3');
    expect(journalText(1)).toBe('Dead letter · 1');
  });

  it('time to reach queue is met once the message is in its queue; time to be received counts down', () => {
    const sent = Date.parse('2026-01-01T00:00:00Z');
    const m = message(1, { timeToReachQueue: 345_600, timeToBeReceived: 120 });
    expect(reachQueueText(m, 'destination', sent + 60_000)).toMatch(/^4 d 0 h — met: arrived /);
    expect(reachQueueText(m, 'outgoing', sent + 60_000)).toMatch(/^4 d 0 h — 3 d 23 h left/);
    // §1.1: the service reports what remained when it was read (120 s); it counts down from that moment.
    const readAt = sent + 300_000;
    expect(beReceivedText(m, readAt, 'destination', readAt)).toMatch(/^2 min left \(until /);
    expect(beReceivedText(m, readAt + 60_000, 'destination', readAt)).toMatch(/^1 min left/);
    expect(beReceivedText(m, readAt + 180_000, 'destination', readAt)).toMatch(/^ran out at /);
    // A journal copy carries its value; no timer runs there.
    expect(beReceivedText(m, readAt, 'journal', readAt)).toBe('2 min — no longer runs (a journal copy)');
    expect(reachQueueText(m, 'journal', sent)).toMatch(/^4 d 0 h — met: arrived /);
    expect(beReceivedText(message(2), sent)).toBe('Unlimited');
    // A dead letter's timers no longer run.
    expect(reachQueueText(m, 'deadLetter', sent)).toBe('4 d 0 h — no longer runs (a dead letter)');
    expect(beReceivedText(m, sent + 180_000, 'deadLetter')).toBe('2 min — no longer runs (a dead letter)');
  });
});

describe('quota warnings', () => {
  it('a queue or journal within 1 KB of its quota is full; over 90 % nearly full; no quota never', () => {
    expect(quotaState(15 * 1024 + 100, 16)).toBe('full');
    expect(quotaState(14.5 * 1024, 16)).toBe('nearly');
    expect(quotaState(1_000, 16)).toBe('ok');
    // A 1 KB queue is full only when not even a small message fits, not while it is empty.
    expect(quotaState(0, 1)).toBe('ok');
    expect(quotaState(400, 1)).toBe('ok');
    expect(quotaState(600, 1)).toBe('full');
    expect(quotaState(10 ** 9, null)).toBe('ok');
    const warnings = queueWarnings(queue('.\\private$\\q', { journalBytes: 4 * 1024, journalQuotaKB: 4, bytes: 10 }));
    expect(warnings).toEqual([
      expect.objectContaining({ part: 'journal', state: 'full', text: expect.stringContaining('no longer kept') }),
    ]);
  });
});
