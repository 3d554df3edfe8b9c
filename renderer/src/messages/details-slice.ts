/** Open dialog, and the message properties sheet's data (the message, its acknowledgments or original). */
import { isAcknowledgmentClass } from '@qk/model';
import { describeError } from '../client/console-client.js';
import { classifyQueue, nodeId } from '../tree/tree-model.js';
import { samePath, type SliceCreator } from '../store/shared.js';
import type { DetailsSlice, Dialog } from '../store/types.js';

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
  if (path.includes(';')) return nodeId(computer, 'subqueue', path);
  const journal = /\\JOURNAL\$$/i.exec(path);
  if (journal) return nodeId(computer, 'journalMessages', path.slice(0, journal.index));
  return nodeId(computer, 'queueMessages', path);
}

/** Why a message left, in the words of the properties sheet. */
const leftBecause: Record<string, string> = {
  received: 'It was received by an application.',
  purged: 'Its queue was purged.',
  deleted: 'It was deleted.',
  expired: 'Its time to be received ran out.',
  moved: 'It was moved to another queue.',
  queueDeleted: 'Its queue was deleted.',
  conversationEnded: 'Its conversation ended.',
  retained: 'It was received and is kept as a retained copy.',
};

export const createDetailsSlice: SliceCreator<DetailsSlice> = (set, get, ctx) => {
  let requestSeq = 0;
  const withTop = (dialogs: Dialog[]) => ({ dialogs, dialog: dialogs[dialogs.length - 1] ?? null });
  return {
    dialogs: [],
    dialog: null,
    details: null,

    openDialog(dialog) {
      set((s) => withTop([...s.dialogs, dialog]));
    },

    closeDialog() {
      const closing = get().dialog;
      if (closing?.kind === 'messageProperties') requestSeq += 1;
      set((s) => ({
        ...withTop(s.dialogs.slice(0, -1)),
        ...(closing?.kind === 'messageProperties' ? { details: null } : {}),
      }));
    },

    async openMessageProperties(computer, path, lookupId) {
      const seq = ++requestSeq;
      const sheet: Dialog = { kind: 'messageProperties', computer, path, lookupId };
      // Go to message from an open sheet replaces that sheet rather than stacking another.
      set((s) => ({
        ...withTop(s.dialog?.kind === 'messageProperties' ? [...s.dialogs.slice(0, -1), sheet] : [...s.dialogs, sheet]),
        details: {
          computer,
          path,
          message: null,
          readAt: Date.now(),
          acknowledgments: null,
          originals: null,
          error: null,
          gone: null,
        },
      }));
      const client = ctx.clientFor(computer);
      try {
        const message = await client.messageGet({ path, lookupId });
        if (seq !== requestSeq) return;
        set({
          details: {
            computer,
            path,
            message,
            readAt: Date.now(),
            acknowledgments: null,
            originals: null,
            error: null,
            gone: null,
          },
        });
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

    messageLeft(computer, path, lookupId, reason) {
      const details = get().details;
      if (!details?.message || details.gone || details.computer !== computer) return;
      if (details.message.lookupId !== lookupId || !samePath(details.path, path)) return;
      set({ details: { ...details, gone: leftBecause[reason] ?? `It left the queue (${reason}).` } });
    },

    async recheckDetails(computer, path) {
      const details = get().details;
      if (!details?.message || details.gone || details.computer !== computer || !samePath(details.path, path)) return;
      const lookupId = details.message.lookupId;
      try {
        await ctx.clientFor(computer).messageGet({ path: details.path, lookupId });
      } catch (error) {
        if (describeError(error).code !== 'MESSAGE_NOT_FOUND') return;
        const now = get().details;
        if (now?.message?.lookupId === lookupId && !now.gone)
          set({ details: { ...now, gone: 'It is no longer in this queue (received, moved or removed).' } });
      }
    },
  };
};
