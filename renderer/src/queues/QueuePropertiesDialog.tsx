/** Queue properties: label, type, quota with usage, journal with its quota and usage, retention, times. */
import { useState } from 'react';
import type { QueueInfo } from '@qk/model';
import { DialogShell, Field } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { formatTime } from '../format/format.js';
import { UsageBar } from '../shell/UsageBar.js';
import { samePath } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { classifyQueue, queueShortName } from '../tree/tree-model.js';
import { TrafficCharts } from '../traffic/TrafficCharts.js';
import { kbOrNull, validKb } from './quota-input.js';
import { QuotaField } from './QuotaField.js';

/** The settings this sheet edits, as the service holds them. */
type QueueSettings = Pick<QueueInfo, 'label' | 'quotaKB' | 'journal' | 'journalQuotaKB' | 'retention'>;

function settingsOf(queue: QueueInfo): QueueSettings {
  const { label, quotaKB, journal, journalQuotaKB, retention } = queue;
  return { label, quotaKB, journal, journalQuotaKB, retention };
}

/**
 * The settings edited in the sheet, against those it opened with. Only these are written: another
 * administrator may have changed the others meanwhile (`qk queue set`), and writing back what the sheet
 * loaded would undo that without a word.
 */
function changedSettings(edited: QueueSettings, loaded: QueueSettings): Partial<QueueSettings> {
  const keys = Object.keys(edited) as Array<keyof QueueSettings>;
  return Object.fromEntries(keys.filter((k) => edited[k] !== loaded[k]).map((k) => [k, edited[k]]));
}

/** The queue property sheet (General, Journal). */
export function QueuePropertiesDialog({ computer, path }: { computer: string; path: string }) {
  const store = useStoreApi();
  const queue = useAppStore((s) => s.queues[computer]?.find((q) => samePath(q.path, path)));
  const machineJournalQuotaKB = useAppStore(
    (s) => s.settings[computer]?.find((x) => x.name === 'MachineJournalQuota')?.value ?? null,
  );
  const machineJournalUsedKB = useAppStore(
    (s) => s.computers.find((c) => c.key === computer)?.status?.machineJournalQuotaUsedKB ?? null,
  );
  const [label, setLabel] = useState(queue?.label ?? '');
  const [quota, setQuota] = useState(
    queue?.quotaKB === null || queue?.quotaKB === undefined ? '' : String(queue.quotaKB),
  );
  const [journal, setJournal] = useState(queue?.journal ?? false);
  const [journalQuota, setJournalQuota] = useState(
    queue?.journalQuotaKB === null || queue?.journalQuotaKB === undefined ? '' : String(queue.journalQuotaKB),
  );
  const [retention, setRetention] = useState(queue?.retention ?? false);
  const [loaded, setLoaded] = useState(() => (queue ? settingsOf(queue) : null));
  const [error, setError] = useState<string | null>(null);
  if (!queue) {
    return (
      <DialogShell title="Queue properties" onClose={() => store.getState().closeDialog()}>
        <p>The queue {path} is no longer on this computer.</p>
      </DialogShell>
    );
  }
  const system = classifyQueue(queue).group === 'system';
  const edited = { label, quotaKB: kbOrNull(quota), journal, journalQuotaKB: kbOrNull(journalQuota), retention };
  const baseline = loaded ?? settingsOf(queue);
  const changes = changedSettings(edited, baseline);
  const changed = Object.keys(changes).length > 0;
  const apply = async (): Promise<boolean> => {
    if (!changed) return true;
    try {
      await store.getState().updateQueue(computer, { path: queue.path, ...changes });
      // What Apply wrote is the sheet's new starting point: OK after it writes only what changed since.
      setLoaded({ ...baseline, ...changes });
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
              {system ? (
                <Field label="Storage limit">
                  MachineJournalQuota, shared by the computer journal and the dead-letter queues
                </Field>
              ) : (
                <QuotaField label="Limit message storage to (KB)" value={quota} onChange={setQuota} />
              )}
              <Field label="Messages">
                {queue.messageCount.toLocaleString()} ·{' '}
                {system ? (
                  <UsageBar
                    usedBytes={queue.bytes}
                    limitKB={machineJournalQuotaKB}
                    label="Share of MachineJournalQuota"
                    note="MachineJournalQuota"
                  />
                ) : (
                  <UsageBar usedBytes={queue.bytes} limitKB={queue.quotaKB} label="Queue quota usage" />
                )}
              </Field>
              {system && machineJournalUsedKB !== null && (
                <Field label="All system queues">
                  <UsageBar
                    usedBytes={machineJournalUsedKB * 1024}
                    limitKB={machineJournalQuotaKB}
                    label="MachineJournalQuota usage"
                    note="MachineJournalQuota"
                  />
                </Field>
              )}
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
              <QuotaField
                label="Limit journal storage to (KB)"
                value={journalQuota}
                onChange={setJournalQuota}
                disabled={system}
              />
              <Field label="Journal messages">
                {queue.journalMessageCount.toLocaleString()} ·{' '}
                <UsageBar usedBytes={queue.journalBytes} limitKB={queue.journalQuotaKB} label="Journal quota usage" />
              </Field>
            </>
          ),
        },
        {
          id: 'traffic',
          label: 'Traffic',
          render: () => <TrafficCharts computer={computer} path={queue.path} caption={queueShortName(queue.path)} />,
        },
      ]}
    />
  );
}
