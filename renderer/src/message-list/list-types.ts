/** State and actions of the message list (the store's list slice), typed apart from their implementation. */
import type { MessageInfo } from '@qk/model';
import type { ListFilter, ListSort, ListTarget } from './list-query.js';
import type { Pages } from './page-cache.js';
import type { ListSelection, SelectMode } from './selection.js';

export interface ListSlice extends ListSelection {
  target: ListTarget | null;
  /** Messages matching the filter; null until the first page arrives. */
  total: number | null;
  pages: Pages;
  sort: ListSort;
  filter: ListFilter;
  filterVisible: boolean;
  listError: string | null;
  /** Bumped on every new view and invalidation, so views re-request their window. */
  generation: number;
  setTarget(target: ListTarget | null): void;
  /** Loads the pages covering rows [start, end]. */
  ensureRange(start: number, end: number): void;
  invalidateList(): void;
  messageAt(index: number): MessageInfo | undefined;
  setSort(sort: ListSort): void;
  setFilter(filter: Partial<ListFilter>): void;
  setFilterVisible(visible: boolean): void;
  /**
   * Selects the row at `index`. `shown` is the message the row displayed when it was clicked: the selection
   * takes it rather than whatever the refreshed pages now hold at that position (a Delete must act on what the
   * administrator saw).
   */
  selectIndex(index: number, mode: SelectMode, shown?: MessageInfo): void;
  /** Moves the keyboard focus without changing the selection. */
  focusIndexOnly(index: number): void;
  selectAll(): void;
  clearSelection(): void;
  selectedCount(): number;
  /** Lookup IDs of the selection, paging through the service when everything is selected. */
  resolveSelection(signal?: AbortSignal): Promise<number[]>;
}
