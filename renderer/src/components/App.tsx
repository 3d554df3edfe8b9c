/** The console window: menu bar, toolbar, three resizable panes, status bar, dialogs. */
import { useEffect } from 'react';
import { buildActions, openSelectedProperties } from '../commands/actions.js';
import { DialogHost } from '../dialogs/DialogHost.js';
import { usePaneSizes } from '../hooks/use-pane-sizes.js';
import { inBackground } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { parseNodeId } from '../tree/tree-model.js';
import { ActionsPane } from './ActionsPane.js';
import { ContextMenuHost } from './ContextMenu.js';
import { MenuBar } from './MenuBar.js';
import { Notices } from './Notices.js';
import { ResultPane } from './ResultPane.js';
import { Splitter } from './Splitter.js';
import { StatusBar } from './StatusBar.js';
import { Toolbar } from './Toolbar.js';
import { TreePane } from './TreePane.js';

/** Window-wide shortcuts: F5, Ctrl+F, Alt+Enter (Esc and the list/tree keys live with their owners). */
function useGlobalKeys() {
  const store = useStoreApi();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const s = store.getState();
      if (event.key === 'F5') {
        event.preventDefault();
        inBackground(s, 'Refresh', s.refreshAll());
      } else if ((event.ctrlKey || event.metaKey) && (event.key === 'f' || event.key === 'F')) {
        const kind = s.selectedNodeId ? parseNodeId(s.selectedNodeId).kind : null;
        if (kind === 'queueMessages' || kind === 'journalMessages' || kind === 'systemQueue') {
          event.preventDefault();
          s.setFilterVisible(true);
          // A second Ctrl+F while open refocuses the field.
          document.querySelector<HTMLInputElement>('.filter-bar input')?.focus();
        }
      } else if (event.altKey && event.key === 'Enter' && !s.dialog) {
        event.preventDefault();
        if (s.selectedCount() === 1 && document.activeElement?.closest('.message-grid')) openSelectedProperties(store);
        else
          buildActions(store)
            .nodeActions.find((a) => a.id === 'queueProperties' || a.id === 'computerProperties')
            ?.run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

/** The application. */
export function App({ showMenuBar = true }: { showMenuBar?: boolean }) {
  const [sizes, setSizes] = usePaneSizes();
  const dialogOpen = useAppStore((s) => s.dialog !== null);
  useGlobalKeys();
  return (
    <ContextMenuHost>
      <div className="app" aria-hidden={dialogOpen ? true : undefined}>
        {showMenuBar && <MenuBar />}
        <Toolbar />
        <Notices />
        <main
          className="panes"
          style={{ gridTemplateColumns: `${sizes.tree}px 5px minmax(200px, 1fr) 5px ${sizes.actions}px` }}
        >
          <nav className="tree-pane" aria-label="Console tree">
            <TreePane />
          </nav>
          <Splitter
            width={sizes.tree}
            side="left"
            min={160}
            max={600}
            label="Resize console tree"
            onResize={(tree) => setSizes({ tree })}
          />
          <ResultPane />
          <Splitter
            width={sizes.actions}
            side="right"
            min={140}
            max={420}
            label="Resize actions pane"
            onResize={(actions) => setSizes({ actions })}
          />
          <ActionsPane />
        </main>
        <StatusBar />
      </div>
      <DialogHost />
    </ContextMenuHost>
  );
}
