/** Action › New › Private/Public Queue. */
import { useState } from 'react';
import { queuePath } from '@qk/model';
import { DialogShell } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { kbOrNull, validKb } from './quota-input.js';
import { QuotaField } from './QuotaField.js';

/** The New Queue dialog. */
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
      <QuotaField label="Limit message storage to (KB)" value={quota} onChange={setQuota} />
    </DialogShell>
  );
}
