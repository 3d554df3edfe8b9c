/** The message grid's header: column captions, service-side sort on click, resize handles. */
import { flexRender, type Header } from '@tanstack/react-table';
import type { MessageInfo } from '@qk/model';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { nextSort } from './list-query.js';
import { columnMeta } from './message-columns.js';

/** Header height in px (the rows start below it). */
export const HEADER_HEIGHT = 22;

/** The header row. */
export function MessageListHeader({ headers, width }: { headers: Header<MessageInfo, unknown>[]; width: number }) {
  const store = useStoreApi();
  const sort = useAppStore((s) => s.sort);
  return (
    <div className="grid-header" role="row" aria-rowindex={1} style={{ width, height: HEADER_HEIGHT }}>
      {headers.map((header) => {
        const meta = columnMeta(header.column.id);
        const sortColumn = meta.sort;
        const sorted = sortColumn !== null && sort.column === sortColumn;
        return (
          <div
            key={header.id}
            role="columnheader"
            aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : 'none'}
            className={`grid-cell header-cell align-${meta.align}${sortColumn ? ' sortable' : ''}`}
            style={{ width: header.getSize() }}
            onClick={() => sortColumn && store.getState().setSort(nextSort(sort, sortColumn))}
            title={sortColumn ? 'Sort (by the service)' : 'The service cannot sort by this column'}
          >
            {flexRender(header.column.columnDef.header, header.getContext())}
            {sorted && <span className="sort-mark">{sort.descending ? ' ▼' : ' ▲'}</span>}
            <span className="resizer" onMouseDown={header.getResizeHandler()} onClick={(e) => e.stopPropagation()} />
          </div>
        );
      })}
    </div>
  );
}
