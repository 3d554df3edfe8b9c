/**
 * Search all queues (QueueExplorer's daily tool): the filter of the message list, plus correlation ID,
 * application-specific value and source computer, evaluated by the service over every queue, journal and
 * system queue of one computer. Each result goes to its message with one click.
 */
import { useState } from 'react';
import type { OperationOutput } from '@qk/api';
import { attempt } from '../commands/action-item.js';
import { DialogShell } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { formatCount, formatTime } from '../format/format.js';
import { classLabel, classTone } from '../format/message-class.js';
import { serviceFilter, type ListFilter, emptyFilter } from '../message-list/list-query.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { nodeCaption, parseNodeId } from '../tree/tree-model.js';
import { listNodeFor } from './details-slice.js';

type SearchResult = OperationOutput<'messagesSearch'>;

/** "orders › Queue messages", "Dead-letter messages" for a path. */
function whereText(path: string): string {
  return nodeCaption(parseNodeId(listNodeFor('x', path)), '');
}

/** The dialog. */
export function SearchDialog({ computer }: { computer: string }) {
  const store = useStoreApi();
  const name = useAppStore((s) => s.computers.find((c) => c.key === computer)?.name ?? '');
  const [filter, setFilter] = useState<ListFilter>(emptyFilter);
  const [result, setResult] = useState<SearchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<ListFilter>) => setFilter((f) => ({ ...f, ...patch }));
  const criteria = serviceFilter(filter);
  const appSpecificInvalid = filter.appSpecific.trim() !== '' && !/^\d+$/.test(filter.appSpecific.trim());

  const search = async () => {
    if (!criteria) return;
    setBusy(true);
    try {
      setResult(await store.getState().searchMessages(computer, criteria));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const runSearch = () => {
    search().catch((e: unknown) => setError(errorText(e)));
  };

  const field = (
    key: 'label' | 'bodyText' | 'correlationId' | 'appSpecific' | 'sourceMachine',
    label: string,
    placeholder = '',
  ) => (
    <label className="form-row">
      <span>{label}</span>
      <input
        value={filter[key]}
        placeholder={placeholder}
        aria-invalid={key === 'appSpecific' && appSpecificInvalid}
        onChange={(e) => set({ [key]: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            runSearch();
          }
        }}
      />
    </label>
  );

  return (
    <DialogShell
      title={`Search all queues on ${name}`}
      onClose={() => store.getState().closeDialog()}
      error={error}
      width={720}
    >
      <form
        className="search-form"
        onSubmit={(e) => {
          e.preventDefault();
          runSearch();
        }}
      >
        {field('label', 'Label contains')}
        {field('bodyText', 'Body contains')}
        {field('correlationId', 'Correlation ID', '{GUID}\\N')}
        {field('appSpecific', 'Application-specific', 'a number')}
        {field('sourceMachine', 'Source computer contains')}
        <div className="form-actions">
          <button type="submit" disabled={!criteria || busy || appSpecificInvalid}>
            {busy ? 'Searching…' : 'Search'}
          </button>
        </div>
      </form>
      {result && (
        <div className="search-results" role="region" aria-label="Search results">
          <p role="status">
            {result.total === 0
              ? 'No message matches.'
              : `${formatCount(result.total)} ${result.total === 1 ? 'message' : 'messages'} in ${formatCount(result.queues.length)} ${result.queues.length === 1 ? 'queue' : 'queues'}${result.matches.length < result.total ? ` (the first ${formatCount(result.matches.length)} shown)` : ''}.`}
          </p>
          {result.matches.length > 0 && (
            <table className="ack-table">
              <thead>
                <tr>
                  <th>Where</th>
                  <th>Label</th>
                  <th>Class</th>
                  <th>Arrived</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {result.matches.map((m) => (
                  <tr key={`${m.path}|${m.message.lookupId}`}>
                    <td title={m.path}>{whereText(m.path)}</td>
                    <td>{m.message.label || <span className="muted">(no label)</span>}</td>
                    <td>
                      <span className={`class-${classTone(m.message.classCode)}`}>
                        {classLabel(m.message.classCode)}
                      </span>
                    </td>
                    <td title={m.message.arrivedTime}>{formatTime(m.message.arrivedTime)}</td>
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => {
                          store.getState().closeDialog();
                          attempt(store, 'Go to message', () => store.getState().goToMessage(computer, m));
                        }}
                      >
                        Go to message
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </DialogShell>
  );
}
