/**
 * Operations the console's daily tools need (issue 12), part of the one table in operations.ts: searching
 * every queue, and what a restart would lose. Kept in their own file so the table's
 * owners and the console can add operations side by side.
 */
import { z } from 'zod';
import {
  Bounds,
  boundedString,
  browseFilterSchema,
  errorCodeSchema,
  messageIdSchema,
  messageInfoSchema,
  queuePathSchema,
} from './schemas.js';

/** At most this many messages in one search reply. */
const SEARCH_LIMIT = 1_000;

export const consoleOperations = {
  messagesCopy: {
    input: z.object({
      path: queuePathSchema,
      lookupIds: z.array(z.number().int().min(1)).min(1).max(Bounds.BATCH),
      target: queuePathSchema,
    }),
    output: z.object({
      copied: z.number().int(),
      ids: z.array(messageIdSchema).max(Bounds.BATCH),
      failed: z
        .array(
          z.object({
            lookupId: z.number().int(),
            code: errorCodeSchema,
            message: boundedString(Bounds.ERROR_MESSAGE),
          }),
        )
        .max(Bounds.BATCH),
    }),
    admin: true,
    summary:
      'Copies messages to another queue and keeps the originals: each copy is a new message (new ID, class NORMAL, timers from now) with every property and the body; a target that refuses a copy keeps nothing of it (no NACK, no dead letter).',
  },
  messagesSearch: {
    input: z.object({ filter: browseFilterSchema, limit: z.number().int().min(1).max(SEARCH_LIMIT).optional() }),
    output: z.object({
      total: z.number().int(),
      matches: z.array(z.object({ path: queuePathSchema, message: messageInfoSchema })).max(SEARCH_LIMIT),
      // As many as there are queues (store-sized, like queueList).
      queues: z.array(z.object({ path: queuePathSchema, count: z.number().int() })),
    }),
    admin: false,
    summary:
      'Finds messages in every queue, journal and system queue by the browse filter; at most `limit` (default 200) messages, every match counted per queue.',
  },
  serviceRestartImpact: {
    input: z.object({}),
    output: z.object({
      expressMessages: z.number().int(),
      // As many as there are queues (store-sized, like queueList).
      queues: z.array(z.object({ path: queuePathSchema, messages: z.number().int() })),
      duplicateCacheEntries: z.number().int(),
      pendingSettings: z.array(boundedString(Bounds.SETTING_NAME)).max(Bounds.SETTINGS),
    }),
    admin: false,
    summary:
      'What restarting Message Queuing would lose now: the express messages per queue (kept in memory only), the duplicate cache, and the settings that would take effect.',
  },
} as const;
