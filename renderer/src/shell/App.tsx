/** The console window: menu bar, toolbar, three resizable panes, status bar, dialogs. */
import { DialogHost } from '../dialogs/DialogHost.js';
import { usePaneSizes } from './use-pane-sizes.js';
import { useAppStore } from '../store/use-app-store.js';
import { ActionsPane } from './ActionsPane.js';
import { ContextMenuHost } from './ContextMenu.js';
import { MenuBar } from './MenuBar.js';
import { Notices } from './Notices.js';
import { ResultPane } from './ResultPane.js';
import { Splitter } from './Splitter.js';
import { StatusBar } from './StatusBar.js';
import { Toolbar } from './Toolbar.js';
import { TreePane } from '../tree/TreePane.js';
import { useGlobalKeys } from './use-global-keys.js';

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
