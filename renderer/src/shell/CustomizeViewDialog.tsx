/** View › Customize View (MMC's dialog): show or hide the console tree, the Actions pane, the toolbar, the status bar. */
import { DialogShell } from '../dialogs/DialogShell.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import type { ViewOptions } from './view-types.js';

const parts: Array<{ key: keyof ViewOptions; label: string }> = [
  { key: 'tree', label: 'Console tree' },
  { key: 'actions', label: 'Action pane' },
  { key: 'toolbar', label: 'Standard toolbar' },
  { key: 'statusBar', label: 'Status bar' },
];

/** The dialog; each checkbox applies at once, as MMC's does. */
export function CustomizeViewDialog() {
  const store = useStoreApi();
  const view = useAppStore((s) => s.view);
  return (
    <DialogShell title="Customize View" onClose={() => store.getState().closeDialog()} width={340}>
      <fieldset className="plain-fieldset">
        <legend>Show</legend>
        {parts.map((part) => (
          <label key={part.key} className="check-row">
            <input
              type="checkbox"
              checked={view[part.key]}
              onChange={(e) => store.getState().setView({ [part.key]: e.target.checked })}
            />
            {part.label}
          </label>
        ))}
      </fieldset>
      <p className="hint">Hidden parts stay reachable: the Action menu, the keyboard and Customize View itself.</p>
    </DialogShell>
  );
}
