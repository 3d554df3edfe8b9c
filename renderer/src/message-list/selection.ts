/**
 * The message list's selection as pure functions over plain data: click, Ctrl+click, Shift+click,
 * Ctrl+A over rows that may not be loaded yet, and what happens to the selection when pages refresh.
 * Rows are identified by lookup ID (stable while a message stays in its queue), not by position.
 */
import type { MessageInfo } from '@qk/model';

/** How a click or key changes the selection. */
export type SelectMode = 'replace' | 'toggle' | 'range';

/** The selection fields of the list state. */
export interface ListSelection {
  /** lookupId → true. */
  selection: Record<number, true>;
  /** Ctrl+A: every message of the (filtered) list, loaded or not. */
  allSelected: boolean;
  anchorIndex: number | null;
  focusIndex: number | null;
  /** A keyboard move onto a row whose page is still on its way (End in a million rows): applied on arrival. */
  pendingSelect: { index: number; mode: SelectMode } | null;
}

/** Reads the row at a position, or undefined when its page is not loaded. */
export type RowAt = (index: number) => MessageInfo | undefined;

export const noSelection: ListSelection = {
  selection: {},
  allSelected: false,
  anchorIndex: null,
  focusIndex: null,
  pendingSelect: null,
};

/** Selects the row at `index`; a row not loaded yet gets the focus now and the selection when it arrives. */
export function selectRow(state: ListSelection, index: number, mode: SelectMode, rowAt: RowAt): ListSelection {
  const message = rowAt(index);
  if (!message) return { ...state, focusIndex: index, pendingSelect: { index, mode } };
  if (mode === 'replace') {
    return {
      selection: { [message.lookupId]: true },
      allSelected: false,
      anchorIndex: index,
      focusIndex: index,
      pendingSelect: null,
    };
  }
  if (mode === 'toggle') {
    const selection = { ...state.selection };
    if (selection[message.lookupId]) delete selection[message.lookupId];
    else selection[message.lookupId] = true;
    return { selection, allSelected: false, anchorIndex: index, focusIndex: index, pendingSelect: null };
  }
  const anchor = state.anchorIndex ?? index;
  const selection: Record<number, true> = {};
  for (let i = Math.min(anchor, index); i <= Math.max(anchor, index); i += 1) {
    const row = rowAt(i);
    if (row) selection[row.lookupId] = true;
  }
  return { ...state, selection, allSelected: false, focusIndex: index, pendingSelect: null };
}

/** Moves the focus without changing the selection (Ctrl+arrow). */
export function focusRow(state: ListSelection, index: number): ListSelection {
  return { ...state, focusIndex: index, pendingSelect: null };
}

/** Applies a pending keyboard selection once its row is loaded (and the focus is still there). */
export function applyPendingSelect(state: ListSelection, rowAt: RowAt): ListSelection {
  const pending = state.pendingSelect;
  if (!pending || !rowAt(pending.index)) return state;
  if (state.focusIndex !== pending.index) return { ...state, pendingSelect: null };
  return selectRow({ ...state, pendingSelect: null }, pending.index, pending.mode, rowAt);
}

/** Ctrl+A: every row of the list, including rows never loaded (resolved through the service when acted on). */
export function selectAllRows(state: ListSelection, loaded: Iterable<readonly MessageInfo[]>): ListSelection {
  const selection: Record<number, true> = {};
  for (const rows of loaded) for (const row of rows) selection[row.lookupId] = true;
  return { ...state, selection, allSelected: true, pendingSelect: null };
}

/** Nothing selected; the focus stays where it is. */
export function clearSelected(state: ListSelection): ListSelection {
  return { ...state, selection: {}, allSelected: false, anchorIndex: null, pendingSelect: null };
}

/** How many messages the selection stands for. */
export function selectedCount(state: Pick<ListSelection, 'selection' | 'allSelected'>, total: number | null): number {
  if (state.allSelected) return total ?? 0;
  return Object.keys(state.selection).length;
}

/** The selected lookup IDs that are known without asking the service (all of them unless Ctrl+A). */
export function selectedIds(state: Pick<ListSelection, 'selection'>): number[] {
  return Object.keys(state.selection).map(Number);
}

/**
 * Drops selected IDs that were on a refreshed page and are on no loaded page now (deleted, received, or
 * moved by someone else), so actions never act on messages that are gone.
 */
export function pruneSelection(
  selection: Record<number, true>,
  before: readonly MessageInfo[] | undefined,
  loaded: Iterable<readonly MessageInfo[]>,
): Record<number, true> {
  if (!before || Object.keys(selection).length === 0) return selection;
  const stillHere = new Set<number>();
  for (const rows of loaded) for (const row of rows) stillHere.add(row.lookupId);
  let next: Record<number, true> | null = null;
  for (const row of before) {
    if (selection[row.lookupId] && !stillHere.has(row.lookupId)) {
      next ??= { ...selection };
      delete next[row.lookupId];
    }
  }
  return next ?? selection;
}
