/** The events' schema, checked against core/model's QkEvent (the one definition of their shape). */
import { z } from 'zod';
import { messageRemovalReasons, type QkEvent } from '@qk/model';
import { outgoingQueueInfoSchema, peerInfoSchema } from './network-operations.js';
import { boundedString, Bounds, messageIdSchema, queuePathSchema } from './schemas.js';

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
]) satisfies z.ZodType<QkEvent>;

export { messageRemovalReasons, type MessageRemovalReason, type QkEvent, type QkEventType } from '@qk/model';

/** Subscribing returns a disposer. */
export type Unsubscribe = () => void;
