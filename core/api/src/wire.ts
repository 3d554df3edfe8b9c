/** Paths and frames of the HTTP and WebSocket transports, so the service and every client agree. */
import { z } from 'zod';
import { eventSchema } from './events.js';
import { errorBodySchema } from './schemas.js';

export const API_PREFIX = '/api/v1';
export const WEBSOCKET_PATH = '/api/v1/ws';
/** The data-folder files through which `qk --data DIR` finds a running service. */
export const SERVICE_FILE = 'service.json';
export const TOKEN_FILE = 'token';

/** Contents of `service.json` in the data folder. */
export const serviceFileSchema = z.object({
  url: z.string(),
  pid: z.number().int(),
  name: z.string(),
  id: z.string(),
  startedTime: z.string(),
});
export type ServiceFile = z.infer<typeof serviceFileSchema>;

/** Client → service frames on the WebSocket. */
export const clientFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call'), id: z.number().int(), op: z.string(), input: z.unknown() }),
  z.object({ type: z.literal('subscribe') }),
  z.object({ type: z.literal('unsubscribe') }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

/** Service → client frames on the WebSocket. */
export const serverFrameSchema = z.union([
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(false), error: errorBodySchema }),
  z.object({ type: z.literal('event'), event: eventSchema }),
]);
