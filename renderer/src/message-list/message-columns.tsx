/** Every column the message list can show (View › Add/Remove Columns), defined once at module level. */
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import type { MessageInfo } from '@qk/model';
import { classLabel, classMeaning, classTone } from '../format/message-class.js';
import { formatBytes, formatCount, formatDuration, formatTime } from '../format/format.js';
import {
  acknowledgmentName,
  acknowledgmentText,
  deliveryName,
  journalName,
  journalText,
} from '../format/message-props.js';
import type { SortColumn } from './list-query.js';

/** Extra facts per column the table needs besides react-table's definition. */
export interface MessageColumnMeta {
  /** The service-side sort for this column, or null when the service cannot sort by it. */
  sort: SortColumn | null;
  align: 'left' | 'right';
}

const h = createColumnHelper<MessageInfo>();

function timeCell(iso: string) {
  return <span title={iso}>{formatTime(iso)}</span>;
}

function text(value: string | null) {
  return value ? <span title={value}>{value}</span> : <span className="muted">—</span>;
}

const meta = (sort: MessageColumnMeta['sort'], align: MessageColumnMeta['align'] = 'left') =>
  ({ sort, align }) satisfies MessageColumnMeta;

const columns = [
  h.accessor('label', {
    id: 'label',
    header: 'Label',
    size: 125,
    meta: meta('label'),
    cell: (c) => text(c.getValue() || null),
  }),
  h.accessor('priority', { id: 'priority', header: 'Priority', size: 58, meta: meta('priority', 'right') }),
  h.accessor('classCode', {
    id: 'class',
    header: 'Class',
    size: 212,
    meta: meta('class'),
    cell: (c) => (
      <span className={`class-${classTone(c.getValue())}`} title={classMeaning(c.getValue())}>
        {classLabel(c.getValue())}
      </span>
    ),
  }),
  h.accessor('bodySize', {
    id: 'size',
    header: 'Size',
    size: 68,
    meta: meta('size', 'right'),
    cell: (c) => formatBytes(c.getValue()),
  }),
  h.accessor('id', {
    id: 'id',
    header: 'Message ID',
    size: 320,
    meta: meta(null),
    cell: (c) => (
      <span className="mono" title={c.getValue()}>
        {c.getValue()}
      </span>
    ),
  }),
  h.accessor('lookupId', {
    id: 'lookupId',
    header: 'Lookup ID',
    // An identifier to copy into `qk --lookup-id`, not a count: no digit grouping. Up to 16 digits (R-L1).
    size: 132,
    meta: meta('lookupId', 'right'),
    cell: (c) => <span className="mono">{c.getValue()}</span>,
  }),
  h.accessor('sentTime', {
    id: 'sentTime',
    header: 'Sent',
    size: 140,
    meta: meta('sentTime'),
    cell: (c) => timeCell(c.getValue()),
  }),
  h.accessor('arrivedTime', {
    id: 'arrivedTime',
    header: 'Arrived',
    size: 140,
    meta: meta('arrivedTime'),
    cell: (c) => timeCell(c.getValue()),
  }),
  h.accessor('sourceMachine', {
    id: 'sourceMachine',
    header: 'Source computer',
    size: 130,
    meta: meta(null),
    cell: (c) => text(c.getValue()),
  }),
  h.accessor('correlationId', {
    id: 'correlationId',
    header: 'Correlation ID',
    size: 330,
    meta: meta(null),
    cell: (c) => <span className="mono">{text(c.getValue())}</span>,
  }),
  h.accessor('adminQueue', {
    id: 'adminQueue',
    header: 'Admin queue',
    size: 180,
    meta: meta(null),
    cell: (c) => text(c.getValue()),
  }),
  h.accessor('responseQueue', {
    id: 'responseQueue',
    header: 'Response queue',
    size: 180,
    meta: meta(null),
    cell: (c) => text(c.getValue()),
  }),
  h.accessor('destinationQueue', {
    id: 'destinationQueue',
    header: 'Destination queue',
    size: 180,
    meta: meta(null),
    cell: (c) => text(c.getValue()),
  }),
  h.accessor('delivery', {
    id: 'delivery',
    header: 'Delivery',
    size: 90,
    meta: meta(null),
    cell: (c) => deliveryName(c.getValue()),
  }),
  h.accessor('transactional', {
    id: 'transactional',
    header: 'Transactional',
    size: 90,
    meta: meta(null),
    cell: (c) => (c.getValue() ? 'Yes' : 'No'),
  }),
  h.accessor('appSpecific', {
    id: 'appSpecific',
    header: 'Application-specific',
    size: 110,
    meta: meta(null, 'right'),
    cell: (c) => formatCount(c.getValue()),
  }),
  h.accessor('timeToBeReceived', {
    id: 'timeToBeReceived',
    header: 'Time to be received',
    size: 120,
    meta: meta(null),
    cell: (c) => formatDuration(c.getValue()),
  }),
  h.accessor('timeToReachQueue', {
    id: 'timeToReachQueue',
    header: 'Time to reach queue',
    size: 120,
    meta: meta(null),
    cell: (c) => formatDuration(c.getValue()),
  }),
  h.accessor('acknowledge', {
    id: 'acknowledge',
    header: 'Acknowledgment',
    size: 160,
    meta: meta(null),
    cell: (c) => <span title={acknowledgmentText(c.getValue())}>{acknowledgmentName(c.getValue())}</span>,
  }),
  h.accessor('journal', {
    id: 'journal',
    header: 'Journal',
    size: 130,
    meta: meta(null),
    cell: (c) => <span title={journalText(c.getValue())}>{journalName(c.getValue())}</span>,
  }),
  h.accessor('moveCount', {
    id: 'moveCount',
    header: 'Moves',
    size: 60,
    meta: meta(null, 'right'),
    cell: (c) => formatCount(c.getValue()),
  }),
  h.accessor('abortCount', {
    id: 'abortCount',
    header: 'Aborts',
    size: 60,
    meta: meta(null, 'right'),
    cell: (c) => formatCount(c.getValue()),
  }),
];

/** All message columns, in the order Add/Remove Columns offers them. */
// Each column keeps its own value type above; the list mixes them, which react-table types as `any`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const messageColumns: ColumnDef<MessageInfo, any>[] = columns;

/** Column id → header text, for Add/Remove Columns. */
export const messageColumnLabels: Record<string, string> = Object.fromEntries(
  messageColumns.map((c) => [c.id as string, String(c.header)]),
);

/** The meta of a column by id. */
export function columnMeta(id: string): MessageColumnMeta {
  const column = messageColumns.find((c) => c.id === id);
  return (column?.meta as MessageColumnMeta | undefined) ?? { sort: null, align: 'left' };
}
