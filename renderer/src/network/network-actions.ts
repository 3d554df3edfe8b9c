/**
 * The network's entries in the Actions pane (docs/network.md): MSMQ's Pause and Resume of an outgoing queue,
 * and offline mode (Take offline / Bring online) on the Message Queuing node.
 */
import type { AppStore } from '../store/app-store.js';
import type { AppState } from '../store/types.js';
import { attempt, type ActionItem } from '../commands/action-item.js';
import { outgoingOf } from './network-slice.js';

/** The format name MSMQ's console gives an outgoing queue, from its path (`BETA\private$\orders`). */
export function outgoingFormatName(path: string): string {
  return path.toUpperCase().startsWith('DIRECT=OS:') ? path : `DIRECT=OS:${path}`;
}

/** Pause (or Resume, when it is held) for one outgoing queue; state unknown yet: both, so neither is hidden. */
export function pauseResumeActions(store: AppStore, state: AppState, computer: string, path: string): ActionItem[] {
  const formatName = outgoingFormatName(path);
  const outgoing = outgoingOf(state.outgoing[computer], formatName);
  const pause: ActionItem = {
    id: 'pauseOutgoing',
    label: 'Pause',
    run: () => attempt(store, `Pause ${formatName}`, () => store.getState().pauseOutgoing(computer, formatName)),
  };
  const resume: ActionItem = {
    id: 'resumeOutgoing',
    label: 'Resume',
    run: () => attempt(store, `Resume ${formatName}`, () => store.getState().resumeOutgoing(computer, formatName)),
  };
  if (!outgoing) return [pause, resume];
  return outgoing.state === 'onHold' ? [resume] : [pause];
}

/** Take offline / Bring online (MSMQ's offline mode, `qk service disconnect|connect`). */
export function offlineAction(store: AppStore, state: AppState, computer: string): ActionItem[] {
  const status = state.computers.find((c) => c.key === computer)?.status;
  if (!status) return [];
  return status.offline
    ? [
        {
          id: 'bringOnline',
          label: 'Bring online',
          run: () => attempt(store, 'Bring online', () => store.getState().setOffline(computer, false)),
        },
      ]
    : [
        {
          id: 'takeOffline',
          label: 'Take offline',
          run: () => attempt(store, 'Take offline', () => store.getState().setOffline(computer, true)),
        },
      ];
}
