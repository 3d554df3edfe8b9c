/**
 * The Outgoing Queues folder (docs/network.md): one row per destination queue on another computer, with
 * MSMQ's columns — state, next hop, messages, unconfirmed transactional messages, the last error. The selected
 * row is what the Actions pane acts on (Pause, Resume, Purge), as in MMC.
 */
import { useState, type KeyboardEvent } from 'react';
import { onGridKeyDown } from '../shell/grid-keys.js';
import type { OutgoingQueueInfo } from '@qk/model';
import { buildActions, findAction } from '../commands/actions.js';
import { formatBytes, formatCount, formatTime } from '../format/format.js';
import { useContextMenu } from '../shell/ContextMenu.js';
import { samePath } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { nodeId } from '../tree/tree-model.js';
import { outgoingStateText } from './outgoing-format.js';
import { useOutgoing } from './use-outgoing.js';
import './network.css';

interface Column {
  id: string;
  header: string;
  width: number;
  right?: boolean;
  cell: (o: OutgoingQueueInfo) => string;
}

const columns: Column[] = [
  { id: 'formatName', header: 'Format name', width: 236, cell: (o) => o.formatName },
  { id: 'state', header: 'State', width: 140, cell: (o) => outgoingStateText[o.state] },
  { id: 'nextHop', header: 'Next hop', width: 80, cell: (o) => o.nextHop ?? '' },
  { id: 'messages', header: 'Messages', width: 72, right: true, cell: (o) => formatCount(o.messageCount) },
  { id: 'bytes', header: 'Size', width: 64, right: true, cell: (o) => formatBytes(o.bytes) },
  { id: 'unconfirmed', header: 'Unconfirmed', width: 96, right: true, cell: (o) => formatCount(o.unconfirmedCount) },
  { id: 'lastError', header: 'Last error', width: 360, cell: (o) => o.lastError ?? '' },
  { id: 'lastConnected', header: 'Last connected', width: 150, cell: (o) => formatTime(o.lastConnectedTime) },
];
const totalWidth = columns.reduce((sum, c) => sum + c.width, 0);

/** The grid of a computer's outgoing queues. */
export function OutgoingQueueList({ computer, caption }: { computer: string; caption: string }) {
  const store = useStoreApi();
  const openMenu = useContextMenu();
  const { list, loaded } = useOutgoing(computer);
  const queues = useAppStore((s) => s.queues[computer]);
  const selected = useAppStore((s) => s.resultSelection);
  const [focused, setFocused] = useState(0);
  // The tree names an outgoing queue by the path the service lists it under (its format name).
  const nodeFor = (o: OutgoingQueueInfo) =>
    nodeId(computer, 'queue', queues?.find((q) => samePath(q.path, o.formatName))?.path ?? o.formatName);
  const select = (index: number) => {
    const row = list[index];
    setFocused(index);
    store.getState().selectResultItem(row ? nodeFor(row) : null);
  };
  const menu = () => buildActions(store).selectionActions;

  const onKeyDown = (event: KeyboardEvent) =>
    onGridKeyDown(event, {
      count: list.length,
      current: list.findIndex((o) => nodeFor(o) === selected),
      focused,
      select,
      open: () => findAction(buildActions(store), 'open')?.run(),
      openMenuAt: (x, y) => openMenu(x, y, menu()),
      rowId: (index) => `outgoing-row-${index}`,
    });

  return (
    <div
      className="grid queue-grid outgoing-grid"
      role="grid"
      aria-label={caption}
      aria-rowcount={list.length + 1}
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-activedescendant={list[focused] ? `outgoing-row-${focused}` : undefined}
    >
      <div className="grid-header" role="row" aria-rowindex={1} style={{ width: totalWidth }}>
        {columns.map((c) => (
          <div
            key={c.id}
            role="columnheader"
            className={`grid-cell header-cell align-${c.right ? 'right' : 'left'}`}
            style={{ width: c.width }}
          >
            {c.header}
          </div>
        ))}
      </div>
      {loaded && list.length === 0 && (
        <div className="empty-note" role="row">
          <div role="gridcell">
            No outgoing queues: messages sent to queues on other computers wait here until they are delivered.
          </div>
        </div>
      )}
      {list.map((o, index) => {
        const isSelected = selected === nodeFor(o);
        return (
          <div
            key={o.formatName}
            id={`outgoing-row-${index}`}
            role="row"
            aria-rowindex={index + 2}
            aria-selected={isSelected}
            data-format-name={o.formatName}
            data-state={o.state}
            className={`grid-row static${isSelected ? ' selected' : ''}${index === focused ? ' focused' : ''}${index % 2 ? ' odd' : ''}${o.messageCount > 0 ? ' has-messages' : ''}`}
            style={{ width: totalWidth }}
            onMouseDown={() => select(index)}
            onDoubleClick={() => findAction(buildActions(store), 'open')?.run()}
            onContextMenu={(e) => {
              e.preventDefault();
              select(index);
              openMenu(e.clientX, e.clientY, menu());
            }}
          >
            {columns.map((c) => (
              <div
                key={c.id}
                role="gridcell"
                data-column={c.id}
                className={`grid-cell align-${c.right ? 'right' : 'left'}${c.id === 'state' ? ` outgoing-state state-${o.state}` : ''}`}
                style={{ width: c.width }}
                title={c.id === 'lastError' || c.id === 'formatName' ? c.cell(o) : undefined}
              >
                {c.cell(o)}
              </div>
            ))}
          </div>
        );
      })}
    </div>
  );
}
