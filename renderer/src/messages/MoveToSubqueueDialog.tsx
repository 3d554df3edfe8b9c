/**
 * Move to subqueue (MSMQ 4.0's MoveMessage, R-S3): the selected messages go into a subqueue of their queue
 * — an existing one, or a new name (opened on first use, `poison` by default, as WCF names it). Each
 * message's move count goes up (R-S7).
 */
import { useState } from 'react';
import { attempt } from '../commands/action-item.js';
import { DialogShell, FieldError } from '../dialogs/DialogShell.js';
import { formatCount } from '../format/format.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { queueCaption, queueShortName, subqueueName } from '../tree/tree-model.js';

const EMPTY: never[] = [];
/** MSMQ's subqueue names: up to 32 characters, no `;` (§3.2). */
const NAME = /^[^;\\/]{1,32}$/;

/** The dialog, for the messages selected in `path` (a queue or one of its subqueues). */
export function MoveToSubqueueDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const queuePath = path.split(';')[0] ?? path;
  const queues = useAppStore((s) => s.queues[computer] ?? EMPTY);
  const count = useAppStore((s) => s.selectedCount());
  const siblings = queues
    .filter((q) => q.type === 'subqueue' && q.path.toLowerCase().startsWith(`${queuePath.toLowerCase()};`))
    .map((q) => subqueueName(q.path))
    .filter((name) => `${queuePath};${name}`.toLowerCase() !== path.toLowerCase());
  const inSubqueue = path.includes(';');
  const [name, setName] = useState(siblings[0] ?? (inSubqueue ? '' : 'poison'));
  // An empty box is not an error until something was typed into it (a subqueue with no siblings opens empty).
  const [typed, setTyped] = useState(false);
  const here = `${queuePath};${name.trim()}`.toLowerCase() === path.toLowerCase();
  const valid = NAME.test(name.trim()) && !here;
  return (
    <DialogShell
      title="Move to subqueue"
      onClose={() => store.getState().closeDialog()}
      okLabel="Move"
      okDisabled={!valid}
      onOk={() => {
        attempt(store, 'Move to subqueue', () => store.getState().moveWithinQueue(`${queuePath};${name.trim()}`));
      }}
    >
      <p>
        Move {formatCount(count)} {count === 1 ? 'message' : 'messages'} of {queueCaption(path)} into the subqueue:
      </p>
      <label className="form-row">
        <span>Subqueue of {queueShortName(queuePath)}</span>
        <input
          list="qk-subqueues"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setTyped(true);
          }}
          aria-label="Subqueue name"
          aria-invalid={!valid}
          aria-describedby={valid ? undefined : 'subqueue-name-error'}
          data-autofocus
        />
      </label>
      {!valid && (typed || name !== '') && (
        <FieldError id="subqueue-name-error">
          {here
            ? 'The messages are in this subqueue already.'
            : 'A subqueue name has 1 to 32 characters and no ; \\ or /.'}
        </FieldError>
      )}
      <datalist id="qk-subqueues">
        {siblings.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <p className="hint">A subqueue that does not exist yet is opened by the first message moved into it.</p>
    </DialogShell>
  );
}
