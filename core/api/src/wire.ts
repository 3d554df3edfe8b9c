/** Paths and files of the HTTP and WebSocket transports, so the service and every client agree. */
import { z } from 'zod';
import { boundedString, Bounds } from './schemas.js';

export const API_PREFIX = '/api/v1';
export const WEBSOCKET_PATH = '/api/v1/ws';
/** The data-folder files through which `qk --data DIR` finds a running service. */
export const SERVICE_FILE = 'service.json';
export const TOKEN_FILE = 'token';
/** A holder of the token asks here for a one-time console link (`{url, expiresInSeconds}`). */
export const CONSOLE_CODE_PATH = '/console/code';
/** A browser console exchanges its link's one-time code here (`{code}`) for a session token (`{token}`). */
export const CONSOLE_SESSION_PATH = '/console/session';
/** The origin the desktop app's console is served from (electron/app-protocol.ts); every service accepts it. */
export const ELECTRON_APP_ORIGIN = 'app://console';
// The WebSocket frames are core/rpc's (frames.ts): one protocol for every connection.

/** Contents of `service.json` in the data folder. */
export const serviceFileSchema = z.object({
  url: boundedString(Bounds.URL),
  pid: z.number().int(),
  name: boundedString(Bounds.COMPUTER_NAME),
  id: boundedString(Bounds.GUID_TEXT),
  startedTime: boundedString(Bounds.TIME_TEXT),
});
export type ServiceFile = z.infer<typeof serviceFileSchema>;
