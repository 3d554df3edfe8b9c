/** Small shared pieces of the store: the context every slice gets, and names used across slices. */
import type { StoreApi } from 'zustand/vanilla';
import type { ConsoleClient } from '../client/console-client.js';
import type { AppState } from './types.js';

export type { MessageLocation } from './types.js';

/** Key of the computer this console is hosted by. */
export const LOCAL_COMPUTER = 'local';

/** What slices share besides state: the clients (not serializable, so not in state) and storage. */
export interface StoreContext {
  clientFor(computer: string): ConsoleClient;
  hasClient(computer: string): boolean;
  addClient(computer: string, client: ConsoleClient): void;
  removeClient(computer: string): void;
  /** Makes a client for a remote service (HTTP/WebSocket). */
  createRemoteClient(url: string, token: string): ConsoleClient;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

export type SetState = StoreApi<AppState>['setState'];
export type GetState = StoreApi<AppState>['getState'];

/** A slice creator: state and actions, given set/get and the shared context. */
export type SliceCreator<T> = (set: SetState, get: GetState, ctx: StoreContext) => T;

/**
 * Runs a store action in the background: its failure is reported where the user sees it, never dropped
 * (most refreshes report their own errors; this catches anything they let through).
 */
export function inBackground(get: GetState, where: string, work: Promise<unknown>): void {
  work.catch((error: unknown) => get().reportError(where, error));
}

/** Case-insensitive path equality (MSMQ names are case-insensitive). */
export function samePath(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}
