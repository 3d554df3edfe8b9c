/** Bulk actions on the selected messages (delete, resend dead letters) and single-message reads and sends. */
import { journalPath } from '@qk/model';
import { describeError } from '../client/console-client.js';
import { formatCount } from '../format/format.js';
import { samePath, type SliceCreator } from '../store/shared.js';
import type { MessageActions } from '../store/types.js';
import { CHUNK, chunks, codeCounts, plural } from './job-helpers.js';

const BROWSE_PAGE = 1_000;

export const createMessageActions: SliceCreator<MessageActions> = (_set, get, ctx) => ({
  async deleteSelected(lookupIds) {
    const target = get().target;
    if (!target) return null;
    const client = ctx.clientFor(target.computer);
    const job = await get().runJob('Delete messages', async (job) => {
      job.setTotal(lookupIds.length);
      let deleted = 0;
      let done = 0;
      for (const chunk of chunks(lookupIds, CHUNK)) {
        if (job.signal.aborted) break;
        deleted += (await client.messagesDelete({ path: target.path, lookupIds: chunk })).deleted;
        done += chunk.length;
        job.progress(done);
      }
      return `Deleted ${plural(deleted, 'message')}${job.signal.aborted ? ' before Cancel' : ''}.`;
    });
    get().clearSelection();
    get().invalidateList();
    return job;
  },

  /**
   * Resends dead letters with the service's `resend` (class NORMAL, timers from now), destination by
   * destination, so the result says for each destination what was sent and what failed.
   */
  async resendDeadLetters() {
    const target = get().target;
    if (!target) return null;
    const client = ctx.clientFor(target.computer);
    const job = await get().runJob('Resend dead letters', async (job) => {
      // The selection, or every message when nothing is selected (the "resend all" case).
      const wanted = get().selectedCount() > 0 ? new Set(await get().resolveSelection(job.signal)) : null;
      const byDestination = new Map<string, number[]>();
      for (let offset = 0; !job.signal.aborted; offset += BROWSE_PAGE) {
        const page = await client.browse({ path: target.path, offset, limit: BROWSE_PAGE });
        for (const m of page.messages) {
          if (wanted && !wanted.has(m.lookupId)) continue;
          const list = byDestination.get(m.destinationQueue) ?? [];
          list.push(m.lookupId);
          byDestination.set(m.destinationQueue, list);
        }
        if (page.messages.length < BROWSE_PAGE || offset + BROWSE_PAGE >= page.total) break;
      }
      job.setTotal([...byDestination.values()].reduce((n, ids) => n + ids.length, 0));
      const outcomes: DestinationOutcome[] = [];
      let done = 0;
      for (const [destination, ids] of byDestination) {
        const outcome: DestinationOutcome = { destination, sent: 0, failed: 0, codes: new Map() };
        outcomes.push(outcome);
        for (const chunk of chunks(ids, CHUNK)) {
          if (job.signal.aborted) break;
          const fail = (lookupId: number, code: string, message: string) => {
            outcome.failed += 1;
            outcome.codes.set(code, (outcome.codes.get(code) ?? 0) + 1);
            job.fail(`Lookup ID ${lookupId} → ${destination}`, code, message);
          };
          try {
            const result = await client.resend({ path: target.path, lookupIds: chunk });
            outcome.sent += result.resent;
            for (const f of result.failed) fail(f.lookupId, f.error.code, f.error.message);
          } catch (error) {
            const { code, message } = describeError(error);
            for (const id of chunk) fail(id, code, message);
          }
          done += chunk.length;
          job.progress(done);
        }
      }
      return resendSummary(outcomes);
    });
    get().clearSelection();
    get().invalidateList();
    return job;
  },

  async sendTestMessage(computer, path, message, transactional) {
    const { id } = await ctx
      .clientFor(computer)
      .send({ path, message, ...(transactional ? { transactional: true } : {}) });
    return id;
  },

  async arrivedWhereSent(computer, id, destination) {
    const locations = await ctx.clientFor(computer).messageFind({ id });
    return locations.some((l) => isWhereSent(l.path, destination));
  },

  searchMessages(computer, filter) {
    return ctx.clientFor(computer).messagesSearch({ filter, limit: 500 });
  },

  async deleteMessages(computer, path, lookupIds) {
    const { deleted } = await ctx.clientFor(computer).messagesDelete({ path, lookupIds });
    if (get().target?.computer === computer) get().invalidateList();
    return deleted;
  },

  fetchMessage(computer, path, lookupId) {
    return ctx.clientFor(computer).messageGet({ path, lookupId });
  },

  async cursorOpen(computer, path) {
    return (await ctx.clientFor(computer).cursorOpen({ path })).cursor;
  },

  cursorPeek(computer, cursor, action, timeoutMs) {
    return ctx.clientFor(computer).cursorPeek({ cursor, action, timeoutMs });
  },

  cursorReceive(computer, cursor) {
    return ctx.clientFor(computer).cursorReceive({ cursor });
  },

  cursorClose(computer, cursor) {
    ctx
      .clientFor(computer)
      .cursorClose({ cursor })
      .catch((error: unknown) => get().reportError('Close the cursor', error));
  },
});

/**
 * Whether a message found at `location` is where it was sent to `destination`: in that queue, in its journal
 * (an application received it already), or in the outgoing queue that carries it to another computer. A dead
 * letter keeps the ID too, but there the message was refused.
 */
function isWhereSent(location: string, destination: string): boolean {
  return (
    samePath(location, destination) ||
    samePath(location, journalPath(destination)) ||
    samePath(location, `DIRECT=OS:${destination}`)
  );
}

/** What a resend did for one destination queue. */
interface DestinationOutcome {
  destination: string;
  sent: number;
  failed: number;
  /** Failures by error code. */
  codes: Map<string, number>;
}

/**
 * The honest summary of a resend, destination by destination (issue 12, point 5): "Resent 20 of 26
 * messages. .\\private$\\orders: 20 sent. .\\private$\\gone: 6 failed (QUEUE_NOT_FOUND 6)." — never a total
 * that hides that every message to one destination failed.
 */
export function resendSummary(outcomes: readonly DestinationOutcome[]): string {
  const sent = outcomes.reduce((n, o) => n + o.sent, 0);
  const all = outcomes.reduce((n, o) => n + o.sent + o.failed, 0);
  const parts = outcomes.map((o) => {
    const bits: string[] = [];
    if (o.sent > 0) bits.push(`${formatCount(o.sent)} sent`);
    if (o.failed > 0) bits.push(`${formatCount(o.failed)} failed (${codeCounts(o.codes)})`);
    return `${o.destination}: ${bits.join(', ') || 'nothing'}`;
  });
  return `Resent ${formatCount(sent)} of ${plural(all, 'message')}. ${parts.join('. ')}.`;
}
