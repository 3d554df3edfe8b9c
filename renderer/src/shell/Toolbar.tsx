/** The toolbar under the menu: back/forward through visited nodes, then the common actions of the selection. */
import { buildActions, findAction } from '../commands/actions.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { useNodeHistory } from './use-node-history.js';

/** The toolbar; every button acts on what is selected (the result pane's items first, as MMC's does). */
export function Toolbar() {
  const store = useStoreApi();
  useAppStore((s) => s.selectedNodeId);
  useAppStore((s) => s.resultSelection);
  useAppStore((s) => s.selection);
  useAppStore((s) => s.allSelected);
  useAppStore((s) => s.queues);
  const nav = useNodeHistory();
  const model = buildActions(store);
  const buttons = [
    { id: 'refresh', label: '⟳ Refresh', title: 'Refresh (F5)', action: findAction(model, 'refresh') },
    {
      id: 'properties',
      label: '▤ Properties',
      title: 'Properties (Alt+Enter)',
      action: findAction(model, 'messageProperties', 'queueProperties', 'computerProperties'),
    },
    { id: 'sendTest', label: '✉ Send test message', title: 'Send test message', action: findAction(model, 'sendTest') },
    { id: 'purge', label: '⌫ Purge', title: 'Purge', action: findAction(model, 'purge', 'purgeJournal') },
    {
      id: 'delete',
      label: '✕ Delete',
      title: 'Delete (Del)',
      action: findAction(model, 'deleteMessages', 'deleteQueue'),
    },
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
        <button
          key={b.id}
          type="button"
          data-toolbar={b.id}
          title={b.action ? `${b.title}: ${b.action.label.replace(/…$/, '')}` : b.title}
          disabled={!b.action}
          onClick={b.action?.run}
        >
          {b.label}
        </button>
      ))}
    </div>
  );
}
