import { beforeEach, describe, expect, it, vi } from 'vitest';

const handlers = new Map<string, (...args: unknown[]) => void>();
const app = {
  requestSingleInstanceLock: vi.fn(() => true),
  quit: vi.fn(),
  on: vi.fn((event: string, fn: (...args: unknown[]) => void) => handlers.set(event, fn)),
  whenReady: vi.fn(() => new Promise(() => undefined)),
  getPath: vi.fn(() => '/home/u/.config/Queuekeeper'),
  getName: () => 'Queuekeeper',
};
vi.mock('electron', () => ({
  app,
  BrowserWindow: vi.fn(),
  dialog: {},
  ipcMain: {},
  Menu: {},
  utilityProcess: {},
  session: {},
}));

const { appPaths, runMain } = await import('../../../electron/app-main.js');
const { applicationMenuTemplate } = await import('../../../electron/menu.js');

describe('electron main', () => {
  beforeEach(() => {
    handlers.clear();
    vi.clearAllMocks();
  });

  it('a second instance quits at once and leaves the first one alone', () => {
    app.requestSingleInstanceLock.mockReturnValueOnce(false);
    runMain('/app/dist/electron');
    expect(app.quit).toHaveBeenCalled();
    expect(app.whenReady).not.toHaveBeenCalled();
  });

  it('the first instance waits for ready and locks down every web contents', () => {
    runMain('/app/dist/electron');
    expect(app.quit).not.toHaveBeenCalled();
    expect(app.whenReady).toHaveBeenCalled();
    expect([...handlers.keys()]).toEqual(
      expect.arrayContaining(['second-instance', 'web-contents-created', 'window-all-closed', 'will-quit']),
    );
  });

  it('keeps the data in the user data folder and loads the built renderer', () => {
    expect(appPaths('/app/dist/electron', '/home/u/.config/Queuekeeper')).toEqual({
      preload: '/app/dist/electron/preload.cjs',
      indexHtml: '/app/dist/renderer/index.html',
      hostScript: '/app/dist/electron/main.cjs',
      dataDir: '/home/u/.config/Queuekeeper/data',
    });
  });

  it('has no native menu on Windows and Linux (the MMC menu bar is in the window), platform roles on macOS', () => {
    expect(applicationMenuTemplate('linux', 'Queuekeeper')).toBeNull();
    expect(applicationMenuTemplate('win32', 'Queuekeeper')).toBeNull();
    const mac = applicationMenuTemplate('darwin', 'Queuekeeper') ?? [];
    expect(mac.map((m) => m.label ?? m.role)).toEqual([
      'Queuekeeper',
      'File',
      'editMenu',
      'View',
      'windowMenu',
      'help',
    ]);
  });
});
