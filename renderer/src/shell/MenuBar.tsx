/**
 * The MMC menu bar: File, Action, View, Help. The Action menu is the Actions pane's model (node, then
 * selection). Reachable without a mouse as in Windows: F10 or Alt alone focuses the bar, Alt+F/A/V/H opens
 * a menu, the arrows move between menus, Esc goes back to where the user was.
 */
import { useEffect, useRef, useState } from 'react';
import { attempt, buildActions, findAction, type ActionItem } from '../commands/actions.js';
import { parseNodeId } from '../tree/tree-model.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { PopupMenu } from './ContextMenu.js';

type MenuName = 'File' | 'Action' | 'View' | 'Help';
const MENUS: MenuName[] = ['File', 'Action', 'View', 'Help'];
const ACCESS_KEYS: Record<string, MenuName> = { f: 'File', a: 'Action', v: 'View', h: 'Help' };

/** The window's menu bar. */
export function MenuBar() {
  const store = useStoreApi();
  const [open, setOpen] = useState<{ name: MenuName; x: number; y: number } | null>(null);
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  /** Where the focus was before the keyboard entered the menu bar. */
  const returnTo = useRef<HTMLElement | null>(null);
  useAppStore((s) => s.selectedNodeId);

  const itemsFor = (name: MenuName): ActionItem[] => {
    const s = store.getState();
    const model = buildActions(store);
    const computer = s.selectedNodeId ? parseNodeId(s.selectedNodeId).computer : (s.computers[0]?.key ?? 'local');
    switch (name) {
      case 'File':
        return [
          { id: 'connect', label: 'Connect to another computer…', run: () => s.openDialog({ kind: 'connect' }) },
          ...[findAction(model, 'import'), findAction(model, 'export')].filter((a): a is ActionItem => a !== undefined),
          // In Electron closing the one window quits (and the service flushes); a browser tab is the user's to close.
          ...(window.queuekeeper ? [{ id: 'exit', label: 'Exit', run: () => window.close() }] : []),
        ];
      case 'Action':
        return [...model.nodeActions, ...model.selectionActions.map((a) => ({ ...a, id: `sel-${a.id}` }))];
      case 'View':
        return [
          { id: 'columns', label: 'Add/Remove Columns…', run: () => s.openDialog({ kind: 'columns' }) },
          { id: 'customize', label: 'Customize View…', run: () => s.openDialog({ kind: 'customizeView' }) },
          { id: 'filter', label: 'Filter', shortcut: 'Ctrl+F', run: () => s.setFilterVisible(true) },
          {
            id: 'search',
            label: 'Search all queues…',
            shortcut: 'Ctrl+Shift+F',
            run: () => s.openDialog({ kind: 'search', computer }),
          },
          {
            id: 'refresh',
            label: 'Refresh',
            shortcut: 'F5',
            run: () => attempt(store, 'Refresh', () => s.refreshAll()),
          },
        ];
      case 'Help':
        return [{ id: 'about', label: 'About Queuekeeper', run: () => s.openDialog({ kind: 'about' }) }];
      default:
        return [];
    }
  };

  const show = (name: MenuName) => {
    const rect = refs.current[name]?.getBoundingClientRect();
    refs.current[name]?.focus();
    setOpen({ name, x: rect?.left ?? 0, y: rect?.bottom ?? 0 });
  };

  const neighbour = (name: MenuName, direction: -1 | 1): MenuName =>
    MENUS[(MENUS.indexOf(name) + direction + MENUS.length) % MENUS.length] as MenuName;

  // F10 / Alt focuses the bar; Alt+letter opens a menu (the window's keys, as in any Windows program).
  useEffect(() => {
    let altAlone = false;
    const enter = () => {
      if (!document.querySelector('.menu-bar')?.contains(document.activeElement))
        returnTo.current = document.activeElement as HTMLElement | null;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (store.getState().dialog) return;
      altAlone = event.key === 'Alt' && !event.ctrlKey && !event.shiftKey;
      if (event.key === 'F10' && !event.shiftKey && !event.ctrlKey) {
        event.preventDefault();
        enter();
        refs.current['File']?.focus();
      } else if (event.altKey && !event.ctrlKey && ACCESS_KEYS[event.key.toLowerCase()]) {
        event.preventDefault();
        enter();
        show(ACCESS_KEYS[event.key.toLowerCase()] as MenuName);
      }
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key === 'Alt' && altAlone && !store.getState().dialog) {
        event.preventDefault();
        enter();
        refs.current['File']?.focus();
      }
      altAlone = false;
    };
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
    };
  }, [store]);

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
          aria-keyshortcuts={`Alt+${name[0]}`}
          className={`menu-title${open?.name === name ? ' open' : ''}`}
          onMouseDown={() => {
            if (!document.querySelector('.menu-bar')?.contains(document.activeElement))
              returnTo.current = document.activeElement as HTMLElement | null;
          }}
          onClick={() => (open?.name === name ? setOpen(null) : show(name))}
          onMouseEnter={() => open && open.name !== name && show(name)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') refs.current[neighbour(name, 1)]?.focus();
            else if (e.key === 'ArrowLeft') refs.current[neighbour(name, -1)]?.focus();
            else if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') show(name);
            else if (e.key === 'Escape' || e.key === 'F10') {
              const target = returnTo.current;
              returnTo.current = null;
              if (target?.isConnected) target.focus();
              else (document.querySelector<HTMLElement>('.tree') ?? document.body).focus();
            } else return;
            e.preventDefault();
          }}
        >
          <span className="access-key">{name[0]}</span>
          {name.slice(1)}
        </button>
      ))}
      {open && (
        <PopupMenu
          x={open.x}
          y={open.y}
          items={itemsFor(open.name)}
          label={open.name}
          onClose={() => setOpen(null)}
          onKeyLeftRight={(direction) => show(neighbour(open.name, direction))}
          focusAfterRun={() => {
            const target = returnTo.current;
            returnTo.current = null;
            return target ?? document.querySelector<HTMLElement>('.tree');
          }}
        />
      )}
    </nav>
  );
}
