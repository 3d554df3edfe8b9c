/**
 * The message list in the store: binds the page cache (fetching) and the selection model (pure functions)
 * to the view the user chose — queue, sort, filter — and keeps them consistent when it changes.
 */
import type { SliceCreator } from '../store/shared.js';
import { browseInput, defaultSort, emptyFilter } from './list-query.js';
import type { ListSlice } from './list-types.js';
import { PageCache } from './page-cache.js';
import {
  applyPendingSelect,
  clearSelected,
  focusRow,
  noSelection,
  pruneSelection,
  selectAllRows,
  selectedCount,
  selectedIds,
  selectRow,
  type ListSelection,
} from './selection.js';

/** Rows per browse call when listing every lookup ID of a Ctrl+A selection. */
const RESOLVE_PAGE = 1_000;

export const createListSlice: SliceCreator<ListSlice> = (set, get, ctx) => {
  const selectionOf = (s: ListSelection): ListSelection => ({
    selection: s.selection,
    allSelected: s.allSelected,
    anchorIndex: s.anchorIndex,
    focusIndex: s.focusIndex,
    pendingSelect: s.pendingSelect,
  });

  const cache = new PageCache({
    pageLoaded(_page, previous) {
      set((s) => {
        const selection = selectionOf(s);
        const pruned = { ...selection, selection: pruneSelection(s.selection, previous, Object.values(cache.pages)) };
        return {
          pages: cache.pages,
          total: cache.total,
          listError: null,
          ...applyPendingSelect(pruned, (i) => cache.rowAt(i)),
        };
      });
    },
    pageFailed(error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: string }).code;
      set({ listError: code ? `${code}: ${message}` : message });
    },
  });

  /** Starts a new view of the current target with the current sort and filter (back to the first page). */
  function resetView(patch: Partial<ListSlice>): void {
    set((s) => ({
      ...noSelection,
      pages: {},
      total: null,
      listError: null,
      generation: s.generation + 1,
      ...patch,
    }));
    const { target } = get();
    if (!target || !ctx.hasClient(target.computer)) {
      cache.reset(null);
      return;
    }
    const client = ctx.clientFor(target.computer);
    const { sort, filter } = get();
    cache.reset((offset, limit) => client.browse(browseInput(target.path, sort, filter, offset, limit)));
  }

  return {
    ...noSelection,
    target: null,
    total: null,
    pages: {},
    sort: defaultSort,
    filter: emptyFilter,
    filterVisible: false,
    listError: null,
    generation: 0,

    setTarget(target) {
      const current = get().target;
      if (
        current === target ||
        (current && target && current.computer === target.computer && current.path === target.path)
      )
        return;
      // A filter belongs to the queue it was set on: the next queue starts unfiltered.
      resetView({ target, filter: emptyFilter, sort: defaultSort });
    },

    ensureRange(start, end) {
      cache.ensureRange(start, end);
    },

    invalidateList() {
      if (!get().target) return;
      cache.invalidate();
      set((s) => ({ pages: cache.pages, generation: s.generation + 1 }));
    },

    messageAt(index) {
      return cache.rowAt(index);
    },

    setSort(sort) {
      resetView({ sort });
    },

    setFilter(patch) {
      resetView({ filter: { ...get().filter, ...patch } });
    },

    setFilterVisible(visible) {
      set({ filterVisible: visible });
    },

    selectIndex(index, mode, shown) {
      set(selectRow(selectionOf(get()), index, mode, (i) => (i === index && shown ? shown : cache.rowAt(i))));
    },

    focusIndexOnly(index) {
      set(focusRow(selectionOf(get()), index));
    },

    selectAll() {
      set(selectAllRows(selectionOf(get()), Object.values(cache.pages)));
    },

    clearSelection() {
      set(clearSelected(selectionOf(get())));
    },

    selectedCount() {
      return selectedCount(get(), get().total);
    },

    async resolveSelection(signal) {
      const { allSelected, target, sort, filter } = get();
      if (!allSelected) return selectedIds(get());
      if (!target) return [];
      // A set: an arrival ahead of the read position shifts the pages, and a message read twice is one message.
      const ids = new Set<number>();
      const client = ctx.clientFor(target.computer);
      for (let offset = 0; ; offset += RESOLVE_PAGE) {
        if (signal?.aborted) break;
        const page = await client.browse(browseInput(target.path, sort, filter, offset, RESOLVE_PAGE));
        for (const message of page.messages) ids.add(message.lookupId);
        if (page.messages.length < RESOLVE_PAGE || offset + RESOLVE_PAGE >= page.total) break;
      }
      return [...ids];
    },
  };
};
