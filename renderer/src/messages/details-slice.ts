/** Open dialog, and the message properties sheet's data (the message, its acknowledgments or original). */
import { isAcknowledgmentClass } from '@qk/model';
import { describeError } from '../client/console-client.js';
import { classifyQueue, nodeId } from '../tree/tree-model.js';
import type { SliceCreator } from '../store/shared.js';
import type { DetailsSlice } from '../store/types.js';

/**
 * Whether a message is an acknowledgment (generated for an original, which its correlation ID names)
 * rather than an original. A dead letter keeps the NACK class that says why it was dead-lettered, but
 * it is the original itself (R-D: dead letters keep their ID and body), so in a dead-letter queue a
 * NACK class does not make an acknowledgment.
 */
export function isAcknowledgmentMessage(message: { classCode: number }, path: string): boolean {
  if (!isAcknowledgmentClass(message.classCode)) return false;
  const where = classifyQueue({ path, formatName: '', type: 'system' } as Parameters<typeof classifyQueue>[0]);
  return !(where.group === 'system' && where.kind !== 'JOURNAL');
}

/** The tree node that lists a queue path: its Queue messages, Journal messages, or the system queue. */
export function listNodeFor(computer: string, path: string): string {
  const system = classifyQueue({ path, formatName: '', type: 'system' } as Parameters<typeof classifyQueue>[0]);
  if (system.group === 'system') return nodeId(computer, 'systemQueue', path);
  const journal = /\\JOURNAL\$$/i.exec(path);
  if (journal) return nodeId(computer, 'journalMessages', path.slice(0, journal.index));
  return nodeId(computer, 'queueMessages', path);
}

export const createDetailsSlice: SliceCreator<DetailsSlice> = (set, get, ctx) => {
  let requestSeq = 0;
  return {
    dialog: null,
    details: null,

    openDialog(dialog) {
      set({ dialog });
    },

    closeDialog() {
      requestSeq += 1;
      set({ dialog: null, details: null });
    },

    async openMessageProperties(computer, path, lookupId) {
      const seq = ++requestSeq;
      set({
        dialog: { kind: 'messageProperties', computer, path, lookupId },
        details: { computer, path, message: null, acknowledgments: null, originals: null, error: null },
      });
      const client = ctx.clientFor(computer);
      try {
        const message = await client.messageGet({ path, lookupId });
        if (seq !== requestSeq) return;
        set({ details: { computer, path, message, acknowledgments: null, originals: null, error: null } });
        if (isAcknowledgmentMessage(message, path)) {
          const originals = message.correlationId ? await client.messageFind({ id: message.correlationId }) : [];
          if (seq !== requestSeq) return;
          set((s) => ({ details: s.details && { ...s.details, originals } }));
        } else {
          const acknowledgments = await client.acknowledgmentsFor({ id: message.id });
          if (seq !== requestSeq) return;
          set((s) => ({ details: s.details && { ...s.details, acknowledgments } }));
        }
      } catch (error) {
        if (seq !== requestSeq) return;
        const { code, message } = describeError(error);
        set((s) => ({ details: s.details && { ...s.details, error: `${code}: ${message}` } }));
      }
    },

    async goToMessage(computer, location) {
      get().revealNode(listNodeFor(computer, location.path));
      // The list may be sorted or filtered so the row is not loaded; selecting by ID still works.
      set({ selection: { [location.message.lookupId]: true }, allSelected: false });
      await get().openMessageProperties(computer, location.path, location.message.lookupId);
    },
  };
};
