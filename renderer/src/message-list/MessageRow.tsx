/** One row of the message grid; memoized so scrolling re-renders only the rows that enter the window. */
import { flexRender, type Column } from '@tanstack/react-table';
import { memo, type DragEvent, type MouseEvent } from 'react';
import type { MessageInfo } from '@qk/model';
import { columnMeta } from './message-columns.js';

/** Row height in px; fixed so the window is arithmetic and nothing is measured. */
export const ROW_HEIGHT = 20;

interface RowProps {
  index: number;
  /** Offset inside the rows block (constant while the row stays in the window). */
  top: number;
  message: MessageInfo | undefined;
  selected: boolean;
  focused: boolean;
  columns: Column<MessageInfo, unknown>[];
  /** Only to re-render when a column is resized. */
  sizes: Record<string, number>;
  /** `shown` is the message this row displays: what a click selects, even when the pages moved on meanwhile. */
  onMouseDown: (event: MouseEvent, index: number, shown: MessageInfo | undefined) => void;
  onDoubleClick: () => void;
  onDragStart: (event: DragEvent, index: number, shown: MessageInfo | undefined) => void;
}

/** A message row, or a "Loading…" placeholder while its page is on its way. */
export const MessageRow = memo(function MessageRow({
  index,
  top,
  message,
  selected,
  focused,
  columns,
  onMouseDown,
  onDoubleClick,
  onDragStart,
}: RowProps) {
  return (
    <div
      id={rowDomId(index)}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`grid-row${selected ? ' selected' : ''}${focused ? ' focused' : ''}${index % 2 ? ' odd' : ''}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onMouseDown={(e) => onMouseDown(e, index, message)}
      onDoubleClick={onDoubleClick}
      draggable={message !== undefined}
      onDragStart={(e) => onDragStart(e, index, message)}
    >
      {message ? (
        columns.map((column) => <Cell key={column.id} column={column} message={message} index={index} />)
      ) : (
        <div role="gridcell" className="grid-cell loading-cell">
          Loading…
        </div>
      )}
    </div>
  );
});

function Cell({
  column,
  message,
  index,
}: {
  column: Column<MessageInfo, unknown>;
  message: MessageInfo;
  index: number;
}) {
  const value = column.accessorFn ? column.accessorFn(message, index) : undefined;
  const cell = column.columnDef.cell;
  return (
    <div
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
        : typeof value === 'string' || typeof value === 'number'
          ? String(value)
          : ''}
    </div>
  );
}

/** The DOM id of a row (aria-activedescendant points at the focused one). */
export function rowDomId(index: number): string {
  return `msg-row-${index}`;
}
