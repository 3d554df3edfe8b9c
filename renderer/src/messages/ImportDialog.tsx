/** Import messages from an exported JSON file. */
import { useState } from 'react';
import { DialogShell } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { useStoreApi } from '../store/use-app-store.js';
import { queueShortName } from '../tree/tree-model.js';

/** The Import dialog. */
export function ImportDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const [text, setText] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [keepIds, setKeepIds] = useState(true);
  const [error, setError] = useState<string | null>(null);
  return (
    <DialogShell
      title={`Import messages into ${queueShortName(path)}`}
      onClose={() => store.getState().closeDialog()}
      okLabel="Import"
      okDisabled={text === null}
      error={error}
      onOk={async () => {
        try {
          const job = store.getState().importMessages(computer, path, text ?? '', keepIds);
          store.getState().closeDialog();
          await job;
          return true;
        } catch (e) {
          setError(errorText(e));
          return false;
        }
      }}
    >
      <label className="form-row">
        <span>File</span>
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Export file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            setFileName(file.name);
            file.text().then(setText, (error: unknown) => setError(errorText(error)));
          }}
        />
      </label>
      {fileName && <p className="hint">{fileName}</p>}
      <label className="check-row">
        <input type="checkbox" checked={keepIds} onChange={(e) => setKeepIds(e.target.checked)} /> Keep message IDs,
        classes, source computer and sent times (arrive as the original messages)
      </label>
      <p className="hint">Without this option each message is sent anew with the same properties and body.</p>
    </DialogShell>
  );
}
