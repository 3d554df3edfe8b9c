/** The middle pane: what the selected tree node is — child nodes, a list of queues, or a message list. */
import type { KeyboardEvent } from 'react';
import { onGridKeyDown } from './grid-keys.js';
import { buildActions } from '../commands/actions.js';
import { formatBytes, formatCount } from '../format/format.js';
import { isFilterActive } from '../message-list/list-query.js';
import { samePath } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import {
  groupQueues,
  nodeCaption,
  nodeId,
  parseNodeId,
  subqueueName,
  type NodeKind,
  type NodeRef,
} from '../tree/tree-model.js';
import { isDeadLetterPath } from '../commands/node-actions.js';
import { FilterBar } from '../message-list/FilterBar.js';
import { ClassSummary } from '../traffic/ClassSummary.js';
import { TrafficCharts } from '../traffic/TrafficCharts.js';
import { useContextMenu } from './ContextMenu.js';
import { NodeIcon } from './Icons.js';
import { MessageList } from '../message-list/MessageList.js';
import { QueueList } from '../queues/QueueList.js';
import { OutgoingQueueFacts } from '../network/OutgoingQueueFacts.js';
import { OutgoingQueueList } from '../network/OutgoingQueueList.js';

/** The result pane for the selected node. */
export function ResultPane() {
  const selected = useAppStore((s) => s.selectedNodeId);
  const computerName = useAppStore((s) =>
    selected ? (s.computers.find((c) => c.key === parseNodeId(selected).computer)?.name ?? '') : '',
  );
  const isOutgoing = useAppStore((s) => {
    if (!selected) return false;
    const r = parseNodeId(selected);
    return r.path !== null && s.queues[r.computer]?.find((q) => samePath(q.path, r.path ?? ''))?.type === 'outgoing';
  });
  if (!selected) return <div className="result-pane" />;
  const ref = parseNodeId(selected);
  const caption = nodeCaption(ref, computerName);
  const isMessages =
    ref.kind === 'queueMessages' ||
    ref.kind === 'journalMessages' ||
    ref.kind === 'systemQueue' ||
    ref.kind === 'subqueue';
  return (
    <section className="result-pane" aria-label={caption}>
      <ResultHeader refNode={ref} caption={caption} isMessages={isMessages} />
      {isMessages ? (
        <>
          {isOutgoing && ref.path && <OutgoingQueueFacts computer={ref.computer} path={ref.path} />}
          <FilterBar />
          {ref.kind === 'systemQueue' && ref.path && isDeadLetterPath(ref.path) && (
            <ClassSummary computer={ref.computer} path={ref.path} />
          )}
          <MessageList caption={caption} />
        </>
      ) : (
        <FolderView refNode={ref} caption={caption} />
      )}
    </section>
  );
}

function ResultHeader({ refNode, caption, isMessages }: { refNode: NodeRef; caption: string; isMessages: boolean }) {
  const total = useAppStore((s) => s.total);
  const filterActive = useAppStore((s) => isFilterActive(s.filter));
  const queue = useAppStore((s) =>
    refNode.path ? s.queues[refNode.computer]?.find((q) => samePath(q.path, refNode.path ?? '')) : undefined,
  );
  const selectedCount = useAppStore((s) => (isMessages ? s.selectedCount() : 0));
  const store = useStoreApi();
  let facts = '';
  if (isMessages && total !== null) {
    const bytes = queue ? (refNode.kind === 'journalMessages' ? queue.journalBytes : queue.bytes) : null;
    // Unfiltered, the header shows the same live count as the tree (both from the service's counts), so the
    // two never differ by a message in flight; filtered, the service's count of matches.
    const queueCount = queue
      ? refNode.kind === 'journalMessages'
        ? queue.journalMessageCount
        : queue.messageCount
      : null;
    const shown = filterActive || queueCount === null ? total : queueCount;
    facts = `${formatCount(shown)} ${shown === 1 ? 'message' : 'messages'}${filterActive ? (shown === 1 ? ' matches the filter' : ' match the filter') : ''}${bytes !== null && !filterActive ? ` · ${formatBytes(bytes)}` : ''}`;
    if (selectedCount > 0) facts += ` · ${formatCount(selectedCount)} selected`;
  }
  return (
    <div className="result-header">
      <h1 className="result-title">{caption}</h1>
      {facts && <span className="result-facts">{facts}</span>}
      {isMessages && (
        <button
          type="button"
          className="link-button"
          onClick={() => store.getState().setFilterVisible(!store.getState().filterVisible)}
          title="Filter (Ctrl+F)"
        >
          Filter…
        </button>
      )}
    </div>
  );
}

/** Folders and nodes whose pane lists child nodes or queues. */
function FolderView({ refNode, caption }: { refNode: NodeRef; caption: string }) {
  const queues = useAppStore((s) => s.queues[refNode.computer]) ?? [];
  const grouped = groupQueues(queues);
  const c = refNode.computer;
  switch (refNode.kind) {
    case 'private':
    case 'public':
      return <QueueList computer={c} queues={grouped[refNode.kind]} caption={caption} />;
    case 'outgoing':
      return <OutgoingQueueList computer={c} caption={caption} />;
    case 'system':
      return (
        <QueueList
          computer={c}
          queues={(['JOURNAL', 'DEADLETTER', 'DEADXACT'] as const)
            .map((k) => grouped.system[k])
            .filter((q) => q !== null)}
          caption={caption}
        />
      );
    case 'computer':
      return (
        <ChildList
          caption={caption}
          items={[{ id: nodeId(c, 'msmq'), kind: 'msmq', label: 'Message Queuing', count: null }]}
        />
      );
    case 'msmq':
      return (
        <div className="overview">
          <ChildList
            caption={caption}
            items={[
              { id: nodeId(c, 'outgoing'), kind: 'outgoing', label: 'Outgoing Queues', count: grouped.outgoing.length },
              { id: nodeId(c, 'public'), kind: 'public', label: 'Public Queues', count: grouped.public.length },
              { id: nodeId(c, 'private'), kind: 'private', label: 'Private Queues', count: grouped.private.length },
              { id: nodeId(c, 'system'), kind: 'system', label: 'System Queues', count: 3 },
            ]}
            countLabel="Queues"
          />
          <TrafficCharts computer={c} path={null} caption={caption} />
        </div>
      );
    case 'queue': {
      const queue = queues.find((q) => samePath(q.path, refNode.path ?? ''));
      if (queue?.type === 'outgoing')
        return (
          <div className="overview">
            <OutgoingQueueFacts computer={c} path={queue.path} />
            <ChildList
              caption={caption}
              items={[
                {
                  id: nodeId(c, 'queueMessages', queue.path),
                  kind: 'queueMessages',
                  label: 'Queue messages',
                  count: queue.messageCount,
                },
              ]}
              countLabel="Messages"
            />
          </div>
        );
      return (
        <ChildList
          caption={caption}
          items={[
            {
              id: nodeId(c, 'queueMessages', refNode.path),
              kind: 'queueMessages',
              label: 'Queue messages',
              count: queue?.messageCount ?? 0,
            },
            {
              id: nodeId(c, 'journalMessages', refNode.path),
              kind: 'journalMessages',
              label: 'Journal messages',
              count: queue?.journalMessageCount ?? 0,
            },
            ...(grouped.subqueues[(refNode.path ?? '').toLowerCase()] ?? []).map((sub) => ({
              id: nodeId(c, 'subqueue', sub.path),
              kind: 'subqueue' as const,
              label: `Subqueue ${subqueueName(sub.path)}`,
              count: sub.messageCount,
            })),
          ]}
          countLabel="Messages"
        />
      );
    }
    default:
      return <ChildList caption={caption} items={[]} />;
  }
}

/** Child nodes as a list (Message Queuing's folders, a queue's Queue/Journal messages), with MMC's selection model. */
function ChildList({
  caption,
  items,
  countLabel = '',
}: {
  caption: string;
  items: Array<{ id: string; kind: NodeKind; label: string; count: number | null }>;
  countLabel?: string;
}) {
  const store = useStoreApi();
  const openMenu = useContextMenu();
  const selected = useAppStore((s) => s.resultSelection);
  const at = Math.max(
    0,
    items.findIndex((item) => item.id === selected),
  );
  const select = (index: number) => store.getState().selectResultItem(items[index]?.id ?? null);
  const menu = () => buildActions(store).selectionActions;
  const onKeyDown = (event: KeyboardEvent) =>
    onGridKeyDown(event, {
      count: items.length,
      current: items.findIndex((item) => item.id === selected),
      focused: at,
      select,
      open: (index) => {
        const item = items[index];
        if (item) store.getState().revealNode(item.id);
      },
      openMenuAt: (x, y) => openMenu(x, y, menu()),
      rowId: (index) => `child-row-${index}`,
    });
  return (
    <div
      className="grid child-grid"
      role="grid"
      aria-label={caption}
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-activedescendant={selected ? `child-row-${at}` : undefined}
    >
      <div className="grid-header" role="row">
        <div role="columnheader" className="grid-cell header-cell" style={{ width: 260 }}>
          Name
        </div>
        {countLabel && (
          <div role="columnheader" className="grid-cell header-cell align-right" style={{ width: 100 }}>
            {countLabel}
          </div>
        )}
      </div>
      {items.map((item, index) => (
        <div
          key={item.id}
          id={`child-row-${index}`}
          role="row"
          aria-selected={item.id === selected}
          className={`grid-row static${index % 2 ? ' odd' : ''}${item.id === selected ? ' selected' : ''}`}
          onMouseDown={() => select(index)}
          onDoubleClick={() => store.getState().revealNode(item.id)}
          onContextMenu={(e) => {
            e.preventDefault();
            select(index);
            openMenu(e.clientX, e.clientY, menu());
          }}
        >
          <div role="gridcell" className="grid-cell" style={{ width: 260 }}>
            <NodeIcon kind={item.kind} /> {item.label}
          </div>
          {countLabel && (
            <div role="gridcell" className="grid-cell align-right" style={{ width: 100 }}>
              {item.count === null ? '' : formatCount(item.count)}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
