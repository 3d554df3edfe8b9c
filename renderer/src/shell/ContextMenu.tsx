/**
 * Right-click (and Shift+F10 / Menu key) menus built from the same action model as the Actions pane. A
 * menu gives the focus back to where it was when it closes — by Esc, by a click elsewhere, or by running
 * an item (a dialog that item opens then returns the focus there too).
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ActionItem } from '../commands/action-item.js';

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
  onKeyLeftRight,
  focusAfterRun,
}: {
  x: number;
  y: number;
  items: ActionItem[];
  onClose: () => void;
  label: string;
  /** The menu bar moves to the neighbouring menu with the left/right arrows. */
  onKeyLeftRight?: (direction: -1 | 1) => void;
  /** Where the focus goes when an item runs (the menu bar: back to the content, not to its own title). */
  focusAfterRun?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  /** Where the focus was before the menu took it. */
  const returnTo = useRef<HTMLElement | null>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  const close = () => {
    const target = returnTo.current;
    closeRef.current();
    if (target?.isConnected) target.focus();
  };

  useEffect(() => {
    returnTo.current = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onMouseDown = (event: globalThis.MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) closeRef.current();
    };
    window.addEventListener('mousedown', onMouseDown);
    return () => window.removeEventListener('mousedown', onMouseDown);
  }, []);

  const run = (item: ActionItem | undefined) => {
    if (!item || item.disabledReason) return;
    // Focus goes back first, so a dialog the item opens returns it there when it closes.
    const after = focusAfterRun?.();
    close();
    if (after?.isConnected) after.focus();
    item.run();
  };

  const left = Math.max(0, Math.min(x, window.innerWidth - 260));
  const top = Math.max(0, Math.min(y, window.innerHeight - items.length * 22 - 8));
  return (
    <div
      ref={ref}
      className="popup-menu"
      role="menu"
      aria-label={label}
      aria-activedescendant={`menu-item-${active}`}
      tabIndex={-1}
      style={{ left, top }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') setActive((a) => (a + 1) % items.length);
        else if (e.key === 'ArrowUp') setActive((a) => (a - 1 + items.length) % items.length);
        else if (e.key === 'Home') setActive(0);
        else if (e.key === 'End') setActive(items.length - 1);
        else if (e.key === 'Escape' || e.key === 'Tab' || (e.key === 'F10' && !e.shiftKey)) close();
        else if (e.key === 'Enter' || e.key === ' ') run(items[active]);
        else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && onKeyLeftRight)
          onKeyLeftRight(e.key === 'ArrowLeft' ? -1 : 1);
        else if (e.key.length === 1 && /\w/.test(e.key)) {
          // Type-ahead: the next item starting with the letter, as Windows menus do.
          const letter = e.key.toLowerCase();
          const next = items.findIndex((item, i) => i > active && item.label.toLowerCase().startsWith(letter));
          const first = items.findIndex((item) => item.label.toLowerCase().startsWith(letter));
          if (next >= 0 || first >= 0) setActive(next >= 0 ? next : first);
        } else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {items.map((item, index) => (
        <div
          key={item.id}
          id={`menu-item-${index}`}
          role="menuitem"
          aria-disabled={item.disabledReason ? true : undefined}
          title={item.disabledReason}
          className={`menu-item${index === active ? ' active' : ''}${item.disabledReason ? ' disabled' : ''}`}
          onMouseMove={() => index !== active && setActive(index)}
          onClick={() => run(item)}
        >
          <span>{item.label}</span>
          {item.shortcut && <span className="shortcut">{item.shortcut}</span>}
        </div>
      ))}
    </div>
  );
}
