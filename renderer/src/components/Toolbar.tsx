/** The toolbar under the menu: back/forward through visited nodes, then the common actions. */
import { useState } from 'react';
import { buildActions, openSelectedProperties } from '../commands/actions.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

/** Back/forward history of selected nodes, as MMC keeps it. */
function useNodeHistory() {
  const store = useStoreApi();
  const selected = useAppStore((s) => s.selectedNodeId);
  const [history, setHistory] = useState<{ entries: string[]; position: number; seen: string | null }>({
    entries: [],
    position: -1,
    seen: null,
  });
  // A new selection adds to the history (adjusted while rendering); one made by Back/Forward is already there.
  if (selected !== history.seen) {
    if (!selected || history.entries[history.position] === selected) {
      setHistory({ ...history, seen: selected });
    } else {
      const entries = [...history.entries.slice(0, history.position + 1), selected].slice(-100);
      setHistory({ entries, position: entries.length - 1, seen: selected });
    }
  }
  const { entries, position } = history;
  const go = (delta: number) => {
    const next = position + delta;
    const id = entries[next];
    if (!id) return;
    setHistory({ ...history, position: next });
    store.getState().revealNode(id);
  };
  return {
    canBack: position > 0,
    canForward: position < entries.length - 1,
    back: () => go(-1),
    forward: () => go(1),
  };
}

/** The toolbar. */
export function Toolbar() {
  const store = useStoreApi();
  useAppStore((s) => s.selectedNodeId);
  useAppStore((s) => s.selection);
  useAppStore((s) => s.queues);
  const nav = useNodeHistory();
  const model = buildActions(store);
  const node = (id: string) => model.nodeActions.find((a) => a.id === id);
  const properties =
    model.selectionActions.find((a) => a.id === 'messageProperties') ??
    node('queueProperties') ??
    node('computerProperties');
  const remove = model.selectionActions.find((a) => a.id === 'deleteMessages') ?? node('deleteQueue');
  const buttons = [
    { id: 'refresh', label: '⟳ Refresh', title: 'Refresh (F5)', run: node('refresh')?.run },
    {
      id: 'properties',
      label: '▤ Properties',
      title: 'Properties (Alt+Enter)',
      run: properties?.id === 'messageProperties' ? () => openSelectedProperties(store) : properties?.run,
    },
    { id: 'sendTest', label: '✉ Send test message', title: 'Send test message', run: node('sendTest')?.run },
    { id: 'purge', label: '⌫ Purge', title: 'Purge', run: (node('purge') ?? node('purgeJournal'))?.run },
    { id: 'delete', label: '✕ Delete', title: 'Delete (Del)', run: remove?.run },
  ];
  return (
    <div className="toolbar" role="toolbar" aria-label="Toolbar">
      <button type="button" aria-label="Back" title="Back" disabled={!nav.canBack} onClick={nav.back}>
        ◀
      </button>
      <button type="button" aria-label="Forward" title="Forward" disabled={!nav.canForward} onClick={nav.forward}>
        ▶
      </button>
      <span className="toolbar-sep" />
      {buttons.map((b) => (
        <button key={b.id} type="button" data-toolbar={b.id} title={b.title} disabled={!b.run} onClick={b.run}>
          {b.label}
        </button>
      ))}
    </div>
  );
}
