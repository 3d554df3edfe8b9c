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
  // Migration 2:
  'body_size',
  'timer_base_ms',
  'move_count',
  'abort_count',
  'last_move_ms',
  'dead_letter_queue',
] as const;

/** Every column but the body, for lists that do not show bodies. */
export const columnsWithoutBody = (prefix = ''): string =>
  MESSAGE_COLUMNS.map((c) => (c === 'body' ? `X'' AS body` : `${prefix}${c}`)).join(', ');
export const allColumns = (prefix = ''): string => MESSAGE_COLUMNS.map((c) => `${prefix}${c}`).join(', ');

/**
 * Maps a row read in raw mode (an array in MESSAGE_COLUMNS order). Raw rows spare better-sqlite3 building
 * an object with 26 named keys per row, which costs more than the query itself on hot paths.
 */
export function fromRaw(r: unknown[], table: MessageTable): StoredMessage {
  return {
    table,
    lookupId: r[0] as number,
    queueId: r[1] as number,
    status: r[2] as number,
    priority: r[3] as number,
    msgId: r[4] as string,
    classCode: r[5] as number,
    label: r[6] as string,
    body: r[7] as Buffer,
    size: r[8] as number,
    delivery: r[9] as number,
    journal: r[10] as number,
    ack: r[11] as number,
    adminQueue: r[12] as string | null,
    responseQueue: r[13] as string | null,
    destQueue: r[14] as string,
    correlationId: r[15] as string | null,
    appSpecific: r[16] as number,
    sourceMachine: r[17] as string,
    sourceMachineId: r[18] as string,
    sentMs: r[19] as number,
    arrivedMs: r[20] as number,
    ttrq: r[21] as number,
    ttbr: r[22] as number | null,
    expiresMs: r[23] as number | null,
    transactional: r[24] === 1,
    conversation: r[25] as string | null,
    bodySize: r[26] as number,
    timerBaseMs: r[27] as number,
    moveCount: r[28] as number,
    abortCount: r[29] as number,
    lastMoveMs: r[30] as number | null,
    deadLetterQueue: r[31] as string | null,
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
    m.bodySize,
    m.timerBaseMs,
    m.moveCount,
    m.abortCount,
    m.lastMoveMs,
    m.deadLetterQueue,
  ];
}

/**
 * Most messages leave these columns at their defaults (no acknowledgment, journal, correlation, conversation,
 * receive timer, move or abort). A plain message is inserted by a statement that writes them as literals and
 * binds only the rest: better-sqlite3 binds each parameter through V8 one by one, and 14 fewer parameters
 * are about a fifth of an insert.
 */
const PLAIN_LITERALS: Partial<Record<(typeof MESSAGE_COLUMNS)[number], string>> = {
  class: '0',
  journal: '0',
  ack: '0',
  admin_queue: 'NULL',
  response_queue: 'NULL',
  correlation_id: 'NULL',
  app_specific: '0',
  ttbr: 'NULL',
  transactional: '0',
  conversation: 'NULL',
  move_count: '0',
  abort_count: '0',
  last_move_ms: 'NULL',
  dead_letter_queue: 'NULL',
};

/** The VALUES list of the plain insert: a literal for each default column, a parameter for the others. */
export const plainValues = (): string => MESSAGE_COLUMNS.map((c) => PLAIN_LITERALS[c] ?? '?').join(', ');

/** Whether every column of PLAIN_LITERALS is at its default in `m`. */
export function isPlain(m: MessageRecord): boolean {
  return (
    m.classCode === 0 &&
    m.journal === 0 &&
    m.ack === 0 &&
    m.adminQueue === null &&
    m.responseQueue === null &&
    m.correlationId === null &&
    m.appSpecific === 0 &&
    m.ttbr === null &&
    !m.transactional &&
    m.conversation === null &&
    m.moveCount === 0 &&
    m.abortCount === 0 &&
    m.lastMoveMs === null &&
    m.deadLetterQueue === null
  );
}
