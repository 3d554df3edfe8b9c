/**
 * Windowing for a list of fixed-height rows, over any number of rows. Browsers cap an element's height
 * (Chromium near 33.5M px, others near 17.9M px), so past MAX_CONTENT_PX the scrollable content is
 * compressed: positions are computed in "virtual" pixels (row index × row height) and each rendered
 * row is placed relative to the real scroll position, so the first and last rows are reached exactly
 * and wheel scrolling still moves by real pixels.
 *
 * Why not @tanstack/react-virtual (dropped from the dependencies; docs/console.md): its virtualizer clamps
 * every programmatic scroll to the element's real scroll range (`scrollHeight - clientHeight`), so a custom
 * `observeElementOffset`/`scrollToFn` pair that maps a compressed range still cannot reach rows past it, and
 * it rebuilds its measurement arrays (two entries per row) whenever the count changes — every live arrival
 * in a million-row queue. With fixed heights the window is plain arithmetic.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Content height above which positions are compressed (below every engine's limit). */
export const MAX_CONTENT_PX = 15_000_000;

/** A row to render. */
export interface WindowRow {
  index: number;
  /** Top in px within the rows block (see `blockTop`): constant while the row stays in the window. */
  top: number;
}

/**
 * Rows are placed in a block that moves as a whole, so a row keeps its own offset while scrolling and
 * React can skip re-rendering it; the block's base index changes only every BLOCK_ROWS rows.
 */
const BLOCK_ROWS = 5_000;

/** What the list renders and how it moves. */
export interface RowWindow {
  rows: WindowRow[];
  first: number;
  last: number;
  /** Real height of the rows container. */
  contentHeight: number;
  /** Real top of the rows block inside the container. */
  blockTop: number;
  /** Rows that fit in the viewport. */
  pageRows: number;
  /** Scrolls so the row is visible ('auto' = the least movement). */
  scrollToIndex: (index: number, align?: 'auto' | 'start' | 'end') => void;
}

/** Computes the window for `count` rows of `rowHeight` px under a `headerHeight` px sticky header. */
export function computeWindow(count: number, rowHeight: number, viewport: number, scrollTop: number, overscan: number) {
  const virtualTotal = count * rowHeight;
  const contentHeight = Math.min(virtualTotal, MAX_CONTENT_PX);
  const scale =
    virtualTotal > contentHeight && contentHeight > viewport
      ? (virtualTotal - viewport) / (contentHeight - viewport)
      : 1;
  const realTop = Math.max(0, Math.min(scrollTop, Math.max(0, contentHeight - viewport)));
  const virtualTop = realTop * scale;
  const first = Math.max(0, Math.floor(virtualTop / rowHeight) - overscan);
  const last = count === 0 ? -1 : Math.min(count - 1, Math.ceil((virtualTop + viewport) / rowHeight) + overscan);
  const shift = virtualTop - realTop;
  const base = first - (first % BLOCK_ROWS);
  const rows: WindowRow[] = [];
  for (let index = first; index <= last; index += 1) rows.push({ index, top: (index - base) * rowHeight });
  return { rows, first, last, contentHeight, scale, blockTop: base * rowHeight - shift };
}

/** The real scrollTop that shows row `index` ('auto' keeps the current position when it is visible). */
export function scrollTopFor(
  index: number,
  align: 'auto' | 'start' | 'end',
  count: number,
  rowHeight: number,
  viewport: number,
  scrollTop: number,
): number {
  const { scale } = computeWindow(count, rowHeight, viewport, scrollTop, 0);
  const virtualTop = scrollTop * scale;
  const rowTop = index * rowHeight;
  const rowBottom = rowTop + rowHeight;
  let target = virtualTop;
  if (align === 'start' || (align === 'auto' && rowTop < virtualTop)) target = rowTop;
  else if (align === 'end' || (align === 'auto' && rowBottom > virtualTop + viewport)) target = rowBottom - viewport;
  return Math.max(0, target / scale);
}

/** The windowing hook for the scroll element `scrollRef`. */
export function useRowWindow(
  count: number,
  rowHeight: number,
  headerHeight: number,
  scrollRef: RefObject<HTMLDivElement | null>,
  overscan = 10,
): RowWindow {
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const scaleRef = useRef(1);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return undefined;
    const measure = () => setViewport(Math.max(0, element.clientHeight - headerHeight));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const onScroll = () => setScrollTop(element.scrollTop);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', onScroll);
    };
  }, [scrollRef, headerHeight]);

  // With compression a wheel notch would move `scale` times further; move by the real delta instead.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return undefined;
    const onWheel = (event: WheelEvent) => {
      const scale = scaleRef.current;
      if (scale <= 1 || event.ctrlKey || Math.abs(event.deltaY) < Math.abs(event.deltaX)) return;
      event.preventDefault();
      const unit = event.deltaMode === 1 ? rowHeight : event.deltaMode === 2 ? element.clientHeight : 1;
      element.scrollTop += (event.deltaY * unit) / scale;
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [scrollRef, rowHeight]);

  const win = computeWindow(count, rowHeight, viewport, scrollTop, overscan);
  useLayoutEffect(() => {
    scaleRef.current = win.scale;
  }, [win.scale]);

  const scrollToIndex = useCallback(
    (index: number, align: 'auto' | 'start' | 'end' = 'auto') => {
      const element = scrollRef.current;
      if (!element) return;
      const top = scrollTopFor(
        index,
        align,
        count,
        rowHeight,
        Math.max(0, element.clientHeight - headerHeight),
        element.scrollTop,
      );
      element.scrollTop = top;
      setScrollTop(element.scrollTop);
    },
    [scrollRef, count, rowHeight, headerHeight],
  );

  return {
    rows: win.rows,
    first: win.first,
    last: win.last,
    contentHeight: win.contentHeight,
    blockTop: win.blockTop,
    pageRows: Math.max(1, Math.floor(viewport / rowHeight)),
    scrollToIndex,
  };
}
