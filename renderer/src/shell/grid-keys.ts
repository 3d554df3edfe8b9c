/**
 * The keyboard of the result pane's small grids (queue lists, outgoing queues, a node's children), as MMC's
 * list view has it: arrows, Home and End move the selection, Enter opens, Delete deletes, Shift+F10 and the
 * Menu key open the selected row's context menu under the row. The message list has its own (use-list-keys),
 * because its rows are paged in from the service.
 */
import type { KeyboardEvent } from 'react';

export interface GridKeys {
  /** How many rows the grid has. */
  count: number;
  /** The selected row's position, or -1 when no row of this grid is selected. */
  current: number;
  /** Where the keyboard is when nothing is selected (the last row focused). */
  focused: number;
  select(index: number): void;
  open(index: number): void;
  /** Left out where rows cannot be deleted. */
  remove?: () => void;
  /** Opens the context menu of the selection at the given screen position. */
  openMenuAt(x: number, y: number): void;
  /** The DOM id of a row, to place the menu under it. */
  rowId(index: number): string;
}

/** Handles one key; returns without preventing the default for keys the grid does not use. */
export function onGridKeyDown(event: KeyboardEvent, grid: GridKeys): void {
  const { count, current } = grid;
  const at = current >= 0 ? current : grid.focused;
  switch (event.key) {
    case 'ArrowDown':
      grid.select(Math.min(count - 1, current < 0 ? 0 : at + 1));
      break;
    case 'ArrowUp':
      grid.select(Math.max(0, at - 1));
      break;
    case 'Home':
      grid.select(0);
      break;
    case 'End':
      grid.select(count - 1);
      break;
    case 'Enter':
      if (event.altKey) return;
      if (current < 0) grid.select(at);
      grid.open(at);
      break;
    case 'Delete':
      if (!grid.remove) return;
      grid.remove();
      break;
    case 'F10':
    case 'ContextMenu': {
      if (event.key === 'F10' && !event.shiftKey) return;
      if (current < 0) grid.select(at);
      const rect = document.getElementById(grid.rowId(at))?.getBoundingClientRect();
      grid.openMenuAt((rect?.left ?? 0) + 24, rect?.bottom ?? 0);
      break;
    }
    default:
      return;
  }
  event.preventDefault();
}
