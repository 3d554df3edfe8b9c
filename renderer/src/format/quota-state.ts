/**
 * Whether a queue or its journal is full, the way an administrator needs to hear it (issue 12, point 4):
 * a full queue refuses arrivals (R-Q2: NACK_Q_EXCEED_QUOTA and a dead letter); a full journal silently
 * drops the copies of received messages (R-J5) — which nothing else would tell.
 */
import type { QueueInfo } from '@qk/model';

/**
 * No room for a typical message any more: within 1 KB of the limit (within half of it for a quota under
 * 2 KB, so an empty 1 KB queue is not "full"), or 99 % of it.
 */
const FULL_MARGIN_BYTES = 1024;
const FULL_MARGIN_SHARE = 0.5;
const FULL_SHARE = 0.99;
/** Shown as a warning before it is full. */
const NEARLY_SHARE = 0.9;

export type QuotaState = 'ok' | 'nearly' | 'full';

/** The state of `usedBytes` against `limitKB` (null = no limit). */
export function quotaState(usedBytes: number, limitKB: number | null): QuotaState {
  if (limitKB === null || limitKB <= 0) return 'ok';
  const limit = limitKB * 1024;
  const margin = Math.min(FULL_MARGIN_BYTES, limit * FULL_MARGIN_SHARE);
  if (usedBytes >= limit - margin || usedBytes >= limit * FULL_SHARE) return 'full';
  if (usedBytes >= limit * NEARLY_SHARE) return 'nearly';
  return 'ok';
}

/** One warning about a queue. */
export interface QueueWarning {
  path: string;
  part: 'queue' | 'journal';
  state: Exclude<QuotaState, 'ok'>;
  /** One sentence for the tooltip and the status bar. */
  text: string;
}

/** The warnings of one queue (its own quota, its journal's quota). */
export function queueWarnings(queue: QueueInfo): QueueWarning[] {
  const out: QueueWarning[] = [];
  const own = quotaState(queue.bytes, queue.quotaKB);
  if (own === 'full')
    out.push({
      path: queue.path,
      part: 'queue',
      state: own,
      text: 'Queue full: new messages are refused (NACK_Q_EXCEED_QUOTA).',
    });
  else if (own === 'nearly')
    out.push({ path: queue.path, part: 'queue', state: own, text: 'Queue nearly full (over 90 % of its quota).' });
  const journal = quotaState(queue.journalBytes, queue.journalQuotaKB);
  if (journal === 'full')
    out.push({
      path: queue.path,
      part: 'journal',
      state: journal,
      text: 'Journal full: copies of received messages are no longer kept.',
    });
  else if (journal === 'nearly')
    out.push({
      path: queue.path,
      part: 'journal',
      state: journal,
      text: 'Journal nearly full (over 90 % of its quota).',
    });
  return out;
}
