/** The small dialogs: confirmation, Add/Remove Columns, Connect to another computer, About. */
import { useState } from 'react';
import { messageColumnLabels, messageColumns } from '../list/message-columns.js';
import { defaultMessageColumns } from '../store/columns-slice.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { DialogShell } from './DialogShell.js';
import { errorText } from './error-text.js';

/** "Purge 1,204 messages from Dead-letter messages?" with the action's own button. */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  onConfirm,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  const store = useStoreApi();
  return (
    <DialogShell
      title={title}
      onClose={() => store.getState().closeDialog()}
      onOk={() => onConfirm()}
      okLabel={confirmLabel}
      width={440}
    >
      <p className="confirm-text">{text}</p>
    </DialogShell>
  );
}

/** View › Add/Remove Columns: choose and order the message list's columns. */
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

/** File › Connect to another computer: a service address and its token. */
export function ConnectDialog() {
  const store = useStoreApi();
  const [url, setUrl] = useState('http://127.0.0.1:');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <DialogShell
      title="Connect to another computer"
      onClose={() => store.getState().closeDialog()}
      error={error}
      okLabel="Connect"
      okDisabled={!/^https?:\/\/.+/.test(url) || token.trim() === ''}
      onOk={async () => {
        try {
          await store.getState().connectComputer(url.trim(), token.trim());
          return true;
        } catch (e) {
          setError(errorText(e));
          return false;
        }
      }}
    >
      <p className="hint">
        The computer's Queuekeeper service address (as printed by <code>qk service start</code>) and the token from its
        data folder.
      </p>
      <label className="form-row">
        <span>Service address</span>
        <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://host:port" />
      </label>
      <label className="form-row">
        <span>Token</span>
        <input value={token} onChange={(e) => setToken(e.target.value)} type="password" autoComplete="off" />
      </label>
    </DialogShell>
  );
}

/** Help › About. */
export function AboutDialog() {
  const store = useStoreApi();
  const status = useAppStore((s) => s.computers[0]?.status);
  return (
    <DialogShell title="About Queuekeeper" onClose={() => store.getState().closeDialog()} width={420}>
      <p>
        <strong>Queuekeeper</strong> — message queuing with the semantics of Microsoft Message Queuing, administered
        like the Message Queuing node of Computer Management.
      </p>
      {status && (
        <p>
          Service version {status.version} on {status.name} ({status.id}).
        </p>
      )}
    </DialogShell>
  );
}
