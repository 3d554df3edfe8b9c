/**
 * What the preload exposes: one function per contract operation (returning the envelope) and one event
 * subscription. Built from `operationNames`, so the bridge can never drift from the contract; no raw
 * ipcRenderer and nothing else crosses into the page.
 */
import { operationNames, type QkEvent, type QueuekeeperBridge } from '@qk/api';
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { CALL_CHANNEL, EVENT_CHANNEL } from './channels.js';

/** Builds the bridge object over an ipcRenderer. */
export function createBridge(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): QueuekeeperBridge {
  const api: Record<string, unknown> = {};
  for (const name of operationNames) {
    // Only the operation name and the input cross: the input is structured-cloned, the main process validates it.
    api[name] = (input: unknown) => ipc.invoke(CALL_CHANNEL, name, input ?? {});
  }
  api['onEvent'] = (listener: (event: QkEvent) => void) => {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function');
    const handler = (_event: IpcRendererEvent, event: QkEvent) => listener(event);
    ipc.on(EVENT_CHANNEL, handler);
    return () => {
      ipc.removeListener(EVENT_CHANNEL, handler);
    };
  };
  return Object.freeze(api) as QueuekeeperBridge;
}
