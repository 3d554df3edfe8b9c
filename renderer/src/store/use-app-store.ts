/** The React binding: one store per provider, read through selector hooks. */
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppStore } from './app-store.js';
import type { AppState } from './types.js';

const StoreContext = createContext<AppStore | null>(null);

/** Provides a store (made by createAppStore) to the components below. */
export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

/** The store itself, for event handlers that read state at the time of the event. */
export function useStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStoreApi outside StoreProvider');
  return store;
}

/** Subscribes a component to one selected piece of state. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useStoreApi(), selector);
}
