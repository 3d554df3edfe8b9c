/** The toolbar under the menu: back/forward through visited nodes, then the common actions. */
import { buildActions, openSelectedProperties } from '../commands/actions.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { useNodeHistory } from './use-node-history.js';

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
