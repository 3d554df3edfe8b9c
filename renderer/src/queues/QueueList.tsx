/**
 * The list of queues of a folder (Private Queues, Public Queues, Outgoing Queues, System Queues). MMC's
 * selection model: the selected row is what the toolbar, the Action menu, the Actions pane and its context
 * menu act on; Enter or a double-click opens it; a right-click shows that row's menu where one clicked.
 */
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { useState, type KeyboardEvent } from 'react';
import { onGridKeyDown } from '../shell/grid-keys.js';
import type { QueueInfo } from '@qk/model';
import { buildActions, findAction } from '../commands/actions.js';
import { formatBytes, formatCount } from '../format/format.js';
import { queueWarnings } from '../format/quota-state.js';
import { useMessageDrop } from '../messages/message-drag.js';
import { useContextMenu } from '../shell/ContextMenu.js';
import { UsageBar } from '../shell/UsageBar.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { classifyQueue, nodeId, queueShortName, systemQueueCaptions } from '../tree/tree-model.js';

const h = createColumnHelper<QueueInfo>();

function displayName(queue: QueueInfo): string {
  const group = classifyQueue(queue);
  return group.group === 'system' ? systemQueueCaptions[group.kind] : queueShortName(queue.path);
}

const isSystem = (queue: QueueInfo) => classifyQueue(queue).group === 'system';

/** The shared limit system queues count against (their own quota is the computer's MachineJournalQuota). */
export interface SharedQuota {
  machineJournalQuotaKB: number | null;
}

function columnsFor(shared: SharedQuota) {
  return [
    h.accessor((q) => displayName(q), {
      id: 'name',
      header: 'Name',
      size: 120,
      cell: (c) => {
        const warnings = queueWarnings(c.row.original);
        return (
          <span className="name-cell">
            {c.getValue()}
            {warnings.length > 0 && (
              <span
                className={`warn-badge ${warnings.some((w) => w.state === 'full') ? 'full' : ''}`}
                title={warnings.map((w) => w.text).join(' ')}
                aria-label={warnings.map((w) => w.text).join(' ')}
              >
                ⚠
              </span>
            )}
          </span>
        );
      },
    }),
    h.accessor('messageCount', {
      id: 'messages',
      header: 'Messages',
      size: 72,
      cell: (c) => formatCount(c.getValue()),
    }),
    h.accessor('bytes', { id: 'bytes', header: 'Size', size: 72, cell: (c) => formatBytes(c.getValue()) }),
    h.accessor('quotaKB', {
      id: 'quota',
      header: 'Quota usage',
      size: 112,
      enableSorting: false,
      cell: (c) => {
        const q = c.row.original;
        // R-D6: the system queues together count against MachineJournalQuota; each shows its share.
        const limit = isSystem(q) ? shared.machineJournalQuotaKB : c.getValue();
        return (
          <UsageBar
            compact
            usedBytes={q.bytes}
            limitKB={limit}
            label={`Quota usage of ${displayName(q)}${isSystem(q) ? ' (share of MachineJournalQuota)' : ''}`}
            {...(isSystem(q) ? { note: 'MachineJournalQuota' } : {})}
          />
        );
      },
    }),
    h.accessor('journalMessageCount', {
      id: 'journal',
      header: 'Journal messages',
      size: 126,
      cell: (c) => (isSystem(c.row.original) ? '' : formatCount(c.getValue())),
    }),
    h.accessor('journalBytes', {
      id: 'journalBytes',
      header: 'Journal size',
      size: 85,
      cell: (c) => (isSystem(c.row.original) ? '' : formatBytes(c.getValue())),
    }),
    h.accessor('journalQuotaKB', {
      id: 'journalQuota',
      header: 'Journal quota usage',
      size: 138,
      enableSorting: false,
      cell: (c) =>
        isSystem(c.row.original) ? null : (
          <UsageBar
            compact
            usedBytes={c.row.original.journalBytes}
            limitKB={c.getValue()}
            label={`Journal quota usage of ${displayName(c.row.original)}`}
          />
        ),
    }),
    h.accessor('label', { id: 'label', header: 'Label', size: 110 }),
    h.accessor('transactional', {
      id: 'transactional',
      header: 'Transactional',
      size: 96,
      cell: (c) => (c.getValue() ? 'Yes' : 'No'),
    }),
  ];
}
const rightAligned = new Set(['messages', 'journal', 'bytes', 'journalBytes']);

/** A grid of queues. */
export function QueueList({ computer, queues, caption }: { computer: string; queues: QueueInfo[]; caption: string }) {
  const store = useStoreApi();
  const openMenu = useContextMenu();
  const selected = useAppStore((s) => s.resultSelection);
  const machineJournalQuotaKB = useAppStore(
    (s) => s.settings[computer]?.find((x) => x.name === 'MachineJournalQuota')?.value ?? null,
  );
  const [sorting, setSorting] = useState<SortingState>([]);
  const [focused, setFocused] = useState(0);
  const drop = useMessageDrop();
  const table = useReactTable({
    data: queues,
    columns: columnsFor({ machineJournalQuotaKB }),
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (q) => q.path,
  });
  const rows = table.getRowModel().rows;

  const nodeFor = (queue: QueueInfo) =>
    isSystem(queue) ? nodeId(computer, 'systemQueue', queue.path) : nodeId(computer, 'queue', queue.path);
  const select = (index: number) => {
    const row = rows[index];
    setFocused(index);
    store.getState().selectResultItem(row ? nodeFor(row.original) : null);
  };
  const selectionMenu = () => buildActions(store).selectionActions;
  const runOwn = (...ids: string[]) => {
    const model = buildActions(store);
    const item = model.selectionActions.find((a) => ids.includes(a.id));
    item?.run();
  };

  const onKeyDown = (event: KeyboardEvent) =>
    onGridKeyDown(event, {
      count: rows.length,
      current: rows.findIndex((r) => nodeFor(r.original) === selected),
      focused,
      select,
      open: () => runOwn('open'),
      remove: () => runOwn('deleteQueue'),
      openMenuAt: (x, y) => openMenu(x, y, selectionMenu()),
      rowId: (index) => `queue-row-${index}`,
    });

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
      {rows.map((row, index) => {
        const isSelected = selected === nodeFor(row.original);
        return (
          <div
            key={row.id}
            id={`queue-row-${index}`}
            role="row"
            aria-rowindex={index + 2}
            aria-selected={isSelected}
            data-path={row.original.path}
            className={`grid-row static${isSelected ? ' selected' : ''}${index === focused ? ' focused' : ''}${index % 2 ? ' odd' : ''}${row.original.messageCount > 0 ? ' has-messages' : ''}${drop.overId === row.id ? ' drop-target' : ''}`}
            {...drop.handlersFor(
              row.id,
              computer,
              row.original.type === 'private' || row.original.type === 'public' ? row.original.path : null,
            )}
            style={{ width: table.getTotalSize() }}
            onMouseDown={() => select(index)}
            onDoubleClick={() => findAction(buildActions(store), 'open')?.run()}
            onContextMenu={(e) => {
              e.preventDefault();
              select(index);
              openMenu(e.clientX, e.clientY, selectionMenu());
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
        );
      })}
      {rows.length === 0 && <div className="empty-note">There are no items to show in this view.</div>}
    </div>
  );
}
