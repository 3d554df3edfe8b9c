/** The console window: menu bar, toolbar, three resizable panes, status bar, dialogs. */
import { useEffect, useState } from 'react';
import { DialogHost } from '../dialogs/DialogHost.js';
import { useAppStore } from '../store/use-app-store.js';
import { TreePane } from '../tree/TreePane.js';
import { ActionsPane } from './ActionsPane.js';
import { ContextMenuHost } from './ContextMenu.js';
import { MenuBar } from './MenuBar.js';
import { Notices } from './Notices.js';
import { ResultPane } from './ResultPane.js';
import { Splitter } from './Splitter.js';
import { StatusBar } from './StatusBar.js';
import { Toolbar } from './Toolbar.js';
import { useGlobalKeys } from './use-global-keys.js';
import { usePaneSizes } from './use-pane-sizes.js';

/** Side panes never take more than these shares of the window, so a small window keeps its list wide. */
const TREE_SHARE = 0.24;
const ACTIONS_SHARE = 0.16;
const SPLITTER = 5;

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/** The application. */
export function App({ showMenuBar = true }: { showMenuBar?: boolean }) {
  const [sizes, setSizes] = usePaneSizes();
  const dialogOpen = useAppStore((s) => s.dialog !== null);
  const view = useAppStore((s) => s.view);
  const windowWidth = useWindowWidth();
  useGlobalKeys();
  const tree = Math.round(Math.min(sizes.tree, Math.max(160, windowWidth * TREE_SHARE)));
  const actions = Math.round(Math.min(sizes.actions, Math.max(140, windowWidth * ACTIONS_SHARE)));
  const columns = [
    ...(view.tree ? [`${tree}px`, `${SPLITTER}px`] : []),
    'minmax(240px, 1fr)',
    ...(view.actions ? [`${SPLITTER}px`, `${actions}px`] : []),
  ];
  return (
    <ContextMenuHost>
      {/* Behind a dialog the window is hidden from assistive technology; the backdrop takes the pointer and
          the dialog keeps the keyboard (its focus trap). Not inert: that would take the focus before the
          dialog layer has noted where to give it back. */}
      <div className="app" aria-hidden={dialogOpen ? true : undefined}>
        {showMenuBar && <MenuBar />}
        {view.toolbar && <Toolbar />}
        <Notices />
        <main className="panes" style={{ gridTemplateColumns: columns.join(' ') }}>
          {view.tree && (
            <>
              <nav className="tree-pane" aria-label="Console tree">
                <TreePane />
              </nav>
              <Splitter
                width={tree}
                side="left"
                min={160}
                max={600}
                label="Resize console tree"
                onResize={(width) => setSizes({ tree: width })}
              />
            </>
          )}
          <ResultPane />
          {view.actions && (
            <>
              <Splitter
                width={actions}
                side="right"
                min={140}
                max={420}
                label="Resize actions pane"
                onResize={(width) => setSizes({ actions: width })}
              />
              <ActionsPane />
            </>
          )}
        </main>
        {view.statusBar && <StatusBar />}
      </div>
      <DialogHost />
    </ContextMenuHost>
  );
}
