/**
 * The streaming receive (issue 11), part of the one table in operations.ts. `consume` is a streamed call: on
 * a connection that carries the call protocol's frames (WebSocket, Electron), the service sends the queue's
 * messages as `item` frames while the client grants credit, and answers the call once the client cancels it.
 * Over plain HTTP it is refused. The other two end what a transactional stream has handed over.
 */
import { z } from 'zod';
import { messageInfoSchema, messagePropertiesSchema, queuePathSchema, timeoutMsSchema } from './schemas.js';

/** Most messages a stream may have on their way to its reader (its credit) at once. */
export const CONSUME_MAX_CREDIT = 1_000;

const stream = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const streamOperations = {
  consume: {
    input: z.object({
      path: queuePathSchema.min(1),
      transactional: z.boolean().optional(),
      properties: messagePropertiesSchema.optional(),
      timeoutMs: timeoutMsSchema.optional(),
    }),
    output: z.object({ received: z.number().int(), timedOut: z.boolean() }),
    admin: false,
    summary: `Streams the queue's messages as they arrive, in receive order, one \`item\` frame each, while the client grants credit (\`{"type":"credit","id":N,"count":K}\`, at most ${CONSUME_MAX_CREDIT.toLocaleString('en-US')} on their way); each leaves the queue as it is sent, or with \`transactional\` when the client commits (consumeCommit; an abort, the end of the stream or a dropped connection puts back what was not committed). Cancel the call to end the stream; with \`timeoutMs\` it also ends once the queue has had no message that long (a transactional stream once its messages are committed or aborted), and its result says \`timedOut: true\`. The result says how many messages were sent. WebSocket and Electron only.`,
  },
  consumeCommit: {
    input: z.object({ stream, count: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() }),
    output: z.object({ committed: z.number().int() }),
    admin: false,
    summary:
      'Commits the first `count` messages (default: all) a transactional stream of this connection (the id of its consume call) has sent and not yet committed; the later ones stay held for a later commit.',
  },
  consumeAbort: {
    input: z.object({ stream }),
    output: z.object({ returned: z.number().int() }),
    admin: false,
    summary:
      'Puts back, in place, every message a transactional stream of this connection has sent and not committed; they are sent again.',
  },
} as const;

/** What each item of a streamed operation is. */
export const streamItemSchemas = { consume: messageInfoSchema } as const;
