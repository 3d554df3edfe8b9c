/**
 * Typed events, past tense, flowing from the engine to every subscriber (WebSocket, IPC). `queueChanged`
 * (counts) comes at most once per queue per timer tick (100 ms). `messageArrived`/`messageRemoved` come per
 * message up to 256 per tick; a larger burst is told only by `queueChanged`, so subscribers that show
 * messages refresh on it too.
 */
import { z } from 'zod';

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
] as const;

const counts = {
  path: z.string(),
  messageCount: z.number().int(),
  bytes: z.number().int(),
  journalMessageCount: z.number().int(),
  journalBytes: z.number().int(),
};

export const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('queueCreated'), path: z.string() }),
  z.object({ type: z.literal('queueDeleted'), path: z.string() }),
  z.object({ type: z.literal('queueChanged'), ...counts }),
  z.object({ type: z.literal('queuePurged'), path: z.string(), purged: z.number().int() }),
  z.object({
    type: z.literal('messageArrived'),
    path: z.string(),
    lookupId: z.number().int(),
    id: z.string(),
    classCode: z.number().int(),
  }),
  z.object({
    type: z.literal('messageRemoved'),
    path: z.string(),
    lookupId: z.number().int(),
    reason: z.enum(messageRemovalReasons),
  }),
  z.object({
    type: z.literal('settingChanged'),
    name: z.string(),
    value: z.number().nullable(),
    pending: z.number().nullable(),
  }),
  z.object({ type: z.literal('serviceRestarted') }),
]);

export type QkEvent = z.infer<typeof eventSchema>;
export type QkEventType = QkEvent['type'];
export type MessageRemovalReason = (typeof messageRemovalReasons)[number];
/** Subscribing returns a disposer. */
export type Unsubscribe = () => void;
