/**
 * Export and Import with the service's own operations (messagesExport, messagesImport) and the file format
 * `qk export` and `qk import` share (docs/message-file-format.md), so a file from either works in the other.
 */
import type { ExportedMessage } from '@qk/model';
import type { SliceCreator } from '../store/shared.js';
import type { FileActions } from '../store/types.js';
import { formatCount } from '../format/format.js';
import { plural } from './job-helpers.js';
import { exportFileName, writeMessageFile } from './message-file.js';

/** Messages per import call, and the body bytes after which a batch goes early (as `qk import` sends them). */
const IMPORT_BATCH = 500;
const IMPORT_BATCH_BYTES = 6 * 1024 * 1024;

/** Batches of at most IMPORT_BATCH messages and about IMPORT_BATCH_BYTES of bodies. */
function importBatches(messages: readonly ExportedMessage[]): ExportedMessage[][] {
  const batches: ExportedMessage[][] = [];
  let batch: ExportedMessage[] = [];
  let bytes = 0;
  for (const m of messages) {
    if (batch.length > 0 && (batch.length >= IMPORT_BATCH || bytes + m.bodyBase64.length > IMPORT_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(m);
    bytes += m.bodyBase64.length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export const createFileActions: SliceCreator<FileActions> = (_set, get, ctx) => ({
  async exportMessages(computer, path, which) {
    const client = ctx.clientFor(computer);
    let text: string | null = null;
    const job = await get().runJob(`Export messages of ${path}`, async (job) => {
      // The selection (resolved to lookup IDs), or the whole queue.
      const wanted = which === 'selection' ? new Set(await get().resolveSelection(job.signal)) : null;
      const status = await client.serviceStatus({});
      job.setTotal(wanted ? wanted.size : (await client.queueShow({ path })).messageCount);
      const messages: ExportedMessage[] = [];
      let after: string | undefined;
      // Walk the queue's export pages; a selection stops as soon as every selected message was seen.
      while (!job.signal.aborted && (!wanted || messages.length < wanted.size)) {
        const page = await client.messagesExport({ path, ...(after !== undefined ? { after } : {}) });
        for (const m of page.messages) if (!wanted || wanted.has(m.lookupId)) messages.push(m);
        job.progress(messages.length);
        if (page.next === null) break;
        after = page.next;
      }
      if (job.signal.aborted) return `Export cancelled; no file was written.`;
      text = writeMessageFile(
        {
          format: 'queuekeeper.messages',
          version: 2,
          computer: status.name,
          computerId: status.id,
          path,
          exportedTime: new Date().toISOString(),
        },
        messages,
      );
      return `Exported ${plural(messages.length, 'message')} of ${path}.`;
    });
    if (job.state !== 'done' || text === null) return null;
    return { fileName: exportFileName(path), text };
  },

  async importMessages(computer, path, messages, mode) {
    const client = ctx.clientFor(computer);
    const now = Date.now();
    // Kept as they were, messages whose time to be received already ran out expire at the next timer tick.
    const expiring =
      mode === 'asIs'
        ? messages.filter(
            (m) => m.timeToBeReceived !== null && Date.parse(m.timerBaseTime) + m.timeToBeReceived * 1000 <= now,
          ).length
        : 0;
    return get().runJob(`Import ${plural(messages.length, 'message')} into ${path}`, async (job) => {
      job.setTotal(messages.length);
      let imported = 0;
      let done = 0;
      for (const batch of importBatches(messages)) {
        if (job.signal.aborted) break;
        try {
          imported += (await client.messagesImport({ path, messages: batch, mode })).imported;
        } catch (error) {
          // Each batch is stored whole or not at all: a refused batch is named with its reason, the rest go on.
          const e = error as { code?: string; message?: string };
          job.fail(`Messages ${done + 1}–${done + batch.length}`, e.code ?? 'INTERNAL', e.message ?? String(error));
        }
        done += batch.length;
        job.progress(done);
      }
      const refused = done - imported;
      const how = mode === 'asNew' ? 'as new messages' : 'as they were';
      return [
        `Imported ${formatCount(imported)} of ${plural(messages.length, 'message')} into ${path} ${how}`,
        refused > 0 ? `; ${plural(refused, 'message')} refused` : '',
        expiring > 0 ? `; ${plural(expiring, 'message')} had run out of time to be received and expire on arrival` : '',
        job.signal.aborted ? '; cancelled' : '',
        '.',
      ].join('');
    });
  },
});
