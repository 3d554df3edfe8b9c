/**
 * THE contract: every operation a host serves and a client calls. HTTP (`POST /api/v1/<name>`), the
 * WebSocket call channel, Electron IPC, the client and the CLI are all driven from this one table.
 */
import { z } from 'zod';
import { importModes, lookupActions } from '@qk/model';
import {
  boundedString,
  Bounds,
  browseFilterSchema,
  browseSortSchema,
  computerNameSchema,
  errorBodySchema,
  errorCodeSchema,
  exportedMessageSchema,
  messageIdSchema,
  messageInfoSchema,
  messagePropertiesSchema,
  queueInfoSchema,
  queuePathSchema,
  sendPropertiesSchema,
  serviceStatusSchema,
  settingInfoSchema,
  timeoutMsSchema,
} from './schemas.js';
import { networkOperations } from './network-operations.js';
import { consoleOperations } from './console-operations.js';
import { streamOperations } from './stream-operations.js';

interface OperationDef<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
  /** Admin actions change configuration or destroy messages; hosts audit them. */
  admin: boolean;
  summary: string;
}

function op<I extends z.ZodType, O extends z.ZodType>(def: OperationDef<I, O>): OperationDef<I, O> {
  return def;
}

const empty = z.object({});
const path = queuePathSchema.min(1);
const lookupId = z.number().int().min(1);
/** A receive's or peek's lookup ID: 0 is MSMQ's "none" for first and last (R-L2), and matches no message. */
const readLookupId = z.number().int().min(0);
const timeoutMs = timeoutMsSchema;
const transaction = boundedString(Bounds.TRANSACTION).min(1);
const messageLocation = z.object({ path: queuePathSchema, message: messageInfoSchema });
/** With a lookup ID: which message relative to it (R-L2); `first`/`last` ignore the ID. */
const lookupAction = z.enum(lookupActions);

const queueProperties = {
  journal: z.boolean().optional(),
  quotaKB: z.number().int().min(0).max(0xffffffff).nullable().optional(),
  journalQuotaKB: z.number().int().min(0).max(0xffffffff).nullable().optional(),
  label: boundedString(Bounds.QUEUE_LABEL, 'LABEL_TOO_LONG', 'a queue label').optional(),
  retention: z.boolean().optional(),
};

/** A message as it comes from another computer: the arrival path of DESIGN.md. */
const arrivingMessageSchema = sendPropertiesSchema.extend({
  id: messageIdSchema,
  sourceMachineId: boundedString(Bounds.GUID_TEXT),
  // Stored with the message and shown everywhere: a computer name like any other (issue 7: it was unbounded).
  sourceMachine: computerNameSchema,
  transactional: z.boolean().optional(),
  sentTime: boundedString(Bounds.TIME_TEXT).optional(),
  classCode: z.number().int().min(0).max(0xffff).optional(),
});

export const operations = {
  serviceStatus: op({ input: empty, output: serviceStatusSchema, admin: false, summary: "The queue manager's state." }),
  serviceRestart: op({
    input: empty,
    output: serviceStatusSchema,
    admin: true,
    summary:
      'Restarts the queue manager in place: pending settings apply, express messages are lost, the duplicate cache empties.',
  }),
  serviceStop: op({ input: empty, output: empty, admin: true, summary: 'Stops the service.' }),

  queueList: op({
    input: empty,
    output: z.array(queueInfoSchema),
    admin: false,
    summary: 'All queues, system queues included.',
  }),
  queueShow: op({
    input: z.object({ path }),
    output: queueInfoSchema,
    admin: false,
    summary: 'One queue (or a journal).',
  }),
  queueCreate: op({
    input: z.object({ path, transactional: z.boolean().optional(), ...queueProperties }),
    output: queueInfoSchema,
    admin: true,
    summary: 'Creates a private or public queue.',
  }),
  queueSet: op({
    input: z.object({ path, transactional: z.boolean().optional(), ...queueProperties }),
    output: queueInfoSchema,
    admin: true,
    summary: 'Changes queue properties; the transactional type never changes (PROPERTY_NOTALLOWED).',
  }),
  queueDelete: op({
    input: z.object({ path }),
    output: empty,
    admin: true,
    summary: 'Deletes a queue and its messages (R-Q1).',
  }),
  queuePurge: op({
    input: z.object({ path }),
    output: z.object({ purged: z.number().int() }),
    admin: true,
    summary: 'Removes every message of a queue, a journal or a system queue.',
  }),

  send: op({
    input: z.object({
      path,
      message: sendPropertiesSchema,
      transaction: transaction.optional(),
      transactional: z.boolean().optional(),
    }),
    output: z.object({ id: messageIdSchema }),
    admin: false,
    summary: 'Sends one message. `transactional` alone is a single-message transaction.',
  }),
  sendBatch: op({
    input: z.object({
      messages: z
        .array(z.object({ path, message: sendPropertiesSchema, transactional: z.boolean().optional() }))
        .min(1)
        .max(Bounds.BATCH),
      transaction: transaction.optional(),
    }),
    output: z.object({ ids: z.array(messageIdSchema).max(Bounds.BATCH) }),
    admin: false,
    summary: 'Sends many messages in one call; all are accepted or none is.',
  }),
  sendEach: op({
    // Each send is checked as `send` checks it, on its own: one bad send fails alone, as it would as a call.
    input: z.object({
      sends: z
        .array(z.unknown().describe('{path, message, transaction?, transactional?}'))
        .min(1)
        .max(Bounds.SEND_EACH),
    }),
    output: z.object({
      results: z
        .array(
          z.discriminatedUnion('ok', [
            z.object({ ok: z.literal(true), value: z.object({ id: messageIdSchema }) }),
            z.object({ ok: z.literal(false), error: errorBodySchema }),
          ]),
        )
        .max(Bounds.SEND_EACH),
    }),
    admin: false,
    summary:
      'Many sends in one call, each as its own `send` (the same input, checks and error): a result per send, in order. Not all-or-nothing, unlike sendBatch.',
  }),
  receive: op({
    input: z.object({
      path,
      timeoutMs: timeoutMs.optional(),
      transaction: transaction.optional(),
      transactional: z.boolean().optional(),
      lookupId: readLookupId.optional(),
      lookupAction: lookupAction.optional(),
      properties: messagePropertiesSchema.optional(),
    }),
    output: messageInfoSchema,
    admin: false,
    summary:
      'Removes and returns the first message (or, with lookupId, the one lookupAction names: current (default), next, previous, first, last; MESSAGE_NOT_FOUND when there is none); IO_TIMEOUT when none arrives in time.',
  }),
  receiveBatch: op({
    input: z.object({
      path,
      max: z.number().int().min(1).max(Bounds.BATCH),
      timeoutMs: timeoutMs.optional(),
      transaction: transaction.optional(),
      properties: messagePropertiesSchema.optional(),
    }),
    output: z.object({ messages: z.array(messageInfoSchema).max(Bounds.BATCH) }),
    admin: false,
    summary: 'Removes up to `max` messages; waits only while the queue is empty.',
  }),
  peek: op({
    input: z.object({
      path,
      timeoutMs: timeoutMs.optional(),
      lookupId: readLookupId.optional(),
      lookupAction: lookupAction.optional(),
      properties: messagePropertiesSchema.optional(),
    }),
    output: messageInfoSchema,
    admin: false,
    summary:
      'Returns the first message (or, with lookupId, the one lookupAction names) without removing it; MESSAGE_NOT_FOUND when a lookup finds none.',
  }),
  cursorOpen: op({
    input: z.object({ path }),
    output: z.object({ cursor: boundedString(Bounds.TRANSACTION) }),
    admin: false,
    summary:
      'Opens a cursor on a queue, before its first message (R-C2). A cursor unused for 5 minutes is closed; close it when done.',
  }),
  cursorPeek: op({
    input: z.object({
      cursor: boundedString(Bounds.TRANSACTION),
      action: z.enum(['current', 'next']).optional(),
      timeoutMs: timeoutMs.optional(),
      properties: messagePropertiesSchema.optional(),
    }),
    output: messageInfoSchema,
    admin: false,
    summary:
      "Peeks at the cursor's message (current, the default: a new cursor's first, or the one after a message it received, R-C3) or moves it to the next one in queue order (right after a receive, the one after that: next skips the message the receive moved the cursor to, as MSMQ's PEEK_NEXT does, R-C3); waits up to timeoutMs for an arrival (R-C4). MESSAGE_ALREADY_RECEIVED when the message under it was taken meanwhile (R-C5).",
  }),
  cursorReceive: op({
    input: z.object({
      cursor: boundedString(Bounds.TRANSACTION),
      timeoutMs: timeoutMs.optional(),
      transaction: transaction.optional(),
      transactional: z.boolean().optional(),
      properties: messagePropertiesSchema.optional(),
    }),
    output: messageInfoSchema,
    admin: false,
    summary:
      'Receives the message at the cursor (as cursorPeek current finds it); the cursor then moves on to the message after it, which current peeks at (R-C3).',
  }),
  cursorClose: op({
    input: z.object({ cursor: boundedString(Bounds.TRANSACTION) }),
    output: empty,
    admin: false,
    summary: 'Closes a cursor.',
  }),
  browse: op({
    input: z.object({
      path,
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(Bounds.PAGE).optional(),
      sort: browseSortSchema.optional(),
      filter: browseFilterSchema.optional(),
      includeBody: z.boolean().optional(),
    }),
    output: z.object({ total: z.number().int(), messages: z.array(messageInfoSchema).max(Bounds.PAGE) }),
    admin: false,
    summary: 'A page of a queue, retained messages included, nothing removed.',
  }),
  messageGet: op({
    input: z.object({ path, lookupId }),
    output: messageInfoSchema,
    admin: false,
    summary: 'One message with its body.',
  }),
  messageDelete: op({
    input: z.object({ path, lookupId }),
    output: empty,
    admin: true,
    summary: 'Deletes one message.',
  }),
  messagesDelete: op({
    input: z.object({ path, lookupIds: z.array(lookupId).min(1).max(Bounds.BATCH) }),
    output: z.object({ deleted: z.number().int() }),
    admin: true,
    summary: 'Deletes the given messages of one queue.',
  }),
  messagesMove: op({
    input: z.object({ path, lookupIds: z.array(lookupId).min(1).max(Bounds.BATCH), target: path }),
    output: z.object({
      moved: z.number().int(),
      failed: z
        .array(
          z.object({
            lookupId,
            code: boundedString(Bounds.WORD),
            message: boundedString(Bounds.ERROR_MESSAGE),
          }),
        )
        .max(Bounds.BATCH),
    }),
    admin: true,
    summary: 'Moves messages to another local queue through its arrival path.',
  }),
  messageMove: op({
    input: z.object({ path, lookupId, target: path }),
    output: empty,
    admin: true,
    summary:
      "Moves one message: between a queue and its subqueues (or sibling subqueues) MSMQ's MoveMessage, the subqueue opened on first use and the move count up (R-S3, R-S7); to any other local queue through its arrival path.",
  }),
  messageReject: op({
    input: z.object({ path, lookupId }),
    output: empty,
    admin: true,
    summary:
      'Rejects a message (R-S8): it leaves its queue and its sender gets NACK_RECEIVE_REJECTED (0xC004) when it asked for negative receive acknowledgments.',
  }),
  resend: op({
    input: z.object({ path, lookupIds: z.array(lookupId).min(1).max(Bounds.BATCH).optional() }),
    output: z.object({
      resent: z.number().int(),
      failed: z
        .array(
          z.object({
            lookupId,
            destination: queuePathSchema.nullable(),
            error: z.object({ code: errorCodeSchema, message: boundedString(Bounds.ERROR_MESSAGE) }),
          }),
        )
        .max(Bounds.BATCH),
    }),
    admin: true,
    summary:
      'Resends dead letters (all, or those named) to their destination queues as new sends: class NORMAL, same ID, label, body and properties, timers counted again from now.',
  }),
  messagesExport: op({
    input: z.object({
      path,
      after: boundedString(Bounds.WORD).optional(),
      limit: z.number().int().min(1).max(Bounds.PAGE).optional(),
    }),
    output: z.object({
      messages: z.array(exportedMessageSchema).max(Bounds.PAGE),
      next: boundedString(Bounds.WORD).nullable(),
    }),
    admin: false,
    summary:
      'One page of a queue for export, every property and the body (ready messages in queue order, then retained ones); pass `next` as `after` for the following page, null at the end.',
  }),
  messagesImport: op({
    input: z.object({
      path,
      messages: z.array(exportedMessageSchema).min(1).max(Bounds.PAGE),
      mode: z.enum(importModes).optional(),
    }),
    output: z.object({ imported: z.number().int() }),
    admin: true,
    summary:
      'Stores exported messages in a queue as they were (asIs, the default: ID, class, times, counts; new lookup IDs), or sends them there as new messages from this computer (asNew: new IDs, class NORMAL, timers from now); the whole batch or nothing.',
  }),
  messageFind: op({
    input: z.object({ id: messageIdSchema }),
    output: z.array(messageLocation),
    admin: false,
    summary: 'Where a message ID is on this computer now (queues, journals, dead-letter queues).',
  }),
  acknowledgmentsFor: op({
    input: z.object({ id: messageIdSchema }),
    output: z.array(messageLocation),
    admin: false,
    summary: 'Every ACK/NACK on this computer whose correlation ID is the given message ID.',
  }),
  messageArrive: op({
    input: z.object({ path, message: arrivingMessageSchema }),
    output: z.object({ accepted: z.boolean(), reason: boundedString(Bounds.ERROR_MESSAGE).nullable() }),
    admin: true,
    summary: 'Hands a message from another computer to the arrival path (duplicate removal, type and quota checks).',
  }),
  conversationEnd: op({
    input: z.object({ conversation: boundedString(Bounds.CONVERSATION).min(1) }),
    output: z.object({ removed: z.number().int() }),
    admin: false,
    summary: "Ends a conversation: its retained messages go (Service Broker's END CONVERSATION).",
  }),

  transactionBegin: op({
    input: empty,
    output: z.object({ transaction }),
    admin: false,
    summary: 'Begins a local transaction.',
  }),
  transactionCommit: op({
    input: z.object({ transaction }),
    output: empty,
    admin: false,
    summary: 'Commits a local transaction.',
  }),
  transactionAbort: op({
    input: z.object({ transaction }),
    output: empty,
    admin: false,
    summary: 'Aborts a local transaction; received messages go back.',
  }),

  traffic: op({
    input: z.object({ path: path.optional(), seconds: z.number().int().min(1).max(Bounds.TRAFFIC_SECONDS).optional() }),
    output: z.object({
      endTime: boundedString(Bounds.TIME_TEXT),
      intervalSeconds: z.literal(1),
      incoming: z.array(z.number().int()).max(Bounds.TRAFFIC_SECONDS),
      outgoing: z.array(z.number().int()).max(Bounds.TRAFFIC_SECONDS),
      depth: z.number().int().array().max(Bounds.TRAFFIC_SECONDS),
    }),
    admin: false,
    summary:
      'Messages in and out per second and the depth, second by second over the last `seconds` (default 60, at most 300), oldest first; of one queue, or of the whole computer without a path.',
  }),
  queueClassCounts: op({
    input: z.object({ path }),
    output: z.object({
      counts: z
        .array(
          z.object({ class: boundedString(Bounds.CLASS_NAME), classCode: z.number().int(), count: z.number().int() }),
        )
        .max(Bounds.CLASS_CODE_VALUES),
    }),
    admin: false,
    summary: 'How many messages of each class a queue holds, most frequent first (a dead-letter queue by failure).',
  }),

  settingsList: op({
    input: empty,
    output: z.array(settingInfoSchema).max(Bounds.SETTINGS),
    admin: false,
    summary: 'Every setting.',
  }),
  settingsSet: op({
    input: z.object({ name: boundedString(Bounds.SETTING_NAME), value: z.number().nullable() }),
    output: settingInfoSchema,
    admin: true,
    summary:
      'Changes a setting; one that needs a restart waits as pending. null makes a setting that may be absent (XactDelayReceiveNack) absent again.',
  }),

  ...networkOperations,
  ...consoleOperations,
  ...streamOperations,
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<N extends OperationName> = z.input<Operations[N]['input']>;
export type OperationParsedInput<N extends OperationName> = z.output<Operations[N]['input']>;
export type OperationOutput<N extends OperationName> = z.output<Operations[N]['output']>;
export const operationNames = Object.keys(operations) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

/** A handler per operation: what every host implements once and every transport dispatches to. */
export type OperationHandlers = {
  [N in OperationName]: (input: OperationParsedInput<N>) => Promise<OperationOutput<N>>;
};

/** The same, seen from a caller: what the client, the preload bridge and the renderer expose. */
export type ApiClient = {
  [N in OperationName]: (input: OperationInput<N>) => Promise<OperationOutput<N>>;
};
