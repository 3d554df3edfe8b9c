/** Send test message: every send property of CLI.md (`qk send`), with MSMQ's defaults. */
import { useEffect, useState } from 'react';
import { acknowledgmentLevels, journalLevels, Limits, type MessageInfo, type SendProperties } from '@qk/model';
import { textToBase64 } from '../format/body-view.js';
import { acknowledgmentText } from '../format/message-props.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { queueShortName } from '../tree/tree-model.js';
import { DialogShell } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';

type Form = {
  body: string;
  bodyFileBase64: string | null;
  label: string;
  priority: string;
  recoverable: boolean;
  transactional: boolean;
  journal: keyof typeof journalLevels;
  /** PROPID_M_ACKNOWLEDGE, 0–15: the named levels and every combination of their bits (§2.2). */
  ack: number;
  adminQueue: string;
  responseQueue: string;
  ttrq: string;
  ttbr: string;
  correlationId: string;
  appSpecific: string;
  conversation: string;
  from: string;
  /** PROPID_M_DEADLETTER_QUEUE (R-D9): a transactional message's own dead-letter queue. */
  deadLetterQueue: string;
};

const initial: Form = {
  body: '',
  bodyFileBase64: null,
  label: 'Test message',
  priority: String(Limits.DEFAULT_PRIORITY),
  recoverable: false,
  transactional: false,
  journal: 'none',
  ack: acknowledgmentLevels.none,
  adminQueue: '',
  responseQueue: '',
  ttrq: '',
  ttbr: '',
  correlationId: '',
  appSpecific: '0',
  conversation: '',
  from: '',
  deadLetterQueue: '',
};

const isUint = (text: string) => text.trim() === '' || (/^\d+$/.test(text.trim()) && Number(text) <= 0xffffffff);

/** The send properties for a filled form (empty fields are left to the service's defaults). */
export function sendPropertiesOf(form: Form): SendProperties {
  const message: SendProperties = {
    label: form.label,
    priority: Number(form.priority),
    delivery: form.recoverable ? 'recoverable' : 'express',
    journal: journalLevels[form.journal],
    acknowledge: form.ack,
  };
  if (form.bodyFileBase64 !== null) message.bodyBase64 = form.bodyFileBase64;
  else message.bodyBase64 = textToBase64(form.body);
  if (form.adminQueue.trim()) message.adminQueue = form.adminQueue.trim();
  if (form.responseQueue.trim()) message.responseQueue = form.responseQueue.trim();
  if (form.ttrq.trim()) message.timeToReachQueue = Number(form.ttrq);
  if (form.ttbr.trim()) message.timeToBeReceived = Number(form.ttbr);
  if (form.correlationId.trim()) message.correlationId = form.correlationId.trim();
  if (form.appSpecific.trim()) message.appSpecific = Number(form.appSpecific);
  if (form.conversation.trim()) message.conversation = form.conversation.trim();
  if (form.from.trim()) message.from = form.from.trim();
  if (form.deadLetterQueue.trim()) message.deadLetterQueue = form.deadLetterQueue.trim();
  return message;
}

/** The form filled from an existing message: every property a sender can set, and its body. */
export function formOf(m: MessageInfo): Form {
  // Every level a message can carry, named or not (0x0F asks for both positive acknowledgments).
  const ack = m.acknowledge;
  const journal = (Object.entries(journalLevels).find(([, v]) => v === m.journal)?.[0] ?? 'none') as Form['journal'];
  return {
    body: m.body ?? '',
    bodyFileBase64: m.body === null ? m.bodyBase64 : null,
    label: m.label,
    priority: String(m.priority),
    recoverable: m.delivery === 'recoverable',
    transactional: m.transactional,
    journal,
    ack,
    adminQueue: m.adminQueue ?? '',
    responseQueue: m.responseQueue ?? '',
    ttrq: m.timeToReachQueue >= 0xffffffff ? '' : String(m.timeToReachQueue),
    ttbr: m.timeToBeReceived === null || m.timeToBeReceived >= 0xffffffff ? '' : String(m.timeToBeReceived),
    correlationId: m.correlationId ?? '',
    appSpecific: String(m.appSpecific),
    conversation: m.conversation ?? '',
    from: '',
    deadLetterQueue: m.deadLetterQueue ?? '',
  };
}

/** Every PROPID_M_ACKNOWLEDGE value `qk send --ack` takes (0–15). */
const ACK_LEVELS = Array.from({ length: 16 }, (_, level) => level);

/** An option's value: the level's `qk send --ack` name where it has one (full-receive), else its number. */
function ackOptionValue(level: number): string {
  return Object.entries(acknowledgmentLevels).find(([, value]) => value === level)?.[0] ?? String(level);
}

function ackFromOptionValue(text: string): number {
  return (acknowledgmentLevels as Record<string, number>)[text] ?? Number(text);
}

/** Why Edit and resend kept the original: the new message is not where it was sent. */
function refusedText(id: string, destination: string): string {
  return `${destination} refused the new message ${id}, so the original was kept. Its negative acknowledgment or dead letter, if it asked for one, says why (a quota, the transactional type…).`;
}

/** Where the dialog starts from: a blank test message, or an existing message to resend or copy. */
export type SendSource = { path: string; lookupId: number; mode: 'resend' | 'copy' } | undefined;

/** The dialog. */
export function SendTestDialog({ computer, path, from }: { computer: string; path: string; from?: SendSource }) {
  const store = useStoreApi();
  const queues = useAppStore((s) => s.queues[computer]);
  const queuePaths = (queues ?? []).map((q) => q.path);
  const targets = (queues ?? []).filter((q) => q.type === 'private' || q.type === 'public').map((q) => q.path);
  const [form, setForm] = useState<Form>(initial);
  const [destination, setDestination] = useState(path);
  const [original, setOriginal] = useState<MessageInfo | null>(null);
  const [deleteOriginal, setDeleteOriginal] = useState(from?.mode === 'resend');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const valid = isUint(form.ttrq) && isUint(form.ttbr) && isUint(form.appSpecific) && (!from || original !== null);

  useEffect(() => {
    if (!from) return;
    store
      .getState()
      .fetchMessage(computer, from.path, from.lookupId)
      .then(
        (m) => {
          setOriginal(m);
          setForm(formOf(m));
          // A dead letter or a journal copy goes back to where it was going; others stay where they are.
          const home = targets.find((t) => t.toLowerCase() === m.destinationQueue.toLowerCase());
          if (!targets.some((t) => t.toLowerCase() === from.path.toLowerCase()) && home) setDestination(home);
        },
        (e: unknown) => setError(errorText(e)),
      );
    // Loaded once for the message the dialog was opened on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const send = async (): Promise<boolean> => {
    try {
      const id = await store
        .getState()
        .sendTestMessage(computer, destination, sendPropertiesOf(form), form.transactional);
      setSent(id);
      if (from && original && deleteOriginal) {
        // Edit and resend: the original goes only once the new message is seen where it was sent, since a
        // refused arrival is no send error and would leave neither message.
        if (!(await store.getState().arrivedWhereSent(computer, id, destination))) {
          setError(refusedText(id, destination));
          return false;
        }
        await store.getState().deleteMessages(computer, from.path, [original.lookupId]);
      }
      setError(null);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };

  const title = !from
    ? `Send test message to ${queueShortName(path)}`
    : from.mode === 'resend'
      ? `Edit and resend ${original?.label || 'message'}`
      : `Send a copy of ${original?.label || 'message'}`;

  const text = (key: keyof Form, label: string, extra: { placeholder?: string; list?: string } = {}) => (
    <label className="form-row">
      <span>{label}</span>
      <input
        value={String(form[key] ?? '')}
        onChange={(e) => set(key, e.target.value as never)}
        {...extra}
        aria-invalid={(key === 'ttrq' || key === 'ttbr' || key === 'appSpecific') && !isUint(String(form[key]))}
      />
    </label>
  );

  return (
    <DialogShell
      title={title}
      onClose={() => store.getState().closeDialog()}
      okLabel="Send"
      okDisabled={!valid}
      onOk={send}
      onApply={async () => {
        await send();
      }}
      error={error}
      width={600}
      tabs={[
        {
          id: 'message',
          label: 'Message',
          render: () => (
            <>
              {from && (
                <>
                  <label className="form-row">
                    <span>Send to</span>
                    <select value={destination} onChange={(e) => setDestination(e.target.value)} aria-label="Send to">
                      {[destination, ...targets.filter((t) => t !== destination)].map((t) => (
                        <option key={t} value={t}>
                          {t}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="check-row">
                    <input
                      type="checkbox"
                      checked={deleteOriginal}
                      onChange={(e) => setDeleteOriginal(e.target.checked)}
                    />
                    Delete the original once this one is sent (edit and resend)
                  </label>
                </>
              )}
              {text('label', 'Label')}
              <label className="form-row">
                <span>Body</span>
                <textarea
                  rows={5}
                  value={form.body}
                  disabled={form.bodyFileBase64 !== null}
                  onChange={(e) => set('body', e.target.value)}
                  aria-label="Body"
                />
              </label>
              <label className="form-row">
                <span>…or body from file</span>
                <input
                  type="file"
                  aria-label="Body file"
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    if (!file) return set('bodyFileBase64', null);
                    file.arrayBuffer().then(
                      (buffer) => {
                        let binary = '';
                        for (const b of new Uint8Array(buffer)) binary += String.fromCharCode(b);
                        set('bodyFileBase64', btoa(binary));
                      },
                      (err: unknown) => setError(errorText(err)),
                    );
                  }}
                />
              </label>
              <label className="form-row">
                <span>Priority</span>
                <select value={form.priority} onChange={(e) => set('priority', e.target.value)} aria-label="Priority">
                  {Array.from({ length: 8 }, (_, p) => (
                    <option key={p} value={p}>
                      {p}
                      {p === Limits.DEFAULT_PRIORITY ? ' (normal)' : ''}
                    </option>
                  ))}
                </select>
              </label>
              <label className="check-row">
                <input
                  type="checkbox"
                  checked={form.recoverable}
                  onChange={(e) => set('recoverable', e.target.checked)}
                />{' '}
                Recoverable (stored on disk; express is MSMQ's default)
              </label>
              <label className="check-row">
                <input
                  type="checkbox"
                  checked={form.transactional}
                  onChange={(e) => set('transactional', e.target.checked)}
                />{' '}
                Transactional (a single-message transaction)
              </label>
              {sent && (
                <p className="hint" role="status">
                  Sent message <span className="mono">{sent}</span>.
                </p>
              )}
            </>
          ),
        },
        {
          id: 'delivery',
          label: 'Acknowledgment and timers',
          render: () => (
            <>
              <label className="form-row">
                <span>Acknowledgment</span>
                <select
                  value={ackOptionValue(form.ack)}
                  onChange={(e) => set('ack', ackFromOptionValue(e.target.value))}
                  aria-label="Acknowledgment"
                >
                  {ACK_LEVELS.map((value) => (
                    <option key={value} value={ackOptionValue(value)}>
                      {acknowledgmentText(value)}
                    </option>
                  ))}
                </select>
              </label>
              {text('adminQueue', 'Administration queue', {
                placeholder: '.\\private$\\admin',
                list: 'qk-queue-paths',
              })}
              {text('responseQueue', 'Response queue', { list: 'qk-queue-paths' })}
              <label className="form-row">
                <span>Journal</span>
                <select
                  value={form.journal}
                  onChange={(e) => set('journal', e.target.value as Form['journal'])}
                  aria-label="Journal"
                >
                  <option value="none">None</option>
                  <option value="deadletter">Dead letter (use the dead-letter queue on failure)</option>
                  <option value="journal">Journal (keep a copy in the computer journal)</option>
                  <option value="both">Both</option>
                </select>
              </label>
              {text('ttrq', 'Time to reach queue (s)', { placeholder: 'LongLiveTime (default)' })}
              {text('ttbr', 'Time to be received (s)', { placeholder: 'unlimited' })}
              <datalist id="qk-queue-paths">
                {queuePaths.map((p) => (
                  <option key={p} value={p} />
                ))}
              </datalist>
            </>
          ),
        },
        {
          id: 'advanced',
          label: 'Advanced',
          render: () => (
            <>
              {text('correlationId', 'Correlation ID', { placeholder: '{GUID}\\N' })}
              {text('appSpecific', 'Application-specific')}
              {text('conversation', 'Conversation')}
              {text('from', 'From (sending queue)', { list: 'qk-queue-paths' })}
              {text('deadLetterQueue', 'Dead-letter queue', {
                placeholder: 'transactional dead-letter queue (default)',
                list: 'qk-queue-paths',
              })}
              <p className="hint">
                A transactional queue of this computer that takes this message&apos;s dead letter instead of the
                transactional dead-letter queue; needs the Dead letter journal flag (R-D9).
              </p>
            </>
          ),
        },
      ]}
    />
  );
}
