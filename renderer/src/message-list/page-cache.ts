/**
 * The message list's page cache and fetch scheduler, free of React and of the store: pages of
 * `pageSize` rows around the visible window are fetched from the service, kept up to a bound, and
 * refreshed in place when the queue changes. Nothing here ever holds a whole million-message queue.
 */
import type { MessageInfo } from '@qk/model';

/** Rows per browse call (the service allows up to 1,000). */
export const PAGE_SIZE = 200;

/** One page of the current view, from the service. */
export type PageFetcher = (offset: number, limit: number) => Promise<{ total: number; messages: MessageInfo[] }>;

/** Loaded pages by page number; replaced (never mutated) on every change, so views can compare by identity. */
export type Pages = Readonly<Record<number, readonly MessageInfo[]>>;

/** What the cache tells its owner. */
export interface PageCacheListener {
  /** A page arrived; `previous` is what that page showed before (a refresh), for pruning the selection. */
  pageLoaded(page: number, previous: readonly MessageInfo[] | undefined): void;
  /** A browse failed (after the view it was for is still the current one). */
  pageFailed(error: unknown): void;
}

/** Tuning; the defaults are what the console uses. */
export interface PageCacheOptions {
  pageSize?: number;
  /** Pages kept around the window; the rest are dropped so memory stays flat while scrolling. */
  maxCachedPages?: number;
  /**
   * Browse calls in flight at once. A fast scroll passes hundreds of windows; asking for each would queue
   * seconds of deep-offset pages on the service. Only pages of the latest window are fetched, two at a time.
   */
  maxInFlight?: number;
}

/** The cache of one list view at a time (`reset` starts another). */
export class PageCache {
  readonly pageSize: number;
  readonly #maxCachedPages: number;
  readonly #maxInFlight: number;
  readonly #listener: PageCacheListener;
  #fetcher: PageFetcher | null = null;
  #pages: Pages = {};
  #total: number | null = null;
  /** Rows the view last asked for; an invalidation reloads exactly these. */
  #range: [number, number];
  /** Pages being fetched → the request's number (a late answer of an older request must not clear a newer one). */
  readonly #inFlight = new Map<number, number>();
  #requestSeq = 0;
  /** Pages shown but out of date, kept until their refresh lands so the list does not flicker. */
  #stale = new Set<number>();
  /** Bumped by reset and invalidate: answers to requests made before are dropped. */
  #epoch = 0;

  constructor(listener: PageCacheListener, options: PageCacheOptions = {}) {
    this.#listener = listener;
    this.pageSize = options.pageSize ?? PAGE_SIZE;
    this.#maxCachedPages = options.maxCachedPages ?? 40;
    this.#maxInFlight = options.maxInFlight ?? 2;
    this.#range = [0, this.pageSize - 1];
  }

  /** Loaded pages. */
  get pages(): Pages {
    return this.#pages;
  }

  /** Rows of the view (matching its filter); null until the first page arrives. */
  get total(): number | null {
    return this.#total;
  }

  /** Browse calls on their way (for tests and diagnostics). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** The row at a position, when its page is loaded. */
  rowAt(index: number): MessageInfo | undefined {
    return rowAt(this.#pages, index, this.pageSize);
  }

  /** Starts a new view (another queue, sort or filter); null shows nothing. What was loaded or asked is forgotten. */
  reset(fetcher: PageFetcher | null): void {
    this.#epoch += 1;
    this.#fetcher = fetcher;
    this.#inFlight.clear();
    this.#stale = new Set();
    this.#pages = {};
    this.#total = null;
    this.#range = [0, this.pageSize - 1];
    if (fetcher) this.#fetch(0);
  }

  /** Loads the pages covering rows [start, end] (the visible window plus its margin). */
  ensureRange(start: number, end: number): void {
    this.#range = [Math.max(0, start), Math.max(0, end)];
    this.#pump();
  }

  /**
   * The queue changed on the service: the pages in the window are refetched while their old rows stay on
   * screen; pages outside it are dropped (they are fetched again when scrolled to).
   */
  invalidate(): void {
    if (!this.#fetcher) return;
    // Requests already out answer for before the change: dropped on arrival, then refetched. They still
    // count against maxInFlight, so a flood of events cannot pile up browse calls on the service.
    this.#epoch += 1;
    const first = this.#pageOf(this.#range[0]);
    const last = this.#pageOf(this.#range[1]);
    const kept: Record<number, readonly MessageInfo[]> = {};
    for (const [key, rows] of Object.entries(this.#pages)) {
      const page = Number(key);
      if (page >= first && page <= last) kept[page] = rows;
    }
    this.#pages = kept;
    this.#stale = new Set(Object.keys(kept).map(Number));
    this.#pump();
  }

  #pageOf(index: number): number {
    return Math.floor(index / this.pageSize);
  }

  /** Starts fetches for pages of the latest window that are missing or stale, up to maxInFlight. */
  #pump(): void {
    if (!this.#fetcher) return;
    const [start, end] = this.#range;
    const lastRow = this.#total === null ? end : Math.min(end, Math.max(0, this.#total - 1));
    for (let page = this.#pageOf(start); page <= this.#pageOf(Math.max(0, lastRow)); page += 1) {
      if (this.#inFlight.size >= this.#maxInFlight) return;
      if (this.#inFlight.has(page)) continue;
      if (this.#pages[page] && !this.#stale.has(page)) continue;
      this.#fetch(page);
    }
  }

  #fetch(page: number): void {
    const fetcher = this.#fetcher;
    if (!fetcher) return;
    const request = ++this.#requestSeq;
    const epoch = this.#epoch;
    this.#inFlight.set(page, request);
    const settle = (): boolean => {
      if (this.#inFlight.get(page) === request) this.#inFlight.delete(page);
      if (epoch === this.#epoch) return true;
      this.#pump();
      return false;
    };
    fetcher(page * this.pageSize, this.pageSize).then(
      (result) => {
        if (!settle()) return;
        const previous = this.#pages[page];
        this.#stale.delete(page);
        const pages: Record<number, readonly MessageInfo[]> = { ...this.#pages, [page]: result.messages };
        this.#trim(pages, page);
        // The queue shrank: pages past its end are gone (page 0 stays, possibly empty).
        for (const key of Object.keys(pages).map(Number))
          if (key !== 0 && key * this.pageSize >= result.total) delete pages[key];
        this.#pages = pages;
        this.#total = result.total;
        this.#listener.pageLoaded(page, previous);
        this.#pump();
      },
      (error: unknown) => {
        if (settle()) this.#listener.pageFailed(error);
      },
    );
  }

  /** Keeps at most maxCachedPages: drops the pages farthest from the one that just arrived, never the window. */
  #trim(pages: Record<number, readonly MessageInfo[]>, around: number): void {
    const keys = Object.keys(pages).map(Number);
    if (keys.length <= this.#maxCachedPages) return;
    const first = this.#pageOf(this.#range[0]);
    const last = this.#pageOf(this.#range[1]);
    keys
      .filter((k) => k !== around && (k < first || k > last))
      .sort((a, b) => Math.abs(b - around) - Math.abs(a - around))
      .slice(0, keys.length - this.#maxCachedPages)
      .forEach((k) => delete pages[k]);
  }
}

/** The row at a position of loaded pages. */
export function rowAt(pages: Pages, index: number, pageSize = PAGE_SIZE): MessageInfo | undefined {
  return pages[Math.floor(index / pageSize)]?.[index % pageSize];
}
