/**
 * Typed events, past tense, flowing from the engine to every subscriber (WebSocket, IPC). `queueChanged`
 * (counts) comes at most once per queue per timer tick (100 ms). `messageArrived`/`messageRemoved` come per
 * message up to 256 per tick; a larger burst is told only by `queueChanged`, so subscribers that show
 * messages refresh on it too.
 */
import { z } from 'zod';
import { outgoingQueueInfoSchema, peerInfoSchema } from './network-operations.js';
import { boundedString, Bounds, messageIdSchema, queuePathSchema } from './schemas.js';

export const messageRemovalReasons = [
  'received',
  'purged',
  'deleted',
  'expired',
  'moved',
  'queueDeleted',
  'conversationEnded',
  'retained',
  'rejected',
  'forwarded',
] as const;

const counts = {
  path: queuePathSchema,
  messageCount: z.number().int(),
  bytes: z.number().int(),
  journalMessageCount: z.number().int(),
  journalBytes: z.number().int(),
};

export const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('queueCreated'), path: queuePathSchema }),
  z.object({ type: z.literal('queueDeleted'), path: queuePathSchema }),
  z.object({ type: z.literal('queueChanged'), ...counts }),
  z.object({ type: z.literal('queuePurged'), path: queuePathSchema, purged: z.number().int() }),
  z.object({
    type: z.literal('messageArrived'),
    path: queuePathSchema,
    lookupId: z.number().int(),
    id: messageIdSchema,
    classCode: z.number().int(),
  }),
  z.object({
    type: z.literal('messageRemoved'),
    path: queuePathSchema,
    lookupId: z.number().int(),
    reason: z.enum(messageRemovalReasons),
  }),
  z.object({
    type: z.literal('settingChanged'),
    name: boundedString(Bounds.SETTING_NAME),
    value: z.number().nullable(),
    pending: z.number().nullable(),
  }),
  z.object({ type: z.literal('serviceRestarted') }),
  /** A peer's state or entry changed (docs/network.md). */
  z.object({ type: z.literal('peerChanged'), peer: peerInfoSchema }),
  /** An outgoing queue's state, next hop or counts changed. */
  z.object({ type: z.literal('outgoingQueueChanged'), outgoing: outgoingQueueInfoSchema }),
]);

export type QkEvent = z.infer<typeof eventSchema>;
export type QkEventType = QkEvent['type'];
export type MessageRemovalReason = (typeof messageRemovalReasons)[number];
/** Subscribing returns a disposer. */
export type Unsubscribe = () => void;
