/**
 * Moving and copying messages between queues (QueueExplorer's daily tools): Move to another queue, Copy
 * and Paste (Ctrl+C / Ctrl+V), drag and drop (Ctrl to copy). A copy keeps the original; each runs as a job
 * with an honest result (what moved or was copied, what the target refused and why).
 */
import { queueShortName } from '../tree/tree-model.js';
import type { SliceCreator } from '../store/shared.js';
import type { Job, JobContext, TransferActions } from '../store/types.js';
import { CHUNK, chunks, codeCounts, plural } from './job-helpers.js';

export const createTransferActions: SliceCreator<TransferActions> = (set, get, ctx) => {
  /** Moves or copies `lookupIds` of `from` to `to`, chunk by chunk. */
  async function transfer(
    from: { computer: string; path: string },
    ids: (job: JobContext) => Promise<number[]>,
    to: string,
    mode: 'move' | 'copy',
  ): Promise<Job> {
    const client = ctx.clientFor(from.computer);
    const verb = mode === 'move' ? 'Move' : 'Copy';
    const job = await get().runJob(`${verb} messages to ${to}`, async (job) => {
      const lookupIds = await ids(job);
      job.setTotal(lookupIds.length);
      let done = 0;
      let ok = 0;
      const codes = new Map<string, number>();
      for (const chunk of chunks(lookupIds, CHUNK)) {
        if (job.signal.aborted) break;
        const result =
          mode === 'move'
            ? await client.messagesMove({ path: from.path, lookupIds: chunk, target: to })
            : await client.messagesCopy({ path: from.path, lookupIds: chunk, target: to });
        ok += 'moved' in result ? result.moved : result.copied;
        for (const f of result.failed) {
          codes.set(f.code, (codes.get(f.code) ?? 0) + 1);
          job.fail(`Lookup ID ${f.lookupId}`, f.code, f.message);
        }
        done += chunk.length;
        job.progress(done);
      }
      const failed = done - ok;
      const past = mode === 'move' ? 'Moved' : 'Copied';
      return `${past} ${plural(ok, 'message')} to ${to}${failed > 0 ? `; ${plural(failed, 'message')} refused (${codeCounts(codes)})` : ''}${job.signal.aborted ? ' before Cancel' : ''}.`;
    });
    if (get().target?.computer === from.computer) get().invalidateList();
    return job;
  }

  /** Runs `each` for every message `ids` names, one service call per message, as a job. */
  async function perMessage(
    title: string,
    past: string,
    to: string,
    ids: (job: JobContext) => Promise<readonly number[]>,
    each: (client: ReturnType<typeof ctx.clientFor>, path: string, lookupId: number) => Promise<unknown>,
  ): Promise<Job | null> {
    const target = get().target;
    if (!target) return null;
    const client = ctx.clientFor(target.computer);
    const job = await get().runJob(title, async (job) => {
      const lookupIds = await ids(job);
      job.setTotal(lookupIds.length);
      let ok = 0;
      let done = 0;
      const codes = new Map<string, number>();
      for (const id of lookupIds) {
        if (job.signal.aborted) break;
        try {
          await each(client, target.path, id);
          ok += 1;
        } catch (error) {
          const e = error as { code?: string; message?: string };
          const code = e.code ?? 'INTERNAL';
          codes.set(code, (codes.get(code) ?? 0) + 1);
          job.fail(`Lookup ID ${id}`, code, e.message ?? String(error));
        }
        done += 1;
        job.progress(done);
      }
      const failed = done - ok;
      return `${past} ${plural(ok, 'message')}${to}${failed > 0 ? `; ${plural(failed, 'message')} failed (${codeCounts(codes)})` : ''}${job.signal.aborted ? ' before Cancel' : ''}.`;
    });
    get().clearSelection();
    get().invalidateList();
    return job;
  }

  return {
    clipboard: null,

    moveWithinQueue(destination) {
      return perMessage(
        `Move messages to ${destination}`,
        'Moved',
        ` to ${destination}`,
        (job) => get().resolveSelection(job.signal),
        (client, path, lookupId) => client.messageMove({ path, lookupId, target: destination }),
      );
    },

    rejectSelected(lookupIds) {
      return perMessage(
        'Reject messages',
        'Rejected',
        '',
        () => Promise.resolve(lookupIds),
        (client, path, lookupId) => client.messageReject({ path, lookupId }),
      );
    },

    async moveSelected(destination) {
      const target = get().target;
      if (!target) return null;
      const job = await transfer(target, (j) => get().resolveSelection(j.signal), destination, 'move');
      get().clearSelection();
      return job;
    },

    async copySelected(destination) {
      const target = get().target;
      if (!target) return null;
      return transfer(target, (j) => get().resolveSelection(j.signal), destination, 'copy');
    },

    async copyToClipboard() {
      const target = get().target;
      const count = get().selectedCount();
      if (!target || count === 0) return;
      // Ctrl+A stands for every message: resolved now, so the clipboard holds what was selected when copied.
      const lookupIds = await get().resolveSelection();
      set({
        clipboard: {
          computer: target.computer,
          path: target.path,
          lookupIds,
          caption: `${plural(lookupIds.length, 'message')} from ${queueShortName(target.path)}`,
        },
      });
    },

    async pasteInto(computer, path) {
      const clipboard = get().clipboard;
      if (!clipboard || clipboard.computer !== computer) return null;
      return transfer(clipboard, () => Promise.resolve(clipboard.lookupIds), path, 'copy');
    },
  };
};
