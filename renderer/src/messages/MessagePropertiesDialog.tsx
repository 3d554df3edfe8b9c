/** Message properties: General, Queues, Sender, Body, Acknowledgments — MSMQ's sheet plus the ack links. */
import { useMemo, useState } from 'react';
import type { MessageInfo } from '@qk/model';
import { base64ToBytes, bodyKind, hexDump, prettyBody } from '../format/body-view.js';
import { formatBytes, formatTime } from '../format/format.js';
import {
  acknowledgmentText,
  beReceivedText,
  deliveryName,
  journalText,
  reachQueueText,
  type TimerPlace,
} from '../format/message-props.js';
import { classLabel, classMeaning, classTone } from '../format/message-class.js';
import { useNow } from '../shell/use-now.js';
import { samePath, type MessageLocation } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { isAcknowledgmentMessage, listNodeFor } from './details-slice.js';
import { nodeCaption, parseNodeId } from '../tree/tree-model.js';
import { attempt } from '../commands/action-item.js';
import { isDeadLetterPath } from '../commands/node-actions.js';
import { DialogShell, Field } from '../dialogs/DialogShell.js';

/** "Dead-letter messages" / "orders › Queue messages" for a path. */
function whereText(path: string): string {
  return nodeCaption(parseNodeId(listNodeFor('x', path)), '');
}

function ClassText({ code }: { code: number }) {
  return (
    <span className={`class-${classTone(code)}`} title={classMeaning(code)}>
      {classLabel(code)}
    </span>
  );
}

function General({
  m,
  deadLetter,
  place,
  readAt,
}: {
  m: MessageInfo;
  deadLetter: boolean;
  place: TimerPlace;
  readAt: number;
}) {
  // The timers count down while the sheet is open.
  const now = useNow();
  return (
    <>
      <Field label="Label">{m.label || <span className="muted">(no label)</span>}</Field>
      <Field label="ID">
        <span className="mono selectable">{m.id}</span>
      </Field>
      <Field label="Lookup ID">{m.lookupId}</Field>
      <Field label="Priority">{m.priority}</Field>
      <Field label="Class">
        <ClassText code={m.classCode} />
      </Field>
      <Field label="">
        <span className="class-meaning">{classMeaning(m.classCode)}</span>
      </Field>
      {deadLetter && (
        <Field label="Dead letter">
          This message was moved to the dead-letter queue for the reason its class gives; Resend to destination sends it
          on again.
        </Field>
      )}
      <Field label="Sent">
        <span title={m.sentTime}>{formatTime(m.sentTime)}</span>
      </Field>
      <Field label="Arrived">
        <span title={m.arrivedTime}>{formatTime(m.arrivedTime)}</span>
      </Field>
      <Field label="Delivery">
        {deliveryName(m.delivery)}
        {m.delivery === 'express' ? (
          <span className="muted"> (in memory; lost if Message Queuing restarts)</span>
        ) : null}
      </Field>
      <Field label="Time to reach queue">{reachQueueText(m, place, now)}</Field>
      <Field label="Time to be received">{beReceivedText(m, now, place, readAt)}</Field>
      <Field label="Acknowledgment requested">{acknowledgmentText(m.acknowledge)}</Field>
      <Field label="Journal / dead letter">{journalText(m.journal)}</Field>
      <Field label="Application-specific">{m.appSpecific}</Field>
      <Field label="Moves (queue ⇄ subqueues)" title="PROPID_M_MOVE_COUNT (R-S7)">
        {m.moveCount.toLocaleString()}
        {m.lastMoveTime ? <span className="muted"> — last {formatTime(m.lastMoveTime)}</span> : null}
      </Field>
      <Field
        label="Aborted receives"
        title="PROPID_M_ABORT_COUNT: receiving transactions that aborted in this queue (R-S7)"
      >
        {m.abortCount.toLocaleString()}
      </Field>
      {m.deadLetterQueue && <Field label="Dead-letter queue">{m.deadLetterQueue}</Field>}
      {m.conversation && <Field label="Conversation">{m.conversation}</Field>}
    </>
  );
}

function Queues({ m }: { m: MessageInfo }) {
  const none = <span className="muted">None</span>;
  return (
    <>
      <Field label="Destination queue">{m.destinationQueue}</Field>
      <Field label="Response queue">{m.responseQueue ?? none}</Field>
      <Field label="Administration queue">{m.adminQueue ?? none}</Field>
      <Field label="Transaction">
        {m.transactional ? 'Sent in a transaction (transactional message)' : 'Not transactional'}
      </Field>
      <Field label="Correlation ID">{m.correlationId ? <span className="mono">{m.correlationId}</span> : none}</Field>
    </>
  );
}

function Sender({ m }: { m: MessageInfo }) {
  return (
    <>
      <Field label="Source computer">{m.sourceMachine}</Field>
      <Field label="Source computer GUID">
        <span className="mono">{m.sourceMachineId}</span>
      </Field>
    </>
  );
}

function Body({ m }: { m: MessageInfo }) {
  const kind = bodyKind(m.body);
  const [view, setView] = useState<'text' | 'pretty' | 'hex'>(
    kind === 'json' || kind === 'xml' ? 'pretty' : kind === 'binary' ? 'hex' : 'text',
  );
  const content = useMemo(() => {
    if (view === 'hex' || m.body === null) return hexDump(base64ToBytes(m.bodyBase64));
    if (view === 'pretty') return prettyBody(m.body, kind);
    return m.body;
  }, [view, m, kind]);
  return (
    <>
      <Field label="Size">
        {formatBytes(m.bodySize)} ({m.bodySize.toLocaleString()} bytes)
      </Field>
      <div className="segmented" role="radiogroup" aria-label="Body view">
        {(['text', 'pretty', 'hex'] as const).map((v) => (
          <label key={v}>
            <input
              type="radio"
              name="body-view"
              checked={view === v}
              disabled={v !== 'hex' && m.body === null}
              onChange={() => setView(v)}
            />
            {v === 'text' ? 'Text' : v === 'pretty' ? (kind === 'xml' ? 'XML' : 'JSON') : 'Hex'}
          </label>
        ))}
      </div>
      <pre className="body-view" aria-label="Message body" tabIndex={0}>
        {content}
      </pre>
    </>
  );
}

function LocationList({
  computer,
  locations,
  empty,
}: {
  computer: string;
  locations: MessageLocation[];
  empty: string;
}) {
  const store = useStoreApi();
  if (locations.length === 0) return <p className="muted">{empty}</p>;
  return (
    <table className="ack-table">
      <thead>
        <tr>
          <th>Class</th>
          <th>Arrived</th>
          <th>Where</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {locations.map((l) => (
          <tr key={`${l.path}|${l.message.lookupId}`}>
            <td>
              <ClassText code={l.message.classCode} />
            </td>
            <td title={l.message.arrivedTime}>{formatTime(l.message.arrivedTime)}</td>
            <td title={l.path}>{whereText(l.path)}</td>
            <td>
              <button
                type="button"
                className="link-button"
                onClick={() => attempt(store, 'Go to message', () => store.getState().goToMessage(computer, l))}
              >
                Go to message
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Acknowledgments({ m }: { m: MessageInfo }) {
  const details = useAppStore((s) => s.details);
  if (!details) return null;
  if (isAcknowledgmentMessage(m, details.path)) {
    return (
      <>
        <p>
          This is an acknowledgment of the message <span className="mono">{m.correlationId ?? '(none)'}</span>.
        </p>
        {details.originals === null ? (
          <p className="muted">Looking for the original…</p>
        ) : (
          <LocationList
            computer={details.computer}
            locations={details.originals}
            empty="The original message is no longer on this computer."
          />
        )}
      </>
    );
  }
  return (
    <>
      <p>Acknowledgments on this computer that name this message as their correlation ID:</p>
      {details.acknowledgments === null ? (
        <p className="muted">Looking for acknowledgments…</p>
      ) : (
        <LocationList
          computer={details.computer}
          locations={details.acknowledgments}
          empty="No acknowledgment names this message."
        />
      )}
    </>
  );
}

/** The dialog (data comes from the details slice). */
export function MessagePropertiesDialog() {
  const store = useStoreApi();
  const details = useAppStore((s) => s.details);
  const m = details?.message ?? null;
  // Time to reach queue runs only on the way (in an outgoing queue); in any other queue it was met on arrival.
  const place: TimerPlace = useAppStore((s) => {
    if (!details) return 'destination';
    if (isDeadLetterPath(details.path)) return 'deadLetter';
    if (/\\JOURNAL\$$/i.test(details.path)) return 'journal';
    return s.queues[details.computer]?.find((q) => samePath(q.path, details.path))?.type === 'outgoing'
      ? 'outgoing'
      : 'destination';
  });
  const close = () => store.getState().closeDialog();
  if (!m) {
    return (
      <DialogShell title="Message properties" onClose={close}>
        {details?.error ? (
          <p className="dialog-error" role="alert">
            {details.error}
          </p>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </DialogShell>
    );
  }
  return (
    <DialogShell
      key={`${details?.path}|${m.lookupId}`}
      title={`${m.label || 'Message'} Properties${details?.gone ? ' (no longer in the queue)' : ''}`}
      banner={
        details?.gone ? (
          <div className="dialog-banner" role="status">
            This message is no longer in {whereText(details.path)}. {details.gone} What you see is how it was.
          </div>
        ) : null
      }
      onClose={close}
      width={640}
      initialTab={isAcknowledgmentMessage(m, details?.path ?? '') ? 'acks' : 'general'}
      tabs={[
        {
          id: 'general',
          label: 'General',
          render: () => (
            <General
              m={m}
              deadLetter={(m.classCode & 0x8000) !== 0 && !isAcknowledgmentMessage(m, details?.path ?? '')}
              place={place}
              readAt={details?.readAt ?? Date.now()}
            />
          ),
        },
        { id: 'queues', label: 'Queues', render: () => <Queues m={m} /> },
        { id: 'sender', label: 'Sender', render: () => <Sender m={m} /> },
        { id: 'body', label: 'Body', render: () => <Body m={m} /> },
        { id: 'acks', label: 'Acknowledgments', render: () => <Acknowledgments m={m} /> },
      ]}
    />
  );
}
