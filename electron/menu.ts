/**
 * The native menu. The MMC menu bar (File, Action, View, Help) is drawn by the renderer, inside the
 * window as MMC draws it, because its Action menu follows the selection and the renderer owns that; a
 * second, native copy would need a command channel into the page. So Windows and Linux get no native
 * menu, and macOS, whose menu bar cannot be absent, gets the platform roles only.
 */
import type { MenuItemConstructorOptions } from 'electron';

/** The application menu template for a platform, or null for none. */
export function applicationMenuTemplate(
  platform: NodeJS.Platform,
  appName: string,
  options: { devTools: boolean },
): MenuItemConstructorOptions[] | null {
  if (platform !== 'darwin') return null;
  return [
    {
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { label: 'File', submenu: [{ role: 'close' }] },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        // A packaged app has no DevTools (window.ts); the item would do nothing.
        ...(options.devTools ? [{ role: 'toggleDevTools' } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ role: 'about' }] },
  ];
}
