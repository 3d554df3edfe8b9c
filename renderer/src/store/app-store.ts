/** One store per console (and per test): the slices combined over one ConsoleClient. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ConsoleClient } from '../client/console-client.js';
import { createHttpClient } from '../client/http-client.js';
import { createColumnsSlice } from '../message-list/columns-slice.js';
import { createConnectionSlice } from './connection-slice.js';
import { createDetailsSlice } from '../messages/details-slice.js';
import { createJobsSlice } from './jobs-slice.js';
import { createListSlice } from '../message-list/list-slice.js';
import { createFileActions } from '../messages/file-actions.js';
import { createMessageActions } from '../messages/message-actions.js';
import { createTransferActions } from '../messages/transfer-actions.js';
import { createSettingsSlice } from '../computer/settings-slice.js';
import { LOCAL_COMPUTER, type StoreContext } from './shared.js';
import { createViewSlice } from '../shell/view-slice.js';
import { createTrafficSlice } from '../traffic/traffic-slice.js';
import { createNetworkSlice } from '../network/network-slice.js';
import { createTreeSlice } from '../tree/tree-slice.js';
import type { AppState } from './types.js';

/** Options a test or a host may override. */
export interface AppStoreOptions {
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  createRemoteClient?: (url: string, token: string) => ConsoleClient;
}

/** The store type components and tests hold. */
export type AppStore = StoreApi<AppState>;

/** Builds a fresh store whose local computer is reached through `client`. */
export function createAppStore(client: ConsoleClient, options: AppStoreOptions = {}): AppStore {
  const clients = new Map<string, ConsoleClient>([[LOCAL_COMPUTER, client]]);
  const ctx: StoreContext = {
    clientFor(computer) {
      const found = clients.get(computer);
      if (!found) throw new Error(`No connection to computer '${computer}'.`);
      return found;
    },
    hasClient: (computer) => clients.has(computer),
    addClient: (computer, c) => void clients.set(computer, c),
    removeClient: (computer) => void clients.delete(computer),
    createRemoteClient: options.createRemoteClient ?? ((url, token) => createHttpClient({ baseUrl: url, token })),
    storage: options.storage === undefined ? safeLocalStorage() : options.storage,
  };
  return createStore<AppState>()((set, get) => ({
    ...createConnectionSlice(set, get, ctx),
    ...createTreeSlice(set, get, ctx),
    ...createListSlice(set, get, ctx),
    ...createDetailsSlice(set, get, ctx),
    ...createSettingsSlice(set, get, ctx),
    ...createJobsSlice(set, get, ctx),
    ...createMessageActions(set, get, ctx),
    ...createTransferActions(set, get, ctx),
    ...createFileActions(set, get, ctx),
    ...createColumnsSlice(set, get, ctx),
    ...createViewSlice(set, get, ctx),
    ...createTrafficSlice(set, get, ctx),
    ...createNetworkSlice(set, get, ctx),
  }));
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
