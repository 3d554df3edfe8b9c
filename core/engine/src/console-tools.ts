/**
 * The administrator's daily tools that QueueExplorer made expected (issue 12): searching every queue at
 * once, and saying what a restart would lose before it happens. Both are built on the queue manager's
 * public surface (browse with the service-side filter), so nothing is loaded to be filtered.
 */
import { journalPath } from '@qk/model';
import type { BrowseInput, MessageLocation, QueueManagerApi } from './types.js';

/** The filter of a search (the browse filter of every queue). */
export type SearchFilter = NonNullable<BrowseInput['filter']>;

/** What a search found. */
export interface SearchResult {
  /** Matches in every queue, journal and system queue (more than `matches` when the limit stopped it). */
  total: number;
  matches: MessageLocation[];
  /** Queues with at least one match, with their counts. */
  queues: Array<{ path: string; count: number }>;
}

/**
 * Finds the messages matching `filter` in every queue of this computer — application queues, their journals
 * and the system queues — queue by queue with the service-side filter (nothing is loaded to be filtered).
 * Returns at most `limit` messages, and the full count of matches per queue.
 */
export function searchMessages(engine: QueueManagerApi, filter: SearchFilter, limit: number): SearchResult {
  const result: SearchResult = { total: 0, matches: [], queues: [] };
  for (const queue of queuesAndJournals(engine)) {
    if (queue.messageCount === 0) continue;
    const room = limit - result.matches.length;
    const page = engine.browse({ path: queue.path, filter, limit: Math.max(1, Math.min(room, 1_000)) });
    if (page.total === 0) continue;
    result.total += page.total;
    result.queues.push({ path: queue.path, count: page.total });
    if (room > 0)
      for (const message of page.messages.slice(0, room)) result.matches.push({ path: queue.path, message });
  }
  return result;
}

/** What restarting the queue manager would lose or change now (R-V1: express messages live in memory only). */
export interface RestartImpact {
  expressMessages: number;
  /** Queues holding express messages, most first. */
  queues: Array<{ path: string; messages: number }>;
  /** The duplicate-removal cache starts empty (seed 003). */
  duplicateCacheEntries: number;
  /** Settings that take effect with the restart. */
  pendingSettings: string[];
}

/** Counts what a restart would lose, queue by queue (the express messages, which are kept only in memory). */
export function restartImpact(engine: QueueManagerApi): RestartImpact {
  const queues: RestartImpact['queues'] = [];
  // Journals too: the journal copy of an express message is express, and goes with the restart as well.
  for (const queue of queuesAndJournals(engine)) {
    if (queue.messageCount === 0) continue;
    const { total } = engine.browse({ path: queue.path, filter: { delivery: 'express' }, limit: 1 });
    if (total > 0) queues.push({ path: queue.path, messages: total });
  }
  queues.sort((a, b) => b.messages - a.messages || a.path.localeCompare(b.path));
  const status = engine.status();
  return {
    expressMessages: queues.reduce((n, q) => n + q.messages, 0),
    queues,
    duplicateCacheEntries: status.duplicateCache.entries,
    pendingSettings: status.settingsPendingRestart,
  };
}

/**
 * Every queue that holds messages, in the order of the console's tree: listQueues (which counts a queue's
 * journal in the queue's entry rather than listing it), with each application queue's journal after it.
 */
function queuesAndJournals(engine: QueueManagerApi): Array<{ path: string; messageCount: number }> {
  return engine
    .listQueues()
    .flatMap((queue) =>
      queue.type === 'private' || queue.type === 'public'
        ? [queue, { path: journalPath(queue.path), messageCount: queue.journalMessageCount }]
        : [queue],
    );
}
