/**
 * react-virtual over more rows than a browser can lay out. Chromium caps an element's height near 33M px
 * (other engines near 17M); a million 20 px rows is 20M px. Past MAX_CONTENT_PX the scroll container's
 * content is compressed: the virtualizer works in "virtual" pixels, the DOM in real ones, and each row is
 * placed relative to the real scroll position, so scrolling to the end reaches the last row exactly.
 */
import { elementScroll, observeElementOffset, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type RefObject } from 'react';

/** Content height above which positions are compressed (safe in every engine). */
export const MAX_CONTENT_PX = 8_000_000;

/** The virtualizer plus what rendering needs to place rows. */
export interface ScaledVirtualizer {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  /** Real height of the scrollable content. */
  contentHeight: number;
  /** Real top of a row, given its virtual start. */
  rowTop(virtualStart: number): number;
}

/** A virtualizer for `count` rows of `rowHeight` px inside `scrollRef`, below a `headerHeight` px sticky header. */
export function useScaledVirtualizer(count: number, rowHeight: number, headerHeight: number, scrollRef: RefObject<HTMLDivElement | null>): ScaledVirtualizer {
  const virtualTotal = count * rowHeight;
  const contentHeight = Math.min(virtualTotal, MAX_CONTENT_PX);
  const scaleRef = useRef(1);
  const viewport = Math.max(0, (scrollRef.current?.clientHeight ?? 0) - headerHeight);
  // virtualOffset = realOffset * scale maps the last real scroll position onto the last virtual one.
  scaleRef.current = virtualTotal > MAX_CONTENT_PX && contentHeight > viewport ? (virtualTotal - viewport) / (contentHeight - viewport) : 1;

  const virtualizer = useVirtualizer<HTMLDivElement, Element>({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
    observeElementOffset: (instance, cb) => observeElementOffset(instance, (offset, isScrolling) => cb(offset * scaleRef.current, isScrolling)),
    scrollToFn: (offset, options, instance) => elementScroll(offset / scaleRef.current, options, instance),
  });

  // With compression a wheel notch would jump `scale` times further; scroll by the real delta instead.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return undefined;
    const onWheel = (event: WheelEvent) => {
      const scale = scaleRef.current;
      if (scale <= 1 || event.ctrlKey || Math.abs(event.deltaY) < Math.abs(event.deltaX)) return;
      event.preventDefault();
      const lines = event.deltaMode === 1 ? rowHeight : event.deltaMode === 2 ? element.clientHeight : 1;
      element.scrollTop += (event.deltaY * lines) / scale;
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [scrollRef, rowHeight]);

  const virtualOffset = virtualizer.scrollOffset ?? 0;
  const shift = virtualOffset - virtualOffset / scaleRef.current;
  return {
    virtualizer,
    contentHeight,
    rowTop: (virtualStart) => virtualStart - headerHeight - shift,
  };
}
