/** Renders console components under a store, as the app does, for tests that drive them through the DOM. */
import type { ReactNode } from 'react';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { AppStore } from '../../../../renderer/src/store/app-store.js';
import { StoreProvider } from '../../../../renderer/src/store/use-app-store.js';
import { flush } from './timing.js';

let mounted: Root | null = null;

/** Renders `element` under `store` in a new container of the document; returns the container. */
export async function mountInStore(store: AppStore, element: ReactNode): Promise<HTMLElement> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  mounted = root;
  await act(async () => {
    root.render(<StoreProvider store={store}>{element}</StoreProvider>);
    await flush(5);
  });
  return container;
}

/** For afterEach: unmounts what mountInStore rendered and empties the document. */
export function unmountMounted(): void {
  const root = mounted;
  mounted = null;
  if (root) act(() => root.unmount());
  document.body.innerHTML = '';
}

/** Types into a controlled input as a person does: React sees the input event with the new value. */
export function setInput(element: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(element, value);
  element.dispatchEvent(new Event('input', { bubbles: true }));
}
