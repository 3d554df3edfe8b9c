/** Human output of messages: class by name and hex code everywhere (`NACK_RECEIVE_TIMEOUT 0xC002`). */
import { formatClassCode, messageClassName, type MessageInfo } from '@qk/model';
import { formatCount, orDash, renderFields, renderTable, type Column } from './table.js';

/** `NACK_RECEIVE_TIMEOUT 0xC002`. */
export function formatClass(code: number): string {
  const name = messageClassName(code);
  const hex = formatClassCode(code);
  return name === hex ? hex : `${name} ${hex}`;
}

const statusText: Record<number, string> = { 0: 'retained (received)', 1: 'ready', 3: 'retained (sent copy)' };

function bodyText(m: MessageInfo): string {
  if (m.body !== null) return m.body;
  return m.bodySize === 0
    ? ''
    : `(binary, ${formatCount(m.bodySize)} bytes; base64 ${m.bodyBase64.length > 60 ? `${m.bodyBase64.slice(0, 60)}…` : m.bodyBase64})`;
}

/** One message as a property sheet, its body last. */
export function formatMessage(m: MessageInfo): string {
  return renderFields([
    ['Lookup ID', String(m.lookupId)],
    ['ID', m.id],
    ['Class', formatClass(m.classCode)],
    ['Label', orDash(m.label)],
    ['Priority', String(m.priority)],
    ['Delivery', m.delivery],
    ['Transactional', m.transactional ? 'yes' : 'no'],
    ['Journal', String(m.journal)],
    ['Acknowledge', `${m.acknowledge} (0x${m.acknowledge.toString(16).toUpperCase().padStart(2, '0')})`],
    ['Destination', m.destinationQueue],
    ['Admin queue', orDash(m.adminQueue)],
    ['Response queue', orDash(m.responseQueue)],
    ['Correlation ID', orDash(m.correlationId)],
    ['App-specific', String(m.appSpecific)],
    ['Conversation', orDash(m.conversation)],
    ['Status', statusText[m.status] ?? String(m.status)],
    ['Source', `${m.sourceMachine} {${m.sourceMachineId}}`],
    ['Sent', m.sentTime],
    ['Arrived', m.arrivedTime],
    ['Time to reach queue', `${formatCount(m.timeToReachQueue)} s`],
    ['Time to be received', m.timeToBeReceived === null ? 'unlimited' : `${formatCount(m.timeToBeReceived)} s`],
    ['Dead-letter queue', orDash(m.deadLetterQueue)],
    ['Move count', `${m.moveCount}${m.lastMoveTime ? ` (last ${m.lastMoveTime})` : ''}`],
    ['Abort count', String(m.abortCount)],
    ['Size', `${formatCount(m.bodySize)} bytes`],
    ['Body', bodyText(m)],
  ]);
}

const messageColumns: Column<MessageInfo>[] = [
  { header: 'LOOKUP ID', value: (m) => String(m.lookupId), right: true },
  { header: 'CLASS', value: (m) => formatClass(m.classCode) },
  { header: 'PRIORITY', value: (m) => String(m.priority), right: true },
  { header: 'SIZE', value: (m) => formatCount(m.bodySize), right: true },
  { header: 'STATUS', value: (m) => String(m.status), right: true },
  { header: 'ID', value: (m) => m.id },
  { header: 'LABEL', value: (m) => m.label },
  {
    header: 'BODY',
    value: (m) =>
      m.body === null ? (m.bodySize === 0 ? '' : '(binary)') : m.body.length > 40 ? `${m.body.slice(0, 40)}…` : m.body,
  },
];

/** A browse page as a table with the total. */
export function formatMessagePage(page: { total: number; messages: MessageInfo[] }, offset: number): string {
  const shown = page.messages.length;
  const summary =
    shown === page.total
      ? `${formatCount(page.total)} message${page.total === 1 ? '' : 's'}`
      : `Messages ${formatCount(shown === 0 ? offset : offset + 1)}–${formatCount(offset + shown)} of ${formatCount(page.total)}`;
  return shown === 0 ? `${summary}.` : `${renderTable(messageColumns, page.messages)}\n${summary}.`;
}

/** Where messages are (message find, acks). */
export function formatLocations(locations: { path: string; message: MessageInfo }[], none: string): string {
  if (locations.length === 0) return none;
  return renderTable(
    [
      { header: 'QUEUE', value: (l) => l.path },
      { header: 'LOOKUP ID', value: (l) => String(l.message.lookupId), right: true },
      { header: 'CLASS', value: (l) => formatClass(l.message.classCode) },
      { header: 'ID', value: (l) => l.message.id },
      { header: 'CORRELATION ID', value: (l) => orDash(l.message.correlationId) },
      { header: 'ARRIVED', value: (l) => l.message.arrivedTime },
    ],
    locations,
  );
}
