/** Right-click menus built from the same action model as the Actions pane. */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ActionItem } from '../commands/actions.js';

type OpenMenu = (x: number, y: number, items: ActionItem[]) => void;
const MenuContext = createContext<OpenMenu>(() => undefined);

/** Opens a context menu at a point. */
export function useContextMenu(): OpenMenu {
  return useContext(MenuContext);
}

/** Hosts the one context menu that can be open. */
export function ContextMenuHost({ children }: { children: ReactNode }) {
  const [menu, setMenu] = useState<{ x: number; y: number; items: ActionItem[] } | null>(null);
  return (
    <MenuContext.Provider value={(x, y, items) => setMenu(items.length > 0 ? { x, y, items } : null)}>
      {children}
      {menu && (
        <PopupMenu x={menu.x} y={menu.y} items={menu.items} onClose={() => setMenu(null)} label="Context menu" />
      )}
    </MenuContext.Provider>
  );
}

/** A keyboard-operable popup menu (also used by the menu bar). */
export function PopupMenu({
  x,
  y,
  items,
  onClose,
  label,
}: {
  x: number;
  y: number;
  items: ActionItem[];
  onClose: () => void;
  label: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  useEffect(() => {
    ref.current?.focus();
    const close = (event: globalThis.MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    window.addEventListener('mousedown', close);
    return () => window.removeEventListener('mousedown', close);
  }, [onClose]);
  const left = Math.min(x, window.innerWidth - 240);
  const top = Math.min(y, window.innerHeight - items.length * 24 - 8);
  return (
    <div
      ref={ref}
      className="popup-menu"
      role="menu"
      aria-label={label}
      tabIndex={-1}
      style={{ left, top }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') setActive((a) => (a + 1) % items.length);
        else if (e.key === 'ArrowUp') setActive((a) => (a - 1 + items.length) % items.length);
        else if (e.key === 'Escape') onClose();
        else if (e.key === 'Enter') {
          onClose();
          items[active]?.run();
        } else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {items.map((item, index) => (
        <div
          key={item.id}
          role="menuitem"
          className={`menu-item${index === active ? ' active' : ''}`}
          onMouseEnter={() => setActive(index)}
          onClick={() => {
            onClose();
            item.run();
          }}
        >
          <span>{item.label}</span>
          {item.shortcut && <span className="shortcut">{item.shortcut}</span>}
        </div>
      ))}
    </div>
  );
}
