/**
 * Message Queuing (computer) properties: the registry-like settings grouped as an administrator thinks
 * of them, each with its default, unit and range; pending (restart) values are marked and a Restart
 * Message Queuing button applies them.
 */
import { useState } from 'react';
import type { SettingInfo } from '@qk/model';
import { formatCount, formatDuration } from '../format/format.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { UsageBar } from '../shell/UsageBar.js';
import { attempt } from '../commands/action-item.js';
import { confirmRestart } from '../commands/confirmations.js';
import { DialogShell, Field, FieldError } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { NetworkTab } from '../network/NetworkTab.js';

/** Plain sentences for settings whose registry description is terse. */
const explanations: Record<string, string> = {
  XactDeadLetterAlways:
    'When 1, every transactional message that is not delivered or not received in time goes to the transactional dead-letter queue, even if the sender did not ask for dead-lettering (MSMQ 1.0 behaviour); when 0, only messages sent with the dead-letter flag do.',
  RemoveDuplicateSize:
    'How many recently arrived nontransactional message IDs are remembered to drop duplicates; 0 turns duplicate removal off.',
  RemoveDuplicateCleanup: 'How long a message ID stays in the duplicate-removal cache.',
  LongLiveTime: 'The time-to-reach-queue given to messages sent without one.',
  MachineQuota: 'The most message data this computer stores in all its queues together.',
  MachineJournalQuota: 'The most data the computer journal and the dead-letter queues may hold together.',
  MaxMessageSize: 'The largest message this computer accepts.',
  MessageCleanupInterval: 'How often the message store gives back the disk space of removed messages.',
  CleanupInterval: 'How long an empty outgoing queue stays before it is removed.',
  XactDelayReceiveNack:
    "Extra wait, after a sent transactional message's time-to-be-received runs out, for a late receive acknowledgment before it is dead-lettered. Empty: not set (MSMQ then uses the smaller of the message's own timers).",
  SeqResend13Time: 'Wait before each of the 1st to 3rd resends of an unconfirmed transactional message.',
  SeqResend46Time: 'Wait before each of the 4th to 6th resends.',
  SeqResend79Time: 'Wait before each of the 7th to 9th resends.',
  SeqResend10Time: 'Wait before the 10th and every later resend.',
};

/** Settings that may be absent: an empty box means "not set". */
const mayBeAbsent = (s: SettingInfo) => s.default === null;

/** What the setting will be after the next restart (or now, when nothing waits); null = not set. */
function upcoming(s: SettingInfo): number | null {
  const waiting = s.pendingRestart ?? s.pending !== null;
  return waiting ? s.pending : s.value;
}

/** The typed text as a value: null for an empty box of a setting that may be absent. */
function parsed(s: SettingInfo, text: string): number | null {
  return text.trim() === '' && mayBeAbsent(s) ? null : Number(text.trim());
}

function unitText(setting: SettingInfo, value: number | null): string {
  if (value === null) return 'not set';
  if (setting.unit === 's') return formatDuration(value);
  if (setting.unit === 'ms') return formatDuration(Math.round(value / 1000));
  if (setting.unit === 'KB') return `${formatCount(value)} KB`;
  if (setting.unit === 'bytes') return `${formatCount(value)} bytes`;
  return `${formatCount(value)} ${setting.unit === '0/1' ? '' : setting.unit}`.trim();
}

/** The dialog. */
export function ComputerPropertiesDialog({ computer }: { computer: string }) {
  const store = useStoreApi();
  const settings = useAppStore((s) => s.settings[computer]) ?? [];
  const entry = useAppStore((s) => s.computers.find((c) => c.key === computer));
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const status = entry?.status ?? null;
  const byName = (name: string) => settings.find((s) => s.name === name);
  const invalid = (s: SettingInfo) => {
    const text = edits[s.name];
    if (text === undefined) return false;
    if (text.trim() === '' && mayBeAbsent(s)) return false;
    const n = Number(text);
    return text.trim() === '' || !/^\d+$/.test(text.trim()) || !Number.isFinite(n) || n < s.min || n > s.max;
  };
  const changed = Object.entries(edits).filter(([name, text]) => {
    const s = byName(name);
    return s && parsed(s, text) !== upcoming(s);
  });
  const anyInvalid = settings.some(invalid);

  const apply = async (): Promise<boolean> => {
    try {
      for (const [name, text] of changed) {
        const s = byName(name);
        if (s) await store.getState().changeSetting(computer, name, parsed(s, text));
      }
      setEdits({});
      setError(null);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };

  const row = (name: string) => {
    const s = byName(name);
    if (!s) return null;
    const next = upcoming(s);
    const shown = edits[name] ?? (next === null ? '' : String(next));
    const waiting = s.pendingRestart ?? s.pending !== null;
    const errorId = `setting-error-${name}`;
    // A 0/1 setting is a yes/no choice (XactDeadLetterAlways): a checkbox, never a text box holding "0".
    const boolean = s.unit === '0/1' || (s.min === 0 && s.max === 1);
    return (
      <div className="setting" key={name} data-setting={name}>
        {boolean ? (
          <label className="check-row">
            <input
              type="checkbox"
              aria-label={name}
              checked={shown === '1'}
              onChange={(e) => setEdits({ ...edits, [name]: e.target.checked ? '1' : '0' })}
            />
            <strong>{name}</strong>
            {waiting && (
              <span className="pending-badge" title={`In effect now: ${s.value === 1 ? 'on' : 'off'}`}>
                Restart required (now {s.value === 1 ? 'on' : 'off'})
              </span>
            )}
          </label>
        ) : (
          <label className="form-row">
            <span>
              <strong>{name}</strong>
            </span>
            <span className="setting-input">
              <input
                value={shown}
                aria-label={name}
                aria-invalid={invalid(s)}
                aria-describedby={invalid(s) ? errorId : undefined}
                inputMode="numeric"
                placeholder={mayBeAbsent(s) ? 'not set' : undefined}
                onChange={(e) => setEdits({ ...edits, [name]: e.target.value })}
              />
              <span className="muted">{s.unit}</span>
              {waiting && (
                <span className="pending-badge" title={`In effect now: ${s.value ?? 'not set'}`}>
                  Restart required (now {s.value === null ? 'not set' : formatCount(s.value)})
                </span>
              )}
            </span>
          </label>
        )}
        {invalid(s) && (
          <FieldError id={errorId}>
            Enter a whole number from {formatCount(s.min)} to {formatCount(s.max)}
            {s.unit && s.unit !== '0/1' ? ` ${s.unit}` : ''}
            {mayBeAbsent(s) ? ', or leave it empty for not set' : ''}.
          </FieldError>
        )}
        <div className="setting-help">
          {explanations[name] ?? s.description}{' '}
          {boolean
            ? `Default ${s.default === 1 ? 'on' : 'off'}`
            : `Default ${unitText(s, s.default)}; range ${formatCount(s.min)}–${formatCount(s.max)} ${s.unit}`}
          {s.restartRequired ? '; takes effect after Message Queuing restarts.' : '; takes effect at once.'}
        </div>
      </div>
    );
  };

  const restart = async () => {
    // Unsaved edits are applied first; then the same confirmation as everywhere else, over this sheet.
    if (changed.length > 0 && !(await apply())) return;
    confirmRestart(store, computer);
  };

  const pending = status?.settingsPendingRestart ?? settings.filter((s) => s.pending !== null).map((s) => s.name);
  const machineQuota = byName('MachineQuota');
  const journalQuota = byName('MachineJournalQuota');
  return (
    <DialogShell
      title={`Message Queuing Properties — ${entry?.name ?? ''}`}
      onClose={() => store.getState().closeDialog()}
      onOk={apply}
      onApply={async () => void (await apply())}
      applyDisabled={changed.length === 0 || anyInvalid}
      okDisabled={anyInvalid}
      error={error}
      width={640}
      tabs={[
        {
          id: 'storage',
          label: 'Storage',
          render: () => (
            <>
              {row('MachineQuota')}
              {status && machineQuota && (
                <Field label="Used">
                  <UsageBar
                    usedBytes={status.machineQuotaUsedKB * 1024}
                    limitKB={machineQuota.value}
                    label="MachineQuota usage"
                  />
                </Field>
              )}
              {row('MachineJournalQuota')}
              {status && journalQuota && (
                <Field label="Used">
                  <UsageBar
                    usedBytes={status.machineJournalQuotaUsedKB * 1024}
                    limitKB={journalQuota.value}
                    label="MachineJournalQuota usage"
                  />
                </Field>
              )}
              {row('MaxMessageSize')}
            </>
          ),
        },
        {
          id: 'duplicates',
          label: 'Duplicate removal',
          render: () => (
            <>
              {row('RemoveDuplicateSize')}
              {row('RemoveDuplicateCleanup')}
              {status && (
                <>
                  <Field label="Cache entries">
                    {formatCount(status.duplicateCache.entries)} of {formatCount(status.duplicateCache.capacity)}
                  </Field>
                  <Field label="Duplicates removed">{formatCount(status.duplicateCache.duplicatesRemoved)}</Field>
                </>
              )}
            </>
          ),
        },
        {
          id: 'transactions',
          label: 'Transactions',
          render: () => (
            <>
              {row('XactDeadLetterAlways')}
              {row('XactDelayReceiveNack')}
            </>
          ),
        },
        {
          id: 'timers',
          label: 'Timers',
          render: () => (
            <>
              {row('LongLiveTime')}
              {row('CleanupInterval')}
              {row('MessageCleanupInterval')}
            </>
          ),
        },
        {
          // How often an unconfirmed transactional message to another computer is sent again.
          id: 'resends',
          label: 'Resends',
          render: () => (
            <>
              {row('SeqResend13Time')}
              {row('SeqResend46Time')}
              {row('SeqResend79Time')}
              {row('SeqResend10Time')}
            </>
          ),
        },
        { id: 'network', label: 'Network', render: () => <NetworkTab computer={computer} /> },
        {
          id: 'service',
          label: 'Service',
          render: () => (
            <>
              {status && (
                <>
                  <Field label="Computer">{status.name}</Field>
                  <Field label="Computer GUID">
                    <span className="mono">{status.id}</span>
                  </Field>
                  <Field label="Version">{status.version}</Field>
                  <Field label="Running for">{formatDuration(Math.round(status.uptimeSeconds))}</Field>
                </>
              )}
              <Field label="Waiting for restart">{pending.length > 0 ? pending.join(', ') : 'Nothing'}</Field>
              <button type="button" onClick={() => attempt(store, 'Restart Message Queuing', restart)}>
                Restart Message Queuing…
              </button>
              <p className="hint">
                Restarting applies pending settings; express messages are lost and the duplicate cache starts empty, as
                when the MSMQ service restarts.
              </p>
            </>
          ),
        },
      ]}
    />
  );
}
