/** One entry of the Actions pane, a menu or the toolbar, and how actions report failures. */
import type { AppStore } from '../store/app-store.js';

/** One entry of the Actions pane or a menu. */
export interface ActionItem {
  id: string;
  label: string;
  shortcut?: string;
  /** Shown greyed: the action exists here but cannot run now (the reason goes in the tooltip). */
  disabledReason?: string;
  run: () => void;
}

/** Runs an action, reporting any failure with its code where the user will see it. */
export function attempt(store: AppStore, where: string, work: () => Promise<unknown>): void {
  work().catch((error: unknown) => store.getState().reportError(where, error));
}
