/**
 * The message list: a virtualized ARIA grid over the service's paging. Only the rows in view (plus a
 * margin) exist in the DOM and in memory; sort and filter are evaluated by the service.
 */
import { flexRender, getCoreRowModel, useReactTable, type Column } from '@tanstack/react-table';
import { memo, useCallback, useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { MessageInfo } from '@qk/model';
import { buildActions, confirmDeleteSelected, openSelectedProperties } from '../commands/actions.js';
import { columnMeta, messageColumns } from '../list/message-columns.js';
import { useRowWindow } from '../list/use-row-window.js';
import { defaultSort } from '../store/list-slice.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { useContextMenu } from './ContextMenu.js';

/** Row and header heights in px; fixed so the virtualizer never measures. */
export const ROW_HEIGHT = 20;
const HEADER_HEIGHT = 22;

/** The message grid of the selected queue. */
export function MessageList({ caption }: { caption: string }) {
  const store = useStoreApi();
  const total = useAppStore((s) => s.total);
  const pages = useAppStore((s) => s.pages);
  const generation = useAppStore((s) => s.generation);
  const selection = useAppStore((s) => s.selection);
  const allSelected = useAppStore((s) => s.allSelected);
  const focusIndex = useAppStore((s) => s.focusIndex);
  const sort = useAppStore((s) => s.sort);
  const visibleColumns = useAppStore((s) => s.columns);
  const columnSizes = useAppStore((s) => s.columnSizes);
  const listError = useAppStore((s) => s.listError);
  const target = useAppStore((s) => s.target);
  const scrollRef = useRef<HTMLDivElement>(null);
  const openMenu = useContextMenu();
  const count = total ?? 0;
  const {
    rows: items,
    first,
    last,
    contentHeight,
    blockTop,
    pageRows,
    scrollToIndex,
  } = useRowWindow(count, ROW_HEIGHT, HEADER_HEIGHT, scrollRef);

  // Back to the top when the list shows another queue, sort or filter (a new view, not a refresh).
  const viewKey = `${target?.computer}|${target?.path}|${sort.column}|${sort.descending}|${JSON.stringify(store.getState().filter)}`;
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
  const visibleLeafColumns = table.getVisibleLeafColumns();
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const totalWidth = table.getTotalSize();

  const focusRow = (index: number, mode: 'replace' | 'toggle' | 'range' | 'focus') => {
    const clamped = Math.max(0, Math.min(count - 1, index));
    if (mode === 'focus') store.setState({ focusIndex: clamped });
    else store.getState().selectIndex(clamped, mode);
    scrollToIndex(clamped);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (count === 0) return;
    const current = focusIndex ?? -1;
    const mode = event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'focus' : 'replace';
    switch (event.key) {
      case 'ArrowDown':
        focusRow(current + 1, mode);
        break;
      case 'ArrowUp':
        focusRow(current - 1, mode);
        break;
      case 'PageDown':
        focusRow(current + pageRows - 1, mode);
        break;
      case 'PageUp':
        focusRow(current - pageRows + 1, mode);
        break;
      case 'Home':
        focusRow(0, mode);
        break;
      case 'End':
        focusRow(count - 1, mode);
        break;
      case ' ':
        if (current >= 0) store.getState().selectIndex(current, event.ctrlKey ? 'toggle' : 'replace');
        break;
      case 'a':
      case 'A':
        if (!(event.ctrlKey || event.metaKey)) return;
        store.getState().selectAll();
        break;
      case 'Enter':
        openSelectedProperties(store);
        break;
      case 'Delete':
        confirmDeleteSelected(store);
        break;
      case 'ContextMenu': {
        const rect = scrollRef.current?.getBoundingClientRect();
        openMenu(
          (rect?.left ?? 0) + 40,
          (rect?.top ?? 0) + HEADER_HEIGHT + (current - first + 1) * ROW_HEIGHT,
          buildActions(store).selectionActions,
        );
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  const onRowMouseDown = useCallback(
    (event: MouseEvent, index: number) => {
      if (event.button === 2) {
        const row = store.getState().messageAt(index);
        if (row && !store.getState().selection[row.lookupId]) store.getState().selectIndex(index, 'replace');
        return;
      }
      store
        .getState()
        .selectIndex(index, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'replace');
    },
    [store],
  );
  const onRowDoubleClick = useCallback(() => openSelectedProperties(store), [store]);

  const onHeaderClick = (columnId: string) => {
    const sortable = columnMeta(columnId).sort;
    if (!sortable) return;
    // Ascending, then descending, then back to queue (receive) order.
    if (sort.column !== sortable) store.getState().setSort({ column: sortable, descending: false });
    else if (!sort.descending) store.getState().setSort({ column: sortable, descending: true });
    else store.getState().setSort(defaultSort);
  };

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
          focusIndex !== null && focusIndex >= first && focusIndex <= last ? `msg-row-${focusIndex}` : undefined
        }
        onKeyDown={onKeyDown}
        onContextMenu={(e) => {
          e.preventDefault();
          openMenu(e.clientX, e.clientY, buildActions(store).selectionActions);
        }}
      >
        <div className="grid-header" role="row" aria-rowindex={1} style={{ width: totalWidth, height: HEADER_HEIGHT }}>
          {headers.map((header) => {
            const metaInfo = columnMeta(header.column.id);
            const sorted = metaInfo.sort !== null && sort.column === metaInfo.sort;
            return (
              <div
                key={header.id}
                role="columnheader"
                aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                className={`grid-cell header-cell align-${metaInfo.align}${metaInfo.sort ? ' sortable' : ''}`}
                style={{ width: header.getSize() }}
                onClick={() => onHeaderClick(header.column.id)}
                title={metaInfo.sort ? 'Sort (by the service)' : 'The service cannot sort by this column'}
              >
                {flexRender(header.column.columnDef.header, header.getContext())}
                {sorted && <span className="sort-mark">{sort.descending ? ' ▼' : ' ▲'}</span>}
                <span
                  className="resizer"
                  onMouseDown={header.getResizeHandler()}
                  onClick={(e) => e.stopPropagation()}
                />
              </div>
            );
          })}
        </div>
        <div className="grid-body" style={{ height: contentHeight, width: totalWidth }}>
          <div className="grid-rows" style={{ transform: `translateY(${blockTop}px)` }}>
            {items.map((item) => {
              const message = pages[Math.floor(item.index / 200)]?.[item.index % 200];
              return (
                <MessageRow
                  key={item.index}
                  index={item.index}
                  top={item.top}
                  message={message}
                  selected={message ? allSelected || selection[message.lookupId] === true : false}
                  focused={item.index === focusIndex}
                  columns={visibleLeafColumns}
                  sizes={columnSizes}
                  onMouseDown={onRowMouseDown}
                  onDoubleClick={onRowDoubleClick}
                />
              );
            })}
          </div>
        </div>
        {total === 0 && (
          <div className="empty-note">
            There are no messages in this queue{isFiltered(store) ? ' that match the filter' : ''}.
          </div>
        )}
      </div>
    </div>
  );
}

const EMPTY_ROWS: MessageInfo[] = [];

/** A cell without a renderer shows its value as text (the columns without one hold strings and numbers). */
function plainText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

interface RowProps {
  index: number;
  top: number;
  message: MessageInfo | undefined;
  selected: boolean;
  focused: boolean;
  columns: Column<MessageInfo, unknown>[];
  /** Only to re-render when a column is resized. */
  sizes: Record<string, number>;
  onMouseDown: (event: MouseEvent, index: number) => void;
  onDoubleClick: () => void;
}

/** One message row; memoized so scrolling re-renders only the rows that enter the window. */
const MessageRow = memo(function MessageRow({
  index,
  top,
  message,
  selected,
  focused,
  columns,
  onMouseDown,
  onDoubleClick,
}: RowProps) {
  return (
    <div
      id={`msg-row-${index}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`grid-row${selected ? ' selected' : ''}${focused ? ' focused' : ''}${index % 2 ? ' odd' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onMouseDown={(e) => onMouseDown(e, index)}
      onDoubleClick={onDoubleClick}
    >
      {message ? (
        columns.map((column) => {
          const value = column.accessorFn ? column.accessorFn(message, index) : undefined;
          const cell = column.columnDef.cell;
          return (
            <div
              key={column.id}
              role="gridcell"
              className={`grid-cell align-${columnMeta(column.id).align}`}
              style={{ width: column.getSize() }}
            >
              {typeof cell === 'function'
                ? flexRender(cell, {
                    getValue: () => value,
                    renderValue: () => value,
                    row: { original: message, index },
                    column,
                  } as never)
                : plainText(value)}
            </div>
          );
        })
      ) : (
        <div role="gridcell" className="grid-cell loading-cell">
          Loading…
        </div>
      )}
    </div>
  );
});

function isFiltered(store: ReturnType<typeof useStoreApi>): boolean {
  const f = store.getState().filter;
  return Boolean(f.label || f.bodyText || f.classCodes.length || f.arrivedFrom || f.arrivedTo);
}
