/**
 * Import messages from an exported file, with a preview first (issue 12, point 5): how many, from which
 * queue, of which classes. The default is to send them as new messages (class NORMAL, sent now, timers
 * from now); keeping them as they were is a choice, with what that means said beside it.
 */
import { useState } from 'react';
import type { ExportedMessage, ImportMode } from '@qk/model';
import { attempt } from '../commands/action-item.js';
import { DialogShell, Field } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { formatBytes, formatCount, formatTime } from '../format/format.js';
import { useStoreApi } from '../store/use-app-store.js';
import { queueShortName } from '../tree/tree-model.js';
import { previewImport, type ImportPreview } from './import-preview.js';
import { readMessageFile } from './message-file.js';

/** The Import dialog. */
export function ImportDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const [file, setFile] = useState<{ name: string; messages: ExportedMessage[]; preview: ImportPreview } | null>(null);
  const [mode, setMode] = useState<ImportMode>('asNew');
  const [error, setError] = useState<string | null>(null);
  const preview = file?.preview;
  return (
    <DialogShell
      title={`Import messages into ${queueShortName(path)}`}
      onClose={() => store.getState().closeDialog()}
      okLabel="Import"
      okDisabled={!file || file.messages.length === 0}
      error={error}
      width={560}
      onOk={() => {
        if (!file) return false;
        // The import runs as a job in the status bar (progress, Cancel, an honest summary).
        attempt(store, 'Import messages', () => store.getState().importMessages(computer, path, file.messages, mode));
        return true;
      }}
    >
      <label className="form-row">
        <span>File</span>
        <input
          type="file"
          accept=".jsonl,.json,application/x-ndjson,application/json"
          aria-label="Export file"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            if (!chosen) return;
            chosen.text().then(
              (text) => {
                try {
                  const { messages, header } = readMessageFile(text);
                  setFile({ name: chosen.name, messages, preview: previewImport(messages, header, Date.now()) });
                  setError(null);
                } catch (err) {
                  setFile(null);
                  setError(errorText(err));
                }
              },
              (err: unknown) => setError(errorText(err)),
            );
          }}
        />
      </label>
      {preview && (
        <div className="import-preview" role="region" aria-label="File contents">
          <Field label="Messages">
            {formatCount(preview.count)} ({formatBytes(preview.bytes)} of bodies)
          </Field>
          <Field label="Exported from">
            {preview.source
              ? `${preview.source.path} on ${preview.source.computer}${preview.source.exportedTime ? `, ${formatTime(preview.source.exportedTime)}` : ''}`
              : 'not recorded in the file'}
          </Field>
          <Field label="Classes">
            {preview.classes.map((c) => `${c.name} ${formatCount(c.count)}`).join(', ') || '—'}
          </Field>
        </div>
      )}
      <fieldset className="plain-fieldset">
        <legend>How they arrive</legend>
        <label className="check-row">
          <input type="radio" name="import-mode" checked={mode === 'asNew'} onChange={() => setMode('asNew')} />
          Send as new messages (class NORMAL, sent now, timers counted from now)
        </label>
        <label className="check-row">
          <input type="radio" name="import-mode" checked={mode === 'asIs'} onChange={() => setMode('asIs')} />
          Keep them as they were (IDs, classes, source computer, times and counts)
        </label>
      </fieldset>
      {mode === 'asIs' && preview && (preview.expiredIfKept > 0 || preview.nackClasses > 0) && (
        <p className="warning-text" role="note">
          {preview.expiredIfKept > 0 &&
            `${formatCount(preview.expiredIfKept)} of them ran out of time to be received since they were sent: kept as they were, they expire on arrival. `}
          {preview.nackClasses > 0 &&
            `${formatCount(preview.nackClasses)} keep a NACK class and would sit in ${queueShortName(path)} as dead letters or acknowledgments.`}
        </p>
      )}
    </DialogShell>
  );
}
