/**
 * Walk a queue with a cursor (R-C2–R-C5), as an application does with MQReceiveMessage's cursor: the
 * current message, Next to move on, Receive to take the message under the cursor (the cursor then stands
 * after it), waiting for an arrival at the end. The cursor is closed when the dialog closes.
 */
import { useEffect, useRef, useState } from 'react';
import type { MessageInfo } from '@qk/model';
import { describeError } from '../client/console-client.js';
import { DialogShell, Field } from '../dialogs/DialogShell.js';
import { formatTime } from '../format/format.js';
import { classLabel, classTone } from '../format/message-class.js';
import { useStoreApi } from '../store/use-app-store.js';
import { queueCaption } from '../tree/tree-model.js';

/** How long "Wait for the next message" waits (R-C4: a cursor at the end takes the next arrival). */
const WAIT_MS = 10_000;

type State =
  | { kind: 'opening' }
  | { kind: 'message'; message: MessageInfo; received: MessageInfo | null }
  /** At the end; `resume` is how to wait there: 'current' after a receive took the last, 'next' after Next. */
  | { kind: 'end'; received: MessageInfo | null; waiting: boolean; resume: 'current' | 'next' }
  /** `movable`: the message under the cursor went meanwhile (R-C5); Next moves on from where it was. */
  | { kind: 'error'; text: string; movable: boolean };

/** The dialog. */
export function CursorDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const cursor = useRef<string | null>(null);
  const [state, setState] = useState<State>({ kind: 'opening' });
  const [busy, setBusy] = useState(false);
  const lastReceived = state.kind === 'message' || state.kind === 'end' ? state.received : null;

  /** Runs one cursor step; IO_TIMEOUT means the cursor is at the end of the queue. */
  const step = async (action: 'current' | 'next', timeoutMs: number, received: MessageInfo | null, waiting = false) => {
    const id = cursor.current;
    if (!id) return;
    setBusy(true);
    if (waiting) setState({ kind: 'end', received, waiting: true, resume: action });
    try {
      const message = await store.getState().cursorPeek(computer, id, action, timeoutMs);
      setState({ kind: 'message', message, received });
    } catch (error) {
      const { code, message } = describeError(error);
      setState(
        code === 'IO_TIMEOUT'
          ? { kind: 'end', received, waiting: false, resume: action }
          : { kind: 'error', text: `${code}: ${message}`, movable: code === 'MESSAGE_ALREADY_RECEIVED' },
      );
    } finally {
      setBusy(false);
    }
  };
  const run = (work: () => Promise<void>) => {
    work().catch((error: unknown) => {
      const { code, message } = describeError(error);
      setState({ kind: 'error', text: `${code}: ${message}`, movable: code === 'MESSAGE_ALREADY_RECEIVED' });
    });
  };

  useEffect(() => {
    let closed = false;
    const s = store.getState();
    s.cursorOpen(computer, path).then(
      (id) => {
        if (closed) {
          s.cursorClose(computer, id);
          return;
        }
        cursor.current = id;
        run(() => step('current', 0, null));
      },
      (error: unknown) => {
        const { code, message } = describeError(error);
        setState({ kind: 'error', text: `${code}: ${message}`, movable: false });
      },
    );
    return () => {
      closed = true;
      if (cursor.current) s.cursorClose(computer, cursor.current);
      cursor.current = null;
    };
    // One cursor for the life of the dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const s = store.getState();
  const current = state.kind === 'message' ? state.message : null;
  return (
    <DialogShell title={`Cursor on ${queueCaption(path)}`} onClose={() => s.closeDialog()} width={560}>
      <div className="cursor-view" role="region" aria-label="Message under the cursor">
        {state.kind === 'opening' && <p className="muted">Opening a cursor…</p>}
        {state.kind === 'error' && <p className="dialog-error">{state.text}</p>}
        {state.kind === 'end' && (
          <p role="status">
            {state.waiting
              ? 'Waiting for the next message to arrive…'
              : 'The cursor is at the end of the queue: no message after it now.'}
          </p>
        )}
        {current && (
          <>
            <Field label="Label">{current.label || <span className="muted">(no label)</span>}</Field>
            <Field label="Lookup ID">{current.lookupId}</Field>
            <Field label="Class">
              <span className={`class-${classTone(current.classCode)}`}>{classLabel(current.classCode)}</span>
            </Field>
            <Field label="Priority">{current.priority}</Field>
            <Field label="Arrived">
              <span title={current.arrivedTime}>{formatTime(current.arrivedTime)}</span>
            </Field>
            <Field label="Moves / aborted receives">
              {current.moveCount.toLocaleString()} / {current.abortCount.toLocaleString()}
            </Field>
          </>
        )}
        {lastReceived && (
          <p className="hint" role="note">
            Received {lastReceived.label || `message ${lastReceived.lookupId}`}; the cursor stands after it.
          </p>
        )}
      </div>
      <div className="form-actions cursor-buttons">
        <button
          type="button"
          disabled={busy || !(current || (state.kind === 'error' && state.movable))}
          onClick={() => run(() => step('next', 0, null))}
        >
          Next
        </button>
        <button
          type="button"
          disabled={busy || !current}
          onClick={() =>
            current &&
            s.openDialog({
              kind: 'confirm',
              title: 'Receive message',
              text: `Receive ${current.label || `message ${current.lookupId}`} from ${queueCaption(path)}?`,
              details: [
                'It leaves the queue as when an application receives it: a journal copy if the queue keeps one, and the acknowledgment its sender asked for.',
              ],
              confirmLabel: 'Receive',
              destructive: true,
              onConfirm: () =>
                run(async () => {
                  const received = await s.cursorReceive(computer, cursor.current ?? '');
                  await step('current', 0, received);
                }),
            })
          }
        >
          Receive…
        </button>
        <button
          type="button"
          disabled={busy || state.kind !== 'end'}
          onClick={() => state.kind === 'end' && run(() => step(state.resume, WAIT_MS, lastReceived, true))}
        >
          Wait for the next message
        </button>
      </div>
    </DialogShell>
  );
}
