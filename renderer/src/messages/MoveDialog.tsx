/** Move selected messages to another local queue (through its arrival path). */
import { useState } from 'react';
import { attempt } from '../commands/action-item.js';
import { DialogShell } from '../dialogs/DialogShell.js';
import { samePath } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { classifyQueue } from '../tree/tree-model.js';

const EMPTY_QUEUES: never[] = [];

/** The Move dialog. */
export function MoveDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const queues = useAppStore((s) => s.queues[computer] ?? EMPTY_QUEUES);
  const count = useAppStore((s) => s.selectedCount());
  // Application queues only: a system queue takes only what the queue manager itself puts there.
  const choices = queues.filter(
    (q) =>
      !samePath(q.path, path) && (q.type === 'private' || q.type === 'public') && classifyQueue(q).group !== 'hidden',
  );
  const [target, setTarget] = useState(choices[0]?.path ?? '');
  return (
    <DialogShell
      title="Move to another queue"
      onClose={() => store.getState().closeDialog()}
      okLabel="Move"
      okDisabled={target === ''}
      onOk={() => {
        // The move runs as a job in the status bar; the shell closes this dialog.
        attempt(store, 'Move messages', () => store.getState().moveSelected(target));
      }}
    >
      <p>
        Move {count.toLocaleString()} {count === 1 ? 'message' : 'messages'} from {path} to:
      </p>
      <select
        aria-label="Destination queue"
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        size={Math.min(10, Math.max(3, choices.length))}
        className="wide"
      >
        {choices.map((q) => (
          <option key={q.path} value={q.path}>
            {q.path}
            {q.transactional ? ' (transactional)' : ''}
          </option>
        ))}
      </select>
      <p className="hint">
        Each message goes through the destination's arrival rules (transactional type, quota); any that are refused stay
        here and are listed.
      </p>
    </DialogShell>
  );
}
