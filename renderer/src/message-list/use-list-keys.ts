/**
 * The message grid's keyboard map, as Windows list views have it: arrows, Page Up/Down, Home/End move the
 * focus (Shift extends, Ctrl moves the focus alone, Space toggles with Ctrl), Ctrl+A selects everything,
 * Enter opens properties, Del deletes, Shift+F10 or the Menu key opens the selection's menu.
 */
import type { KeyboardEvent } from 'react';
import { attempt, confirmDeleteSelected, openSelectedProperties } from '../commands/actions.js';
import { useStoreApi } from '../store/use-app-store.js';

/** What the keys need from the grid. */
export interface ListKeyTarget {
  count: number;
  /** Rows that fit in the viewport (Page Up/Down move by one less, keeping one row of context). */
  pageRows: number;
  scrollToIndex: (index: number) => void;
  /** Opens the context menu of the selection beside the focused row. */
  openMenuAtFocus: () => void;
}

/** The keydown handler of the grid. */
export function useListKeys({ count, pageRows, scrollToIndex, openMenuAtFocus }: ListKeyTarget) {
  const store = useStoreApi();

  const moveTo = (index: number, event: KeyboardEvent) => {
    const clamped = Math.max(0, Math.min(count - 1, index));
    const s = store.getState();
    if (event.shiftKey) s.selectIndex(clamped, 'range');
    else if (event.ctrlKey || event.metaKey) s.focusIndexOnly(clamped);
    else s.selectIndex(clamped, 'replace');
    scrollToIndex(clamped);
  };

  return (event: KeyboardEvent) => {
    if (count === 0) return;
    const s = store.getState();
    const current = s.focusIndex ?? -1;
    const ctrl = event.ctrlKey || event.metaKey;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(current + 1, event);
        break;
      case 'ArrowUp':
        moveTo(current - 1, event);
        break;
      case 'PageDown':
        moveTo(current + pageRows - 1, event);
        break;
      case 'PageUp':
        moveTo(current - pageRows + 1, event);
        break;
      case 'Home':
        moveTo(0, event);
        break;
      case 'End':
        moveTo(count - 1, event);
        break;
      case ' ':
        if (current >= 0) s.selectIndex(current, ctrl ? 'toggle' : 'replace');
        break;
      case 'a':
      case 'A':
        if (!ctrl) return;
        s.selectAll();
        break;
      case 'c':
      case 'C':
        if (!ctrl) return;
        attempt(store, 'Copy messages', () => s.copyToClipboard());
        break;
      case 'Enter':
        if (event.altKey) return; // Alt+Enter is the window's Properties shortcut.
        openSelectedProperties(store);
        break;
      case 'Delete':
        confirmDeleteSelected(store);
        break;
      case 'F10':
        if (!event.shiftKey) return;
        openMenuAtFocus();
        break;
      case 'ContextMenu':
        openMenuAtFocus();
        break;
      default:
        return;
    }
    event.preventDefault();
  };
}
