/** The right pane: what applies to the selected node, then to the selected message(s), as in MMC. */
import { buildActions, type ActionItem } from '../commands/actions.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

/** The Actions pane. */
export function ActionsPane() {
  const store = useStoreApi();
  // Re-render on anything the model depends on; the model itself is computed from current state.
  useAppStore((s) => s.selectedNodeId);
  useAppStore((s) => s.selection);
  useAppStore((s) => s.allSelected);
  useAppStore((s) => s.queues);
  useAppStore((s) => s.computers);
  useAppStore((s) => s.total);
  useAppStore((s) => s.resultSelection);
  useAppStore((s) => s.pages);
  const model = buildActions(store);
  return (
    <aside className="actions-pane" aria-label="Actions">
      <div className="actions-heading">Actions</div>
      {model.nodeTitle && <Section title={model.nodeTitle} items={model.nodeActions} />}
      {model.selectionTitle && <Section title={model.selectionTitle} items={model.selectionActions} />}
    </aside>
  );
}

function Section({ title, items }: { title: string; items: ActionItem[] }) {
  return (
    <div className="actions-section">
      <div className="actions-title" title={title}>
        {title}
      </div>
      <ul role="list">
        {items.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className="action-link"
              data-action={item.id}
              title={item.shortcut ? `${item.label.replace(/…$/, '')} (${item.shortcut})` : undefined}
              onClick={item.run}
            >
              <span>{item.label}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
