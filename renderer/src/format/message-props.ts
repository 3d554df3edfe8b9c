/**
 * Names beside the numbers of a message's properties, as MSMQ's documentation names them: the
 * acknowledgment level (PROPID_M_ACKNOWLEDGE), the journal flags (PROPID_M_JOURNAL) and the delivery.
 */
import { Acknowledgment, MessageJournal, type MessageInfo } from '@qk/model';
import { formatDuration, formatTime } from './format.js';

const ackNames: Record<number, string> = {
  [Acknowledgment.NONE]: 'None',
  [Acknowledgment.POS_ARRIVAL]: 'Positive arrival',
  [Acknowledgment.POS_RECEIVE]: 'Positive receive',
  [Acknowledgment.NACK_REACH_QUEUE]: 'Negative arrival (NACK_REACH_QUEUE)',
  [Acknowledgment.FULL_REACH_QUEUE]: 'Full reach queue (positive and negative arrival)',
  [Acknowledgment.NEG_RECEIVE]: 'Negative receive',
  [Acknowledgment.NACK_RECEIVE]: 'NACK_RECEIVE (negative arrival and receive)',
  [Acknowledgment.FULL_RECEIVE]: 'Full receive (positive receive, negative arrival and receive)',
};

/** "Full reach queue (positive and negative arrival)"; bit names for a combination MSMQ gives no name. */
export function acknowledgmentName(level: number): string {
  const known = ackNames[level];
  if (known) return known;
  const bits: string[] = [];
  if (level & Acknowledgment.POS_ARRIVAL) bits.push('positive arrival');
  if (level & Acknowledgment.POS_RECEIVE) bits.push('positive receive');
  if (level & Acknowledgment.NEG_ARRIVAL) bits.push('negative arrival');
  if (level & Acknowledgment.NEG_RECEIVE) bits.push('negative receive');
  const text = bits.join(', ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : `Unknown (${level})`;
}

/** "Full reach queue (positive and negative arrival) · 5". */
export function acknowledgmentText(level: number): string {
  return `${acknowledgmentName(level)} · ${level}`;
}

const journalNames: Record<number, string> = {
  [MessageJournal.NONE]: 'None',
  [MessageJournal.DEADLETTER]: 'Dead letter',
  [MessageJournal.JOURNAL]: 'Journal',
  [MessageJournal.BOTH]: 'Journal and dead letter',
};

/** "Journal and dead letter"; the flags as a number when MSMQ has no name for them. */
export function journalName(flags: number): string {
  return journalNames[flags] ?? `Flags ${flags}`;
}

/** "Journal and dead letter · 3". */
export function journalText(flags: number): string {
  return `${journalName(flags)} · ${flags}`;
}

/** Express or Recoverable. */
export function deliveryName(delivery: MessageInfo['delivery']): string {
  return delivery === 'recoverable' ? 'Recoverable' : 'Express';
}

/**
 * Where a message is, for its timers: time-to-reach-queue runs only while it is on its way (an outgoing
 * queue); in its queue it was met; in a dead-letter queue or a journal (a copy) no timer runs.
 */
export type TimerPlace = 'destination' | 'outgoing' | 'deadLetter' | 'journal';

/**
 * The time-to-reach-queue line. It runs only while the message is on its way (an outgoing queue); once the
 * message arrived it is met and no longer counts down (R-X: it is checked on arrival).
 */
export function reachQueueText(m: MessageInfo, place: TimerPlace, now: number): string {
  if (m.timeToReachQueue >= 0xffffffff) return 'Unlimited';
  if (place === 'destination' || place === 'journal')
    return `${formatDuration(m.timeToReachQueue)} — met: arrived ${formatTime(m.arrivedTime)}`;
  if (place === 'deadLetter') return `${formatDuration(m.timeToReachQueue)} — no longer runs (a dead letter)`;
  return countdown(m.sentTime, m.timeToReachQueue, now);
}

/**
 * The time-to-be-received line. Where the timer runs (a message waiting in its queue or on its way) the
 * service reports what remained when the message was read (reference §1.1: a receive returns the remaining
 * time), so it counts down from `readAt` (this computer's clock when the answer came); a journal or
 * dead-letter copy carries the value it had, and no timer runs there.
 */
export function beReceivedText(
  m: MessageInfo,
  now: number,
  place: TimerPlace = 'destination',
  readAt: number = now,
): string {
  if (m.timeToBeReceived === null || m.timeToBeReceived >= 0xffffffff) return 'Unlimited';
  if (place === 'deadLetter') return `${formatDuration(m.timeToBeReceived)} — no longer runs (a dead letter)`;
  if (place === 'journal') return `${formatDuration(m.timeToBeReceived)} — no longer runs (a journal copy)`;
  const ends = readAt + m.timeToBeReceived * 1000;
  const left = Math.round((ends - now) / 1000);
  const until = formatTime(new Date(ends).toISOString());
  return left > 0 ? `${formatDuration(left)} left (until ${until})` : `ran out at ${until}`;
}

function countdown(fromIso: string, seconds: number, now: number): string {
  const ends = new Date(fromIso).getTime() + seconds * 1000;
  const left = Math.round((ends - now) / 1000);
  const until = formatTime(new Date(ends).toISOString());
  return left > 0
    ? `${formatDuration(seconds)} — ${formatDuration(left)} left (until ${until})`
    : `${formatDuration(seconds)} — ran out at ${until}`;
}
