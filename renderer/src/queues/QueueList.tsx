/** The list of queues of a folder (Private Queues, Public Queues, Outgoing Queues, System Queues). */
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { useState, type KeyboardEvent } from 'react';
import type { QueueInfo } from '@qk/model';
import { buildActions } from '../commands/actions.js';
import { formatBytes, formatCount } from '../format/format.js';
import { useStoreApi } from '../store/use-app-store.js';
import { classifyQueue, nodeId, queueShortName, systemQueueCaptions } from '../tree/tree-model.js';
import { useContextMenu } from '../shell/ContextMenu.js';
import { UsageBar } from '../shell/UsageBar.js';

const h = createColumnHelper<QueueInfo>();

function displayName(queue: QueueInfo): string {
  const group = classifyQueue(queue);
  return group.group === 'system' ? systemQueueCaptions[group.kind] : queueShortName(queue.path);
}

const queueColumns = [
  h.accessor((q) => displayName(q), { id: 'name', header: 'Name', size: 200 }),
  h.accessor('label', { id: 'label', header: 'Label', size: 160 }),
  h.accessor('messageCount', { id: 'messages', header: 'Messages', size: 90, cell: (c) => formatCount(c.getValue()) }),
  h.accessor('journalMessageCount', {
    id: 'journal',
    header: 'Journal messages',
    size: 120,
    cell: (c) => formatCount(c.getValue()),
  }),
  h.accessor('bytes', { id: 'bytes', header: 'Bytes', size: 90, cell: (c) => formatBytes(c.getValue()) }),
  h.accessor('quotaKB', {
    id: 'quota',
    header: 'Quota usage',
    size: 170,
    enableSorting: false,
    cell: (c) => (
      <UsageBar
        compact
        usedBytes={c.row.original.bytes}
        limitKB={c.getValue()}
        label={`Quota usage of ${displayName(c.row.original)}`}
      />
    ),
  }),
  h.accessor('transactional', {
    id: 'transactional',
    header: 'Transactional',
    size: 100,
    cell: (c) => (c.getValue() ? 'Yes' : 'No'),
  }),
];
const rightAligned = new Set(['messages', 'journal', 'bytes']);

/** A grid of queues; double-click or Enter opens the queue's messages. */
export function QueueList({ computer, queues, caption }: { computer: string; queues: QueueInfo[]; caption: string }) {
  const store = useStoreApi();
  const openMenu = useContextMenu();
  const [sorting, setSorting] = useState<SortingState>([]);
  const [focused, setFocused] = useState(0);
  const table = useReactTable({
    data: queues,
    columns: queueColumns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (q) => q.path,
  });
  const rows = table.getRowModel().rows;

  const open = (queue: QueueInfo | undefined) => {
    if (!queue) return;
    const group = classifyQueue(queue);
    store
      .getState()
      .revealNode(
        group.group === 'system'
          ? nodeId(computer, 'systemQueue', queue.path)
          : nodeId(computer, 'queueMessages', queue.path),
      );
  };
  const nodeFor = (queue: QueueInfo) =>
    classifyQueue(queue).group === 'system'
      ? nodeId(computer, 'systemQueue', queue.path)
      : nodeId(computer, 'queue', queue.path);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') setFocused((f) => Math.min(rows.length - 1, f + 1));
    else if (event.key === 'ArrowUp') setFocused((f) => Math.max(0, f - 1));
    else if (event.key === 'Enter') open(rows[focused]?.original);
    else return;
    event.preventDefault();
  };

  return (
    <div
      className="grid queue-grid"
      role="grid"
      aria-label={caption}
      aria-rowcount={rows.length + 1}
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-activedescendant={rows[focused] ? `queue-row-${focused}` : undefined}
    >
      <div className="grid-header" role="row" aria-rowindex={1} style={{ width: table.getTotalSize() }}>
        {table.getHeaderGroups()[0]?.headers.map((header) => (
          <div
            key={header.id}
            role="columnheader"
            aria-sort={
              header.column.getIsSorted() === 'asc'
                ? 'ascending'
                : header.column.getIsSorted() === 'desc'
                  ? 'descending'
                  : 'none'
            }
            className={`grid-cell header-cell sortable align-${rightAligned.has(header.id) ? 'right' : 'left'}`}
            style={{ width: header.getSize() }}
            onClick={header.column.getToggleSortingHandler()}
          >
            {flexRender(header.column.columnDef.header, header.getContext())}
            {header.column.getIsSorted() === 'asc' ? ' ▲' : header.column.getIsSorted() === 'desc' ? ' ▼' : ''}
          </div>
        ))}
      </div>
      {rows.map((row, index) => (
        <div
          key={row.id}
          id={`queue-row-${index}`}
          role="row"
          aria-rowindex={index + 2}
          aria-selected={index === focused}
          data-path={row.original.path}
          className={`grid-row static${index === focused ? ' selected' : ''}${index % 2 ? ' odd' : ''}${row.original.messageCount > 0 ? ' has-messages' : ''}`}
          style={{ width: table.getTotalSize() }}
          onMouseDown={() => setFocused(index)}
          onDoubleClick={() => open(row.original)}
          onContextMenu={(e) => {
            e.preventDefault();
            setFocused(index);
            store.getState().selectNode(nodeFor(row.original));
            openMenu(e.clientX, e.clientY, buildActions(store).nodeActions);
          }}
        >
          {row.getVisibleCells().map((cell) => (
            <div
              key={cell.id}
              role="gridcell"
              className={`grid-cell align-${rightAligned.has(cell.column.id) ? 'right' : 'left'}`}
              style={{ width: cell.column.getSize() }}
            >
              {flexRender(cell.column.columnDef.cell, cell.getContext())}
            </div>
          ))}
        </div>
      ))}
      {rows.length === 0 && <div className="empty-note">There are no items to show in this view.</div>}
    </div>
  );
}
