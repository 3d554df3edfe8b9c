/** View › Add/Remove Columns: choose and order the message list's columns. */
import { useState } from 'react';
import { DialogShell } from '../dialogs/DialogShell.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { defaultMessageColumns } from './columns-slice.js';
import { messageColumnLabels, messageColumns } from './message-columns.js';

/** The Add/Remove Columns dialog. */
export function ColumnsDialog() {
  const store = useStoreApi();
  const current = useAppStore((s) => s.columns);
  const [chosen, setChosen] = useState<string[]>(current);
  const all = messageColumns.map((c) => c.id as string);
  const available = all.filter((id) => !chosen.includes(id));
  const [pick, setPick] = useState<string | null>(null);
  const move = (id: string, delta: number) => {
    const index = chosen.indexOf(id);
    const next = chosen.slice();
    const other = index + delta;
    if (other < 0 || other >= next.length) return;
    [next[index], next[other]] = [next[other] as string, id];
    setChosen(next);
  };
  return (
    <DialogShell
      title="Add/Remove Columns"
      onClose={() => store.getState().closeDialog()}
      onOk={() => store.getState().setColumns(chosen)}
      width={560}
    >
      <div className="columns-editor">
        <div>
          <div className="field-label">Available columns</div>
          <ul className="pick-list" role="listbox" aria-label="Available columns">
            {available.map((id) => (
              <li
                key={id}
                role="option"
                aria-selected={pick === id}
                className={pick === id ? 'selected' : ''}
                onClick={() => setPick(id)}
                onDoubleClick={() => setChosen([...chosen, id])}
              >
                {messageColumnLabels[id]}
              </li>
            ))}
          </ul>
        </div>
        <div className="columns-buttons">
          <button
            type="button"
            disabled={!pick || !available.includes(pick)}
            onClick={() => pick && setChosen([...chosen, pick])}
          >
            Add →
          </button>
          <button
            type="button"
            disabled={!pick || !chosen.includes(pick)}
            onClick={() => pick && setChosen(chosen.filter((c) => c !== pick))}
          >
            ← Remove
          </button>
          <button type="button" disabled={!pick || !chosen.includes(pick)} onClick={() => pick && move(pick, -1)}>
            Move up
          </button>
          <button type="button" disabled={!pick || !chosen.includes(pick)} onClick={() => pick && move(pick, 1)}>
            Move down
          </button>
          <button type="button" onClick={() => setChosen(defaultMessageColumns)}>
            Restore defaults
          </button>
        </div>
        <div>
          <div className="field-label">Displayed columns</div>
          <ul className="pick-list" role="listbox" aria-label="Displayed columns">
            {chosen.map((id) => (
              <li
                key={id}
                role="option"
                aria-selected={pick === id}
                className={pick === id ? 'selected' : ''}
                onClick={() => setPick(id)}
                onDoubleClick={() => setChosen(chosen.filter((c) => c !== id))}
              >
                {messageColumnLabels[id]}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </DialogShell>
  );
}
