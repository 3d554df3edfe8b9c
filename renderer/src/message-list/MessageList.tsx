/**
 * The message list: a virtualized ARIA grid over the service's paging. Only the rows in view (plus a
 * margin) exist in the DOM and in memory; sort and filter are evaluated by the service.
 */
import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef, type DragEvent, type MouseEvent } from 'react';
import type { MessageInfo } from '@qk/model';
import { buildActions, openSelectedProperties } from '../commands/actions.js';
import { startMessageDrag } from '../messages/message-drag.js';
import { useContextMenu } from '../shell/ContextMenu.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { isFilterActive } from './list-query.js';
import { messageColumns } from './message-columns.js';
import { HEADER_HEIGHT, MessageListHeader } from './MessageListHeader.js';
import { MessageRow, ROW_HEIGHT, rowDomId } from './MessageRow.js';
import { rowAt } from './page-cache.js';
import { useListKeys } from './use-list-keys.js';
import { useRowWindow } from './use-row-window.js';

const EMPTY_ROWS: MessageInfo[] = [];

/** The message grid of the selected queue. */
export function MessageList({ caption }: { caption: string }) {
  const store = useStoreApi();
  const total = useAppStore((s) => s.total);
  const pages = useAppStore((s) => s.pages);
  const generation = useAppStore((s) => s.generation);
  const selection = useAppStore((s) => s.selection);
  const allSelected = useAppStore((s) => s.allSelected);
  const focusIndex = useAppStore((s) => s.focusIndex);
  const filtered = useAppStore((s) => isFilterActive(s.filter));
  const visibleColumns = useAppStore((s) => s.columns);
  const columnSizes = useAppStore((s) => s.columnSizes);
  const listError = useAppStore((s) => s.listError);
  const scrollRef = useRef<HTMLDivElement>(null);
  const openMenu = useContextMenu();
  const count = total ?? 0;
  const { rows, first, last, contentHeight, blockTop, pageRows, scrollToIndex } = useRowWindow(
    count,
    ROW_HEIGHT,
    HEADER_HEIGHT,
    scrollRef,
  );

  // A new view (queue, sort or filter) starts at the top; a refresh (same generation line) keeps its place.
  const viewKey = useAppStore(
    (s) => `${s.target?.computer}|${s.target?.path}|${s.sort.column}|${s.sort.descending}|${JSON.stringify(s.filter)}`,
  );
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [viewKey]);

  useEffect(() => {
    if (count > 0) store.getState().ensureRange(first, last);
  }, [first, last, count, generation, store]);

  const columnVisibility = useMemo(
    () => Object.fromEntries(messageColumns.map((c) => [c.id as string, visibleColumns.includes(c.id as string)])),
    [visibleColumns],
  );
  const table = useReactTable({
    // The table models columns, order, visibility and sizes; rows are rendered by MessageRow from the pages.
    data: EMPTY_ROWS,
    columns: messageColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.lookupId),
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    columnResizeMode: 'onChange',
    state: { columnVisibility, columnOrder: visibleColumns, columnSizing: columnSizes },
    onColumnSizingChange: (updater) => {
      const current = store.getState().columnSizes;
      store.getState().setColumnSizes(typeof updater === 'function' ? updater(current) : updater);
    },
  });
  const leafColumns = table.getVisibleLeafColumns();
  const totalWidth = table.getTotalSize();

  const onKeyDown = useListKeys({
    count,
    pageRows,
    scrollToIndex,
    openMenuAtFocus: () => {
      const rect = scrollRef.current?.getBoundingClientRect();
      const focus = store.getState().focusIndex ?? first;
      openMenu(
        (rect?.left ?? 0) + 40,
        (rect?.top ?? 0) + HEADER_HEIGHT + (focus - first + 1) * ROW_HEIGHT,
        buildActions(store).selectionActions,
      );
    },
  });

  const onRowMouseDown = useCallback(
    (event: MouseEvent, index: number, shown: MessageInfo | undefined) => {
      const s = store.getState();
      if (event.button === 2) {
        // Right-click acts on the row under the pointer, keeping a selection it belongs to (Explorer's rule).
        const row = shown ?? s.messageAt(index);
        if (row && !s.selection[row.lookupId] && !s.allSelected) s.selectIndex(index, 'replace', row);
        return;
      }
      const mode = event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'replace';
      s.selectIndex(index, mode, shown);
    },
    [store],
  );
  const onRowDoubleClick = useCallback(() => openSelectedProperties(store), [store]);
  const onRowDragStart = useCallback(
    (event: DragEvent, index: number, shown: MessageInfo | undefined) => {
      const s = store.getState();
      const row = shown ?? s.messageAt(index);
      if (!s.target || !row) return;
      // Dragging an unselected row drags that row alone, as in Explorer.
      if (!s.selection[row.lookupId] && !s.allSelected) s.selectIndex(index, 'replace', row);
      startMessageDrag(event, {
        computer: s.target.computer,
        path: s.target.path,
        count: store.getState().selectedCount(),
      });
    },
    [store],
  );

  return (
    <div className="list-wrap">
      {listError && (
        <div className="inline-error" role="alert">
          {listError}
        </div>
      )}
      <div
        ref={scrollRef}
        className="grid message-grid"
        role="grid"
        aria-label={caption}
        aria-rowcount={count + 1}
        aria-multiselectable="true"
        tabIndex={0}
        aria-activedescendant={
          focusIndex !== null && focusIndex >= first && focusIndex <= last ? rowDomId(focusIndex) : undefined
        }
        onKeyDown={onKeyDown}
        onContextMenu={(e) => {
          e.preventDefault();
          openMenu(e.clientX, e.clientY, buildActions(store).selectionActions);
        }}
      >
        <MessageListHeader headers={table.getHeaderGroups()[0]?.headers ?? []} width={totalWidth} />
        <div className="grid-body" style={{ height: contentHeight, width: totalWidth }}>
          <div className="grid-rows" style={{ transform: `translateY(${blockTop}px)` }}>
            {rows.map((item) => {
              const message = rowAt(pages, item.index);
              return (
                <MessageRow
                  key={item.index}
                  index={item.index}
                  top={item.top}
                  message={message}
                  selected={message ? allSelected || selection[message.lookupId] === true : false}
                  focused={item.index === focusIndex}
                  columns={leafColumns}
                  sizes={columnSizes}
                  onMouseDown={onRowMouseDown}
                  onDoubleClick={onRowDoubleClick}
                  onDragStart={onRowDragStart}
                />
              );
            })}
          </div>
        </div>
        {total === 0 && (
          <div className="empty-note">
            There are no messages in this queue{filtered ? ' that match the filter' : ''}.
          </div>
        )}
      </div>
    </div>
  );
}
