/**
 * The message list over the service's paging: pages of PAGE_SIZE rows around the visible window are
 * fetched with the service-side sort and filter, cached, and refreshed in place when events say the
 * queue changed. Nothing here ever holds a whole million-message queue.
 */
import type { MessageInfo } from '@qk/model';
import type { SliceCreator } from './shared.js';
import type { ListFilter, ListSlice, ListSort, ListTarget } from './types.js';

/** Rows per browse call (the service allows up to 1,000). */
export const PAGE_SIZE = 200;
/** Pages kept around the window; the rest are dropped so memory stays flat while scrolling. */
const MAX_CACHED_PAGES = 40;
/** Page size when listing every lookup ID of a selection. */
const RESOLVE_PAGE = 1_000;
/**
 * Browse calls in flight at once. A fast scroll passes hundreds of windows; asking for each would queue
 * seconds of deep-offset pages on the service. Only pages of the latest window are fetched, two at a time.
 */
const MAX_IN_FLIGHT = 2;

export const emptyFilter: ListFilter = { label: '', bodyText: '', classCodes: [], arrivedFrom: '', arrivedTo: '' };
export const defaultSort: ListSort = { column: 'queue', descending: false };

/** The browse filter the service evaluates; empty fields are left out. */
export function serviceFilter(
  filter: ListFilter,
): { label?: string; bodyText?: string; classCodes?: number[]; arrivedFrom?: string; arrivedTo?: string } | undefined {
  const out: { label?: string; bodyText?: string; classCodes?: number[]; arrivedFrom?: string; arrivedTo?: string } =
    {};
  if (filter.label.trim()) out.label = filter.label.trim();
  if (filter.bodyText.trim()) out.bodyText = filter.bodyText.trim();
  if (filter.classCodes.length > 0) out.classCodes = [...filter.classCodes];
  const from = localToIso(filter.arrivedFrom);
  const to = localToIso(filter.arrivedTo);
  if (from) out.arrivedFrom = from;
  if (to) out.arrivedTo = to;
  return Object.keys(out).length > 0 ? out : undefined;
}

function localToIso(local: string): string | null {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Whether two filters ask the service for the same rows. */
export function isFilterActive(filter: ListFilter): boolean {
  return serviceFilter(filter) !== undefined;
}

export const createListSlice: SliceCreator<ListSlice> = (set, get, ctx) => {
  /** Rows the view last asked for; an invalidation reloads exactly these. */
  let lastRange: [number, number] = [0, PAGE_SIZE - 1];
  /** Pages being fetched → the request's number (a late answer of an older request must not clear a newer one). */
  const inFlight = new Map<number, number>();
  let requestSeq = 0;
  /** Pages that are shown but out of date (kept to avoid flicker until their refresh lands). */
  let stale = new Set<number>();
  let viewSeq = 0;
  /** A keyboard move onto a row whose page is still on its way (End in a million rows): selected on arrival. */
  let pendingSelect: { index: number; mode: 'replace' | 'toggle' | 'range' } | null = null;

  function fetchPage(page: number): void {
    const { target, sort, filter, generation } = get();
    if (!target || !ctx.hasClient(target.computer)) return;
    const request = ++requestSeq;
    inFlight.set(page, request);
    const view = viewSeq;
    const browseFilter = serviceFilter(filter);
    ctx
      .clientFor(target.computer)
      .browse({
        path: target.path,
        offset: page * PAGE_SIZE,
        limit: PAGE_SIZE,
        sort: { column: sort.column, descending: sort.descending },
        ...(browseFilter ? { filter: browseFilter } : {}),
      })
      .then(
        (result) => {
          if (inFlight.get(page) === request) inFlight.delete(page);
          if (view !== viewSeq || generation !== get().generation) {
            pump();
            return;
          }
          const previous = get().pages[page];
          stale.delete(page);
          set((s) => {
            const pages: Record<number, MessageInfo[]> = { ...s.pages, [page]: result.messages };
            trimPages(pages, page);
            for (const key of Object.keys(pages).map(Number))
              if (key * PAGE_SIZE >= result.total && key !== 0) delete pages[key];
            return {
              pages,
              total: result.total,
              listError: null,
              selection: pruneSelection(s.selection, previous, result.messages, pages),
            };
          });
          if (pendingSelect && Math.floor(pendingSelect.index / PAGE_SIZE) === page) {
            const { index, mode } = pendingSelect;
            pendingSelect = null;
            if (get().focusIndex === index) get().selectIndex(index, mode);
          }
          pump();
        },
        (error: unknown) => {
          if (inFlight.get(page) === request) inFlight.delete(page);
          if (view !== viewSeq || generation !== get().generation) {
            pump();
            return;
          }
          const message = error instanceof Error ? error.message : String(error);
          const code = (error as { code?: string }).code;
          set({ listError: code ? `${code}: ${message}` : message });
        },
      );
  }

  /** Starts fetches for pages of the latest window that are missing or stale, up to MAX_IN_FLIGHT. */
  function pump(): void {
    const { target, total } = get();
    if (!target) return;
    const [start, end] = lastRange;
    const lastRow = total === null ? end : Math.min(end, Math.max(0, total - 1));
    const pages = get().pages;
    for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(Math.max(0, lastRow) / PAGE_SIZE); page += 1) {
      if (inFlight.size >= MAX_IN_FLIGHT) return;
      if (inFlight.has(page)) continue;
      if (pages[page] && !stale.has(page)) continue;
      fetchPage(page);
    }
  }

  function trimPages(pages: Record<number, MessageInfo[]>, around: number): void {
    const keys = Object.keys(pages).map(Number);
    if (keys.length <= MAX_CACHED_PAGES) return;
    const first = Math.floor(lastRange[0] / PAGE_SIZE);
    const last = Math.floor(lastRange[1] / PAGE_SIZE);
    keys
      .filter((k) => k !== around && (k < first || k > last))
      .sort((a, b) => Math.abs(b - around) - Math.abs(a - around))
      .slice(0, keys.length - MAX_CACHED_PAGES)
      .forEach((k) => delete pages[k]);
  }

  function resetView(patch: Partial<ListSlice>): void {
    viewSeq += 1;
    pendingSelect = null;
    inFlight.clear();
    stale = new Set();
    lastRange = [0, PAGE_SIZE - 1];
    set((s) => ({
      pages: {},
      total: null,
      selection: {},
      allSelected: false,
      anchorIndex: null,
      focusIndex: null,
      listError: null,
      generation: s.generation + 1,
      ...patch,
    }));
    if (get().target) fetchPage(0);
  }

  return {
    target: null,
    total: null,
    pages: {},
    sort: defaultSort,
    filter: emptyFilter,
    filterVisible: false,
    selection: {},
    allSelected: false,
    anchorIndex: null,
    focusIndex: null,
    listError: null,
    generation: 0,

    setTarget(target: ListTarget | null) {
      const current = get().target;
      if (
        current === target ||
        (current && target && current.computer === target.computer && current.path === target.path)
      )
        return;
      resetView({ target, filter: emptyFilter, sort: defaultSort });
    },

    ensureRange(start, end) {
      lastRange = [Math.max(0, start), Math.max(0, end)];
      pump();
    },

    invalidateList() {
      if (!get().target) return;
      stale = new Set(Object.keys(get().pages).map(Number));
      // Requests already out answer for before the change: dropped on arrival, then refetched. They still
      // count against MAX_IN_FLIGHT, so a flood of events cannot pile up browse calls on the service.
      set((s) => ({ generation: s.generation + 1 }));
      const [start, end] = lastRange;
      const first = Math.floor(start / PAGE_SIZE);
      const last = Math.floor(end / PAGE_SIZE);
      // Pages outside the window will be refetched when scrolled to; drop them now.
      set((s) => {
        const pages: Record<number, MessageInfo[]> = {};
        for (const [key, rows] of Object.entries(s.pages))
          if (Number(key) >= first && Number(key) <= last) pages[Number(key)] = rows;
        return { pages };
      });
      pump();
    },

    messageAt(index) {
      return get().pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
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

    selectIndex(index, mode) {
      const message = get().messageAt(index);
      if (!message) {
        pendingSelect = { index, mode };
        set({ focusIndex: index });
        return;
      }
      pendingSelect = null;
      if (mode === 'replace') {
        set({ selection: { [message.lookupId]: true }, allSelected: false, anchorIndex: index, focusIndex: index });
      } else if (mode === 'toggle') {
        const selection = { ...get().selection };
        if (selection[message.lookupId]) delete selection[message.lookupId];
        else selection[message.lookupId] = true;
        set({ selection, allSelected: false, anchorIndex: index, focusIndex: index });
      } else {
        const anchor = get().anchorIndex ?? index;
        const selection: Record<number, true> = {};
        for (let i = Math.min(anchor, index); i <= Math.max(anchor, index); i += 1) {
          const row = get().messageAt(i);
          if (row) selection[row.lookupId] = true;
        }
        set({ selection, allSelected: false, focusIndex: index });
      }
    },

    selectAll() {
      const selection: Record<number, true> = {};
      for (const rows of Object.values(get().pages)) for (const row of rows) selection[row.lookupId] = true;
      set({ selection, allSelected: true });
    },

    clearSelection() {
      set({ selection: {}, allSelected: false, anchorIndex: null });
    },

    selectedCount() {
      const { allSelected, total, selection } = get();
      if (allSelected) return total ?? 0;
      return Object.keys(selection).length;
    },

    async resolveSelection(signal) {
      const { allSelected, selection, target, sort, filter } = get();
      if (!allSelected) return Object.keys(selection).map(Number);
      if (!target) return [];
      const ids: number[] = [];
      const client = ctx.clientFor(target.computer);
      const browseFilter = serviceFilter(filter);
      for (let offset = 0; ; offset += RESOLVE_PAGE) {
        if (signal?.aborted) break;
        const page = await client.browse({
          path: target.path,
          offset,
          limit: RESOLVE_PAGE,
          sort,
          ...(browseFilter ? { filter: browseFilter } : {}),
        });
        for (const message of page.messages) ids.push(message.lookupId);
        if (page.messages.length < RESOLVE_PAGE || offset + RESOLVE_PAGE >= page.total) break;
      }
      return ids;
    },
  };
};

/** Drops selected IDs that were on a refreshed page and are gone now (deleted or moved elsewhere). */
function pruneSelection(
  selection: Record<number, true>,
  before: MessageInfo[] | undefined,
  after: MessageInfo[],
  pages: Record<number, MessageInfo[]>,
): Record<number, true> {
  if (!before || Object.keys(selection).length === 0) return selection;
  const stillHere = new Set<number>();
  for (const rows of Object.values(pages)) for (const row of rows) stillHere.add(row.lookupId);
  for (const row of after) stillHere.add(row.lookupId);
  let changed = false;
  const next = { ...selection };
  for (const row of before) {
    if (next[row.lookupId] && !stillHere.has(row.lookupId)) {
      delete next[row.lookupId];
      changed = true;
    }
  }
  return changed ? next : selection;
}
