/**
 * The only user of ipcMain. One channel carries every contract operation; each call's sender is checked
 * (our window's webContents, its top frame showing our console page at app://console) before it reaches the service.
 */
import { isOperationName, type Envelope, type QkEvent } from '@qk/api';
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { CALL_CHANNEL, EVENT_CHANNEL } from './channels.js';
import type { HostApi } from './host-protocol.js';

/** Whom the bridge serves. */
export interface TrustedRenderer {
  webContents: () => WebContents | null;
  /** `app://console/index.html` (app-protocol.ts), compared without query or hash. */
  indexUrl: string;
}

/** True when the sender is our window showing our renderer (not a navigated-away page or another frame). */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  trusted: TrustedRenderer,
): boolean {
  const contents = trusted.webContents();
  if (!contents || event.sender !== contents) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  try {
    const url = new URL(frame.url);
    const expected = new URL(trusted.indexUrl);
    return url.protocol === expected.protocol && url.host === expected.host && url.pathname === expected.pathname;
  } catch {
    // A frame whose URL does not parse is not the console's page: not trusted, the call is refused.
    return false;
  }
}

/** Registers the call handler and forwards events; returns a disposer. */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  host: HostApi,
  trusted: TrustedRenderer,
): () => void {
  ipcMain.handle(CALL_CHANNEL, async (event, op: unknown, input: unknown): Promise<Envelope<unknown>> => {
    if (!isTrustedSender(event, trusted)) {
      return {
        ok: false,
        error: { code: 'ACCESS_DENIED', message: 'This page may not call the Message Queuing service.' },
      };
    }
    if (typeof op !== 'string' || !isOperationName(op)) {
      return { ok: false, error: { code: 'INVALID_PARAMETER', message: `Unknown operation '${String(op)}'.` } };
    }
    return host.call(op, input);
  });
  const unsubscribe = host.subscribe((event: QkEvent) => {
    const contents = trusted.webContents();
    if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(CALL_CHANNEL);
  };
}
