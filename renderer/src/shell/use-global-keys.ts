/** Window-wide shortcuts: F5, Ctrl+F, Alt+Enter (Esc and the list/tree keys live with their owners). */
import { useEffect } from 'react';
import { buildActions, openSelectedProperties } from '../commands/actions.js';
import { inBackground } from '../store/shared.js';
import { useStoreApi } from '../store/use-app-store.js';
import { parseNodeId } from '../tree/tree-model.js';

/** Installs the window-wide shortcuts for the life of the component. */
export function useGlobalKeys() {
  const store = useStoreApi();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const s = store.getState();
      if (event.key === 'F5') {
        event.preventDefault();
        inBackground(s, 'Refresh', s.refreshAll());
      } else if ((event.ctrlKey || event.metaKey) && (event.key === 'f' || event.key === 'F')) {
        const kind = s.selectedNodeId ? parseNodeId(s.selectedNodeId).kind : null;
        if (kind === 'queueMessages' || kind === 'journalMessages' || kind === 'systemQueue') {
          event.preventDefault();
          s.setFilterVisible(true);
          // A second Ctrl+F while open refocuses the field.
          document.querySelector<HTMLInputElement>('.filter-bar input')?.focus();
        }
      } else if (event.altKey && event.key === 'Enter' && !s.dialog) {
        event.preventDefault();
        if (s.selectedCount() === 1 && document.activeElement?.closest('.message-grid')) openSelectedProperties(store);
        else
          buildActions(store)
            .nodeActions.find((a) => a.id === 'queueProperties' || a.id === 'computerProperties')
            ?.run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
