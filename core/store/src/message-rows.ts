/** Mapping between message rows and MessageRecord; the column list is shared by every statement. */
import type { MessageRecord, MessageTable, StoredMessage } from './records.js';

export const MESSAGE_COLUMNS = [
  'lookup_id',
  'queue_id',
  'status',
  'priority',
  'msg_id',
  'class',
  'label',
  'body',
  'size',
  'delivery',
  'journal',
  'ack',
  'admin_queue',
  'response_queue',
  'dest_queue',
  'correlation_id',
  'app_specific',
  'source_machine',
  'source_machine_id',
  'sent_ms',
  'arrived_ms',
  'ttrq',
  'ttbr',
  'expires_ms',
  'transactional',
  'conversation',
] as const;

/** Every column but the body, for lists that do not show bodies. */
export const columnsWithoutBody = (prefix = ''): string =>
  MESSAGE_COLUMNS.map((c) => (c === 'body' ? `X'' AS body` : `${prefix}${c}`)).join(', ');
export const allColumns = (prefix = ''): string => MESSAGE_COLUMNS.map((c) => `${prefix}${c}`).join(', ');

export interface MessageRow {
  lookup_id: number;
  queue_id: number;
  status: number;
  priority: number;
  msg_id: string;
  class: number;
  label: string;
  body: Buffer;
  size: number;
  delivery: number;
  journal: number;
  ack: number;
  admin_queue: string | null;
  response_queue: string | null;
  dest_queue: string;
  correlation_id: string | null;
  app_specific: number;
  source_machine: string;
  source_machine_id: string;
  sent_ms: number;
  arrived_ms: number;
  ttrq: number;
  ttbr: number | null;
  expires_ms: number | null;
  transactional: number;
  conversation: string | null;
}

export function fromRow(row: MessageRow, table: MessageTable): StoredMessage {
  return {
    table,
    lookupId: row.lookup_id,
    queueId: row.queue_id,
    status: row.status,
    priority: row.priority,
    msgId: row.msg_id,
    classCode: row.class,
    label: row.label,
    body: row.body,
    size: row.size,
    delivery: row.delivery,
    journal: row.journal,
    ack: row.ack,
    adminQueue: row.admin_queue,
    responseQueue: row.response_queue,
    destQueue: row.dest_queue,
    correlationId: row.correlation_id,
    appSpecific: row.app_specific,
    sourceMachine: row.source_machine,
    sourceMachineId: row.source_machine_id,
    sentMs: row.sent_ms,
    arrivedMs: row.arrived_ms,
    ttrq: row.ttrq,
    ttbr: row.ttbr,
    expiresMs: row.expires_ms,
    transactional: row.transactional === 1,
    conversation: row.conversation,
  };
}

/** Positional parameters in MESSAGE_COLUMNS order. */
export function toParams(m: MessageRecord): unknown[] {
  return [
    m.lookupId,
    m.queueId,
    m.status,
    m.priority,
    m.msgId,
    m.classCode,
    m.label,
    m.body,
    m.size,
    m.delivery,
    m.journal,
    m.ack,
    m.adminQueue,
    m.responseQueue,
    m.destQueue,
    m.correlationId,
    m.appSpecific,
    m.sourceMachine,
    m.sourceMachineId,
    m.sentMs,
    m.arrivedMs,
    m.ttrq,
    m.ttbr,
    m.expiresMs,
    m.transactional ? 1 : 0,
    m.conversation,
  ];
}
