/**
 * Window-wide shortcuts: F5, Ctrl+F, Ctrl+Shift+F, Alt+Enter, and Shift+F10 / the Menu key wherever the
 * focus is (the tree and the lists handle those themselves, at their focused item; elsewhere the menu of
 * the current selection opens at the top left of the result pane). Esc and arrows live with their owners.
 */
import { useEffect } from 'react';
import { attempt, buildActions, findAction } from '../commands/actions.js';
import { useStoreApi } from '../store/use-app-store.js';
import { parseNodeId } from '../tree/tree-model.js';
import { useContextMenu } from './ContextMenu.js';

/** Whether the focus is where Ctrl+V pastes text (a field), not messages. */
function isTextField(element: Element | null): boolean {
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement
  );
}

/** Installs the window-wide shortcuts for the life of the component. */
export function useGlobalKeys() {
  const store = useStoreApi();
  const openMenu = useContextMenu();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const s = store.getState();
      if (s.dialog || event.defaultPrevented) return;
      const ctrl = event.ctrlKey || event.metaKey;
      if (event.key === 'F5') {
        event.preventDefault();
        attempt(store, 'Refresh', () => s.refreshAll());
      } else if (ctrl && event.shiftKey && (event.key === 'f' || event.key === 'F')) {
        event.preventDefault();
        const computer = s.selectedNodeId ? parseNodeId(s.selectedNodeId).computer : (s.computers[0]?.key ?? 'local');
        s.openDialog({ kind: 'search', computer });
      } else if (ctrl && (event.key === 'f' || event.key === 'F')) {
        if (s.target) {
          event.preventDefault();
          s.setFilterVisible(true);
          // A second Ctrl+F while open refocuses the field.
          document.querySelector<HTMLInputElement>('.filter-bar input')?.focus();
        }
      } else if (ctrl && (event.key === 'v' || event.key === 'V') && !isTextField(document.activeElement)) {
        // Paste copies of the clipboard's messages into the selected queue (the result pane's first).
        const paste = findAction(buildActions(store), 'paste');
        if (paste) {
          event.preventDefault();
          paste.run();
        }
      } else if (event.altKey && event.key === 'Enter') {
        event.preventDefault();
        // MMC: Properties of what is selected — the result pane's item first, else the tree node.
        findAction(buildActions(store), 'messageProperties', 'queueProperties', 'computerProperties')?.run();
      } else if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
        event.preventDefault();
        const model = buildActions(store);
        const items = model.selectionActions.length > 0 ? model.selectionActions : model.nodeActions;
        const rect = document.querySelector('.result-pane')?.getBoundingClientRect();
        openMenu((rect?.left ?? 0) + 24, (rect?.top ?? 0) + 48, items);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, openMenu]);
}
