/** The left pane: Computer › Message Queuing › folders › queues, with live counts (ARIA tree). */
import { useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { buildActions } from '../commands/actions.js';
import { formatCount } from '../format/format.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { visibleTreeRows, type TreeRow } from './tree-model.js';
import { NodeIcon } from '../shell/Icons.js';
import { useMessageDrop } from '../messages/message-drag.js';
import { useContextMenu } from '../shell/ContextMenu.js';

/** The console tree. */
export function TreePane() {
  const store = useStoreApi();
  const computers = useAppStore((s) => s.computers);
  const queues = useAppStore((s) => s.queues);
  const expanded = useAppStore((s) => s.expanded);
  const selected = useAppStore((s) => s.selectedNodeId);
  const rows = useMemo(() => visibleTreeRows(computers, queues, expanded), [computers, queues, expanded]);
  const selectedIndex = rows.findIndex((r) => r.id === selected);
  const treeRef = useRef<HTMLDivElement>(null);
  const openMenu = useContextMenu();
  const drop = useMessageDrop();
  // Messages can be dropped on an application queue (its node or its Queue messages).
  const dropPath = (row: TreeRow) =>
    (row.kind === 'queue' || row.kind === 'queueMessages') &&
    (queues[row.computer] ?? []).some((q) => q.path === row.path && (q.type === 'private' || q.type === 'public'))
      ? row.path
      : null;

  const select = (row: TreeRow | undefined) => {
    if (!row) return;
    store.getState().selectNode(row.id);
    document.getElementById(domId(rows.indexOf(row)))?.scrollIntoView({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const row = rows[selectedIndex];
    const s = store.getState();
    switch (event.key) {
      case 'ArrowDown':
        select(rows[Math.min(rows.length - 1, selectedIndex + 1)]);
        break;
      case 'ArrowUp':
        select(rows[Math.max(0, selectedIndex - 1)]);
        break;
      case 'Home':
        select(rows[0]);
        break;
      case 'End':
        select(rows[rows.length - 1]);
        break;
      case 'ArrowRight':
        if (!row) break;
        if (row.expandable && !row.expanded) s.setExpanded(row.id, true);
        else if (row.expanded) select(rows[selectedIndex + 1]);
        break;
      case 'ArrowLeft':
        if (!row) break;
        if (row.expanded) s.setExpanded(row.id, false);
        else if (row.parentId) select(rows.find((r) => r.id === row.parentId));
        break;
      case 'Enter':
        runFirst(['computerProperties', 'queueProperties']);
        break;
      case 'Delete':
        runFirst(['deleteQueue']);
        break;
      case 'F10':
        if (!event.shiftKey) return;
        if (row) showMenuAt(document.getElementById(domId(selectedIndex)));
        break;
      case 'ContextMenu':
        if (row) showMenuAt(document.getElementById(domId(selectedIndex)));
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const runFirst = (ids: string[]) => {
    const item = buildActions(store).nodeActions.find((a) => ids.includes(a.id));
    item?.run();
  };

  const showMenuAt = (element: HTMLElement | null, x?: number, y?: number) => {
    const rect = element?.getBoundingClientRect();
    openMenu(x ?? (rect ? rect.left + 24 : 0), y ?? (rect ? rect.bottom : 0), buildActions(store).nodeActions);
  };

  const onContextMenu = (event: MouseEvent, row: TreeRow) => {
    event.preventDefault();
    store.getState().selectNode(row.id);
    showMenuAt(null, event.clientX, event.clientY);
  };

  return (
    <div
      ref={treeRef}
      className="tree"
      role="tree"
      aria-label="Console tree"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? domId(selectedIndex) : undefined}
      onKeyDown={onKeyDown}
    >
      {rows.map((row, index) => (
        <div
          key={row.id}
          id={domId(index)}
          role="treeitem"
          aria-level={row.level}
          aria-expanded={row.expandable ? row.expanded : undefined}
          aria-selected={row.id === selected}
          aria-setsize={row.setSize}
          aria-posinset={row.posInSet}
          data-node={row.id}
          className={`tree-row${row.id === selected ? ' selected' : ''}${row.hasMessages ? ' has-messages' : ''}${drop.overId === row.id ? ' drop-target' : ''}`}
          {...drop.handlersFor(row.id, row.computer, dropPath(row))}
          style={{ paddingLeft: 4 + (row.level - 1) * 14 }}
          onMouseDown={() => treeRef.current?.focus()}
          onClick={() => store.getState().selectNode(row.id)}
          onDoubleClick={() => row.expandable && store.getState().setExpanded(row.id, !row.expanded)}
          onContextMenu={(e) => onContextMenu(e, row)}
        >
          <span
            className="twisty"
            aria-hidden="true"
            onClick={(e) => {
              if (!row.expandable) return;
              e.stopPropagation();
              store.getState().setExpanded(row.id, !row.expanded);
            }}
          >
            {row.expandable ? (row.expanded ? '▾' : '▸') : ''}
          </span>
          <NodeIcon kind={row.kind} />
          <span className="tree-label" title={row.label}>
            {row.label}
          </span>
          {row.warning && (
            <span
              className={`warn-badge${row.warningFull ? ' full' : ''}`}
              title={row.warning}
              aria-label={row.warning}
            >
              ⚠
            </span>
          )}
          {row.count !== null && <span className="tree-count">{formatCount(row.count)}</span>}
        </div>
      ))}
    </div>
  );
}

function domId(index: number): string {
  return `tree-node-${index}`;
}
