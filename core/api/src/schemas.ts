/** zod schemas of the shapes that cross a process boundary; each is checked against its model type. */
import { z } from 'zod';
import {
  errorCodes,
  type ExportedMessage,
  type MessageInfo,
  type QueueInfo,
  type ServiceStatus,
  type SettingInfo,
} from '@qk/model';

const isoTime = z.string();

export const queueInfoSchema = z.object({
  path: z.string(),
  formatName: z.string(),
  type: z.enum(['private', 'public', 'system', 'journal', 'outgoing', 'subqueue']),
  transactional: z.boolean(),
  journal: z.boolean(),
  label: z.string(),
  quotaKB: z.number().int().nullable(),
  journalQuotaKB: z.number().int().nullable(),
  retention: z.boolean(),
  messageCount: z.number().int(),
  bytes: z.number().int(),
  journalMessageCount: z.number().int(),
  journalBytes: z.number().int(),
  createdTime: isoTime,
  modifiedTime: isoTime,
  parent: z.string().optional(),
}) satisfies z.ZodType<QueueInfo>;

export const messageInfoSchema = z.object({
  id: z.string(),
  lookupId: z.number().int(),
  class: z.string(),
  classCode: z.number().int(),
  label: z.string(),
  body: z.string().nullable(),
  bodyBase64: z.string(),
  bodySize: z.number().int(),
  priority: z.number().int(),
  delivery: z.enum(['express', 'recoverable']),
  journal: z.number().int(),
  acknowledge: z.number().int(),
  adminQueue: z.string().nullable(),
  responseQueue: z.string().nullable(),
  destinationQueue: z.string(),
  correlationId: z.string().nullable(),
  appSpecific: z.number().int(),
  sourceMachine: z.string(),
  sourceMachineId: z.string(),
  sentTime: isoTime,
  arrivedTime: isoTime,
  timeToReachQueue: z.number().int(),
  timeToBeReceived: z.number().int().nullable(),
  transactional: z.boolean(),
  conversation: z.string().nullable(),
  status: z.number().int(),
  // Defaults keep files written before these properties existed readable.
  moveCount: z.number().int().default(0),
  abortCount: z.number().int().default(0),
  lastMoveTime: isoTime.nullable().default(null),
  deadLetterQueue: z.string().nullable().default(null),
}) satisfies z.ZodType<MessageInfo>;

/** One message of an export file (docs/message-file-format.md); the engine checks every range on import. */
export const exportedMessageSchema = z.object({
  lookupId: z.number().int(),
  id: z.string().max(64),
  classCode: z.number().int(),
  label: z.string().max(1_000),
  bodyBase64: z.string(),
  priority: z.number().int(),
  delivery: z.enum(['express', 'recoverable']),
  journal: z.number().int(),
  acknowledge: z.number().int(),
  adminQueue: z.string().max(1_000).nullable(),
  responseQueue: z.string().max(1_000).nullable(),
  destinationQueue: z.string().max(1_000),
  correlationId: z.string().max(64).nullable(),
  appSpecific: z.number().int(),
  sourceMachine: z.string().max(256),
  sourceMachineId: z.string().max(64),
  sentTime: isoTime,
  arrivedTime: isoTime,
  timerBaseTime: isoTime,
  timeToReachQueue: z.number().int(),
  timeToBeReceived: z.number().int().nullable(),
  transactional: z.boolean(),
  conversation: z.string().max(256).nullable(),
  status: z.number().int(),
  moveCount: z.number().int().min(0),
  abortCount: z.number().int().min(0),
  lastMoveTime: isoTime.nullable(),
  deadLetterQueue: z.string().max(1_000).nullable(),
}) satisfies z.ZodType<ExportedMessage>;

export const settingInfoSchema = z.object({
  name: z.string(),
  value: z.number().nullable(),
  default: z.number().nullable(),
  unit: z.string(),
  min: z.number(),
  max: z.number(),
  restartRequired: z.boolean(),
  pending: z.number().nullable(),
  pendingRestart: z.boolean().optional(),
  description: z.string(),
}) satisfies z.ZodType<SettingInfo>;

export const serviceStatusSchema = z.object({
  name: z.string(),
  id: z.string(),
  version: z.string(),
  uptimeSeconds: z.number(),
  messages: z.number().int(),
  bytes: z.number().int(),
  journalBytes: z.number().int(),
  settingsPendingRestart: z.array(z.string()),
  duplicateCache: z.object({
    entries: z.number().int(),
    capacity: z.number().int(),
    duplicatesRemoved: z.number().int(),
  }),
  machineQuotaUsedKB: z.number(),
  machineJournalQuotaUsedKB: z.number(),
  startedTime: isoTime,
}) satisfies z.ZodType<ServiceStatus>;

const uint32 = z.number().int().min(0).max(0xffffffff);

/**
 * Send properties. Range checks that MSMQ reports with its own error names (priority, label length,
 * correlation-ID size, message size) are left to the engine so the codes match MSMQ's; here only the JSON
 * types are fixed.
 */
export const sendPropertiesSchema = z.object({
  body: z.string().optional(),
  bodyBase64: z.string().optional(),
  label: z.string().optional(),
  priority: z.number().int().optional(),
  delivery: z.enum(['express', 'recoverable']).optional(),
  journal: z.number().int().optional(),
  acknowledge: z.number().int().optional(),
  adminQueue: z.string().optional(),
  responseQueue: z.string().optional(),
  timeToReachQueue: z.number().int().optional(),
  timeToBeReceived: z.number().int().optional(),
  correlationId: z.string().optional(),
  appSpecific: uint32.optional(),
  conversation: z.string().min(1).max(256).optional(),
  from: z.string().optional(),
  deadLetterQueue: z.string().optional(),
});

export const errorCodeSchema = z.enum(errorCodes);
export const errorBodySchema = z.object({ code: errorCodeSchema, message: z.string() });

/** Which message order a browse returns; `queue` is receive order (priority, then arrival). */
export const browseSortSchema = z.object({
  column: z.enum(['queue', 'lookupId', 'priority', 'class', 'label', 'size', 'sentTime', 'arrivedTime']),
  descending: z.boolean().optional(),
});

/** Filters evaluated by the service, so a million-message queue is never shipped to be filtered. */
export const browseFilterSchema = z.object({
  /** Case-insensitive substring of the label. */
  label: z.string().optional(),
  /** Case-insensitive substring of the body (text bodies only). */
  bodyText: z.string().optional(),
  classCodes: z.array(z.number().int()).optional(),
  arrivedFrom: z.string().optional(),
  arrivedTo: z.string().optional(),
});
