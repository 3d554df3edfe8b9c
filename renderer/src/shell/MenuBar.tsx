/** The MMC menu bar: File, Action, View, Help (the Action menu is the Actions pane's model). */
import { useRef, useState } from 'react';
import { buildActions, type ActionItem } from '../commands/actions.js';
import { inBackground } from '../store/shared.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { PopupMenu } from './ContextMenu.js';

type MenuName = 'File' | 'Action' | 'View' | 'Help';
const MENUS: MenuName[] = ['File', 'Action', 'View', 'Help'];

/** The window's menu bar. */
export function MenuBar() {
  const store = useStoreApi();
  const [open, setOpen] = useState<{ name: MenuName; x: number; y: number } | null>(null);
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  useAppStore((s) => s.selectedNodeId);

  const itemsFor = (name: MenuName): ActionItem[] => {
    const s = store.getState();
    const model = buildActions(store);
    const find = (id: string) => [...model.nodeActions, ...model.selectionActions].find((a) => a.id === id);
    switch (name) {
      case 'File':
        return [
          { id: 'connect', label: 'Connect to another computer…', run: () => s.openDialog({ kind: 'connect' }) },
          ...[find('import'), find('export')].filter((a): a is ActionItem => a !== undefined),
          // In Electron closing the one window quits (and the service flushes); a browser tab is the user's to close.
          ...(window.queuekeeper ? [{ id: 'exit', label: 'Exit', run: () => window.close() }] : []),
        ];
      case 'Action':
        return [...model.nodeActions, ...model.selectionActions.map((a) => ({ ...a, id: `sel-${a.id}` }))];
      case 'View':
        return [
          { id: 'columns', label: 'Add/Remove Columns…', run: () => s.openDialog({ kind: 'columns' }) },
          { id: 'filter', label: 'Filter', shortcut: 'Ctrl+F', run: () => s.setFilterVisible(true) },
          { id: 'refresh', label: 'Refresh', shortcut: 'F5', run: () => inBackground(s, 'Refresh', s.refreshAll()) },
        ];
      case 'Help':
        return [{ id: 'about', label: 'About Queuekeeper', run: () => s.openDialog({ kind: 'about' }) }];
      default:
        return [];
    }
  };

  const show = (name: MenuName) => {
    const rect = refs.current[name]?.getBoundingClientRect();
    setOpen({ name, x: rect?.left ?? 0, y: rect?.bottom ?? 0 });
  };

  return (
    <nav className="menu-bar" role="menubar" aria-label="Main menu">
      {MENUS.map((name) => (
        <button
          key={name}
          ref={(el) => {
            refs.current[name] = el;
          }}
          type="button"
          role="menuitem"
          aria-haspopup="menu"
          aria-expanded={open?.name === name}
          className={`menu-title${open?.name === name ? ' open' : ''}`}
          onClick={() => (open?.name === name ? setOpen(null) : show(name))}
          onMouseEnter={() => open && open.name !== name && show(name)}
          onKeyDown={(e) => {
            const index = MENUS.indexOf(name);
            if (e.key === 'ArrowRight') refs.current[MENUS[(index + 1) % MENUS.length] as string]?.focus();
            else if (e.key === 'ArrowLeft')
              refs.current[MENUS[(index + MENUS.length - 1) % MENUS.length] as string]?.focus();
            else if (e.key === 'ArrowDown') show(name);
            else return;
            e.preventDefault();
          }}
        >
          {name}
        </button>
      ))}
      {open && (
        <PopupMenu x={open.x} y={open.y} items={itemsFor(open.name)} label={open.name} onClose={() => setOpen(null)} />
      )}
    </nav>
  );
}
