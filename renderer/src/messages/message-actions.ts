/** Bulk actions over the selected messages, each run as a cancellable job in chunks. */
import type { MessageInfo } from '@qk/model';
import { describeError } from '../client/console-client.js';
import { formatCount } from '../format/format.js';
import { exportFileName, exportJson, toSendProperties } from './message-transfer.js';
import type { SliceCreator } from '../store/shared.js';
import type { MessageActions } from '../store/types.js';

/** Lookup IDs per service call; the contract allows 10,000, smaller chunks make Cancel responsive. */
const CHUNK = 500;
const EXPORT_CONCURRENCY = 8;
const BROWSE_PAGE = 1_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

export const createMessageActions: SliceCreator<MessageActions> = (_set, get, ctx) => ({
  async deleteSelected() {
    const target = get().target;
    if (!target) return null;
    const client = ctx.clientFor(target.computer);
    const job = await get().runJob('Delete messages', async (job) => {
      const ids = await get().resolveSelection(job.signal);
      job.setTotal(ids.length);
      let deleted = 0;
      let done = 0;
      for (const chunk of chunks(ids, CHUNK)) {
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

  async moveSelected(destination) {
    const target = get().target;
    if (!target) return null;
    const client = ctx.clientFor(target.computer);
    const job = await get().runJob(`Move messages to ${destination}`, async (job) => {
      const ids = await get().resolveSelection(job.signal);
      job.setTotal(ids.length);
      let moved = 0;
      let done = 0;
      for (const chunk of chunks(ids, CHUNK)) {
        if (job.signal.aborted) break;
        const result = await client.messagesMove({ path: target.path, lookupIds: chunk, target: destination });
        moved += result.moved;
        for (const failure of result.failed) job.fail(`Lookup ID ${failure.lookupId}`, failure.code, failure.message);
        done += chunk.length;
        job.progress(done);
      }
      return `Moved ${plural(moved, 'message')} to ${destination}.`;
    });
    get().clearSelection();
    get().invalidateList();
    return job;
  },

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
      const total = [...byDestination.values()].reduce((n, ids) => n + ids.length, 0);
      job.setTotal(total);
      const outcomes: DestinationOutcome[] = [];
      let done = 0;
      for (const [destination, ids] of byDestination) {
        const outcome: DestinationOutcome = { destination, sent: 0, failed: 0, codes: new Map() };
        outcomes.push(outcome);
        for (const chunk of chunks(ids, CHUNK)) {
          if (job.signal.aborted) break;
          try {
            const result = await client.messagesMove({ path: target.path, lookupIds: chunk, target: destination });
            outcome.sent += result.moved;
            for (const failure of result.failed) {
              outcome.failed += 1;
              outcome.codes.set(failure.code, (outcome.codes.get(failure.code) ?? 0) + 1);
              job.fail(`Lookup ID ${failure.lookupId} → ${destination}`, failure.code, failure.message);
            }
          } catch (error) {
            // A destination that does not exist fails its whole group; the others still go.
            const { code, message } = describeError(error);
            outcome.failed += chunk.length;
            outcome.codes.set(code, (outcome.codes.get(code) ?? 0) + chunk.length);
            for (const id of chunk) job.fail(`Lookup ID ${id} → ${destination}`, code, message);
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

  async exportSelected() {
    const target = get().target;
    if (!target) return null;
    const client = ctx.clientFor(target.computer);
    const computer = get().computers.find((c) => c.key === target.computer)?.name ?? target.computer;
    let messages: MessageInfo[] = [];
    const job = await get().runJob('Export messages', async (job) => {
      const ids = await get().resolveSelection(job.signal);
      job.setTotal(ids.length);
      const out = new Array<MessageInfo>(ids.length);
      let next = 0;
      let done = 0;
      const worker = async () => {
        while (next < ids.length && !job.signal.aborted) {
          const index = next++;
          out[index] = await client.messageGet({ path: target.path, lookupId: ids[index] as number });
          done += 1;
          job.progress(done);
        }
      };
      await Promise.all(Array.from({ length: EXPORT_CONCURRENCY }, worker));
      messages = out.filter(Boolean);
      return `Exported ${plural(messages.length, 'message')}.`;
    });
    if (job.state !== 'done') return null;
    return { fileName: exportFileName(target.path), json: exportJson(computer, target.path, messages) };
  },

  async importMessages(computer, path, messages, mode) {
    const keepIds = mode === 'keep';
    const client = ctx.clientFor(computer);
    // New messages take the target's type (R-M1: a nontransactional message is not delivered to a
    // transactional queue, nor the other way round).
    const transactional = (await client.queueShow({ path })).transactional;
    const now = Date.now();
    const expiring = keepIds
      ? messages.filter((m) => m.timeToBeReceived !== null && Date.parse(m.sentTime) + m.timeToBeReceived * 1000 <= now)
          .length
      : 0;
    return get().runJob(`Import ${plural(messages.length, 'message')} into ${path}`, async (job) => {
      job.setTotal(messages.length);
      let stored = 0;
      let done = 0;
      if (keepIds) {
        // The arrival path keeps ID, class, source and sent time: a lossless copy of what was exported.
        for (const m of messages) {
          if (job.signal.aborted) break;
          const result = await client.messageArrive({
            path,
            message: {
              ...toSendProperties(m),
              id: m.id,
              sourceMachine: m.sourceMachine,
              sourceMachineId: m.sourceMachineId,
              transactional: m.transactional,
              sentTime: m.sentTime,
              classCode: m.classCode,
            },
          });
          if (result.accepted) stored += 1;
          else job.fail(m.id, 'REJECTED', result.reason ?? 'The queue manager did not accept the message.');
          done += 1;
          job.progress(done);
        }
      } else {
        for (const chunk of chunks(messages, CHUNK)) {
          if (job.signal.aborted) break;
          await client.sendBatch({
            messages: chunk.map((m) => ({
              path,
              message: toSendProperties(m),
              ...(transactional ? { transactional: true } : {}),
            })),
          });
          stored += chunk.length;
          done += chunk.length;
          job.progress(done);
        }
      }
      const refused = done - stored;
      if (!keepIds) return `Imported ${plural(stored, 'message')} into ${path} as new messages.`;
      return [
        `Imported ${formatCount(stored)} of ${plural(done, 'message')} into ${path} as they were`,
        refused > 0 ? `; ${formatCount(refused)} refused` : '',
        expiring > 0 ? `; ${formatCount(expiring)} had run out of time to be received and expired on arrival` : '',
        '.',
      ].join('');
    });
  },

  async sendTestMessage(computer, path, message, transactional) {
    const { id } = await ctx
      .clientFor(computer)
      .send({ path, message, ...(transactional ? { transactional: true } : {}) });
    return id;
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
});

/** What a resend did for one destination queue. */
interface DestinationOutcome {
  destination: string;
  sent: number;
  failed: number;
  /** Failures by error code. */
  codes: Map<string, number>;
}

/**
 * The honest summary of a resend, destination by destination (issue 12, point 5): "Resent 20 of 26.
 * .\private$\orders: 20 sent. .\private$\gone: 6 failed (QUEUE_NOT_FOUND 6)." — never a total that
 * hides that every message to one destination failed.
 */
export function resendSummary(outcomes: readonly DestinationOutcome[]): string {
  const sent = outcomes.reduce((n, o) => n + o.sent, 0);
  const all = outcomes.reduce((n, o) => n + o.sent + o.failed, 0);
  const parts = outcomes.map((o) => {
    const bits: string[] = [];
    if (o.sent > 0) bits.push(`${formatCount(o.sent)} sent`);
    if (o.failed > 0)
      bits.push(
        `${formatCount(o.failed)} failed (${[...o.codes].map(([code, n]) => `${code} ${formatCount(n)}`).join(', ')})`,
      );
    return `${o.destination}: ${bits.join(', ') || 'nothing'}`;
  });
  return `Resent ${formatCount(sent)} of ${plural(all, 'message')}. ${parts.join('. ')}.`;
}
