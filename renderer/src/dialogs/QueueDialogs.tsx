/** New queue, Queue properties, Move to another queue, Import. */
import { useState } from 'react';
import { queuePath } from '@qk/model';
import { formatTime } from '../format/format.js';
import { inBackground, samePath } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { classifyQueue, queueShortName } from '../tree/tree-model.js';
import { UsageBar } from '../components/UsageBar.js';
import { DialogShell, Field } from './DialogShell.js';
import { errorText } from './error-text.js';

const EMPTY_QUEUES: never[] = [];

function kbOrNull(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

function validKb(text: string): boolean {
  return text.trim() === '' || (/^\d+$/.test(text.trim()) && Number(text) <= 0xffffffff);
}

/** Action › New › Private/Public Queue. */
export function NewQueueDialog({ computer, queueType }: { computer: string; queueType: 'private' | 'public' }) {
  const store = useStoreApi();
  const name = useAppStore((s) => s.computers.find((c) => c.key === computer)?.name ?? '');
  const [queueName, setQueueName] = useState('');
  const [transactional, setTransactional] = useState(false);
  const [journal, setJournal] = useState(false);
  const [label, setLabel] = useState('');
  const [quota, setQuota] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <DialogShell
      title={`New ${queueType === 'private' ? 'Private' : 'Public'} Queue`}
      onClose={() => store.getState().closeDialog()}
      error={error}
      okDisabled={queueName.trim() === '' || !validKb(quota)}
      onOk={async () => {
        try {
          const path = queuePath(queueType, queueName.trim());
          await store.getState().createQueue(computer, {
            path,
            transactional,
            journal,
            ...(label ? { label } : {}),
            ...(quota.trim() ? { quotaKB: kbOrNull(quota) } : {}),
          });
          return true;
        } catch (e) {
          setError(errorText(e));
          return false;
        }
      }}
    >
      <label className="form-row">
        <span>Queue name</span>
        <span className="path-input">
          <span className="muted">
            {name}\{queueType === 'private' ? 'private$\\' : ''}
          </span>
          <input
            aria-label="Queue name"
            value={queueName}
            onChange={(e) => setQueueName(e.target.value)}
            data-autofocus
          />
        </span>
      </label>
      <label className="check-row">
        <input type="checkbox" checked={transactional} onChange={(e) => setTransactional(e.target.checked)} />{' '}
        Transactional
      </label>
      <label className="check-row">
        <input type="checkbox" checked={journal} onChange={(e) => setJournal(e.target.checked)} /> Journal enabled
      </label>
      <label className="form-row">
        <span>Label</span>
        <input value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <label className="form-row">
        <span>Limit message storage to (KB)</span>
        <input value={quota} onChange={(e) => setQuota(e.target.value)} placeholder="unlimited" inputMode="numeric" />
      </label>
    </DialogShell>
  );
}

/** Queue properties: label, type, quota with usage, journal with its quota and usage, retention, times. */
export function QueuePropertiesDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const queue = useAppStore((s) => s.queues[computer]?.find((q) => samePath(q.path, path)));
  const [label, setLabel] = useState(queue?.label ?? '');
  const [quota, setQuota] = useState(
    queue?.quotaKB === null || queue?.quotaKB === undefined ? '' : String(queue.quotaKB),
  );
  const [journal, setJournal] = useState(queue?.journal ?? false);
  const [journalQuota, setJournalQuota] = useState(
    queue?.journalQuotaKB === null || queue?.journalQuotaKB === undefined ? '' : String(queue.journalQuotaKB),
  );
  const [retention, setRetention] = useState(queue?.retention ?? false);
  const [error, setError] = useState<string | null>(null);
  if (!queue) {
    return (
      <DialogShell title="Queue properties" onClose={() => store.getState().closeDialog()}>
        <p>The queue {path} is no longer on this computer.</p>
      </DialogShell>
    );
  }
  const system = classifyQueue(queue).group === 'system';
  const changed =
    label !== queue.label ||
    kbOrNull(quota) !== queue.quotaKB ||
    journal !== queue.journal ||
    kbOrNull(journalQuota) !== queue.journalQuotaKB ||
    retention !== queue.retention;
  const apply = async (): Promise<boolean> => {
    if (!changed) return true;
    try {
      await store.getState().updateQueue(computer, {
        path: queue.path,
        label,
        quotaKB: kbOrNull(quota),
        journal,
        journalQuotaKB: kbOrNull(journalQuota),
        retention,
      });
      setError(null);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };
  return (
    <DialogShell
      title={`${queueShortName(queue.path)} Properties`}
      onClose={() => store.getState().closeDialog()}
      error={error}
      onOk={system ? undefined : apply}
      onApply={system ? undefined : async () => void (await apply())}
      applyDisabled={!changed || !validKb(quota) || !validKb(journalQuota)}
      okDisabled={!validKb(quota) || !validKb(journalQuota)}
      tabs={[
        {
          id: 'general',
          label: 'General',
          render: () => (
            <>
              <Field label="Path">{queue.path}</Field>
              <Field label="Format name">
                <span className="mono">{queue.formatName}</span>
              </Field>
              <Field label="Type">
                {queue.type === 'private'
                  ? 'Private queue'
                  : queue.type === 'public'
                    ? 'Public queue'
                    : queue.type === 'outgoing'
                      ? 'Outgoing queue'
                      : 'System queue'}
              </Field>
              <label className="form-row">
                <span>Label</span>
                <input value={label} disabled={system} onChange={(e) => setLabel(e.target.value)} maxLength={124} />
              </label>
              <label className="check-row">
                <input type="checkbox" checked={queue.transactional} disabled readOnly /> Transactional (set when the
                queue is created; cannot change)
              </label>
              <label className="form-row">
                <span>Limit message storage to (KB)</span>
                <input
                  value={quota}
                  disabled={system}
                  onChange={(e) => setQuota(e.target.value)}
                  placeholder="unlimited"
                  aria-invalid={!validKb(quota)}
                />
              </label>
              <Field label="Messages">
                {queue.messageCount.toLocaleString()} ·{' '}
                <UsageBar usedBytes={queue.bytes} limitKB={queue.quotaKB} label="Queue quota usage" />
              </Field>
              <label className="check-row">
                <input
                  type="checkbox"
                  checked={retention}
                  disabled={system}
                  onChange={(e) => setRetention(e.target.checked)}
                />{' '}
                Retention (keep received messages until the conversation ends)
              </label>
              <Field label="Created">
                <span title={queue.createdTime}>{formatTime(queue.createdTime)}</span>
              </Field>
              <Field label="Modified">
                <span title={queue.modifiedTime}>{formatTime(queue.modifiedTime)}</span>
              </Field>
            </>
          ),
        },
        {
          id: 'journal',
          label: 'Journal',
          render: () => (
            <>
              <label className="check-row">
                <input
                  type="checkbox"
                  checked={journal}
                  disabled={system}
                  onChange={(e) => setJournal(e.target.checked)}
                />{' '}
                Enabled (keep a copy of every message received from this queue)
              </label>
              <label className="form-row">
                <span>Limit journal storage to (KB)</span>
                <input
                  value={journalQuota}
                  disabled={system}
                  onChange={(e) => setJournalQuota(e.target.value)}
                  placeholder="unlimited"
                  aria-invalid={!validKb(journalQuota)}
                />
              </label>
              <Field label="Journal messages">
                {queue.journalMessageCount.toLocaleString()} ·{' '}
                <UsageBar usedBytes={queue.journalBytes} limitKB={queue.journalQuotaKB} label="Journal quota usage" />
              </Field>
            </>
          ),
        },
      ]}
    />
  );
}

/** Move selected messages to another local queue (through its arrival path). */
export function MoveDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const queues = useAppStore((s) => s.queues[computer] ?? EMPTY_QUEUES);
  const count = useAppStore((s) => s.selectedCount());
  const choices = queues.filter(
    (q) =>
      !samePath(q.path, path) && (q.type === 'private' || q.type === 'public' || classifyQueue(q).group === 'system'),
  );
  const [target, setTarget] = useState(choices[0]?.path ?? '');
  return (
    <DialogShell
      title="Move to another queue"
      onClose={() => store.getState().closeDialog()}
      okLabel="Move"
      okDisabled={target === ''}
      onOk={() => {
        const s = store.getState();
        s.closeDialog();
        inBackground(s, 'Move messages', s.moveSelected(target));
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

/** Import messages from an exported JSON file. */
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
