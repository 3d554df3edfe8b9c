// The main process wired up with a fake Electron: what happens before ready, what the window loads, what the
// bridge serves, and what a packaged app leaves out.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { QkClient, readServiceEndpoint } from '@qk/client';
import { runService } from '@qk/service';
import { resolveTarget } from '../../../core/cli/src/target.js';

const appEvents = new Map<string, (...args: unknown[]) => void>();
let ready: () => void = () => undefined;
const app = {
  isPackaged: false,
  requestSingleInstanceLock: vi.fn(() => true),
  quit: vi.fn(),
  on: vi.fn((event: string, fn: (...args: unknown[]) => void) => appEvents.set(event, fn)),
  whenReady: vi.fn(() => new Promise<void>((resolve) => (ready = resolve))),
  getPath: vi.fn(() => '/home/u/.config/Queuekeeper'),
  getName: () => 'Queuekeeper',
  enableSandbox: vi.fn(),
};
const protocol = { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() };
const ipcMain = { handle: vi.fn(), removeHandler: vi.fn() };
const menu = { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn((template: unknown) => ({ template })) };
const windows: Array<{ options: Electron.BrowserWindowConstructorOptions; loadURL: ReturnType<typeof vi.fn> }> = [];
const contents = { on: vi.fn(), setWindowOpenHandler: vi.fn(), send: vi.fn(), isDestroyed: () => false };
class FakeWindow {
  webContents = contents;
  loadURL = vi.fn(async () => undefined);
  once = vi.fn();
  on = vi.fn();
  constructor(options: Electron.BrowserWindowConstructorOptions) {
    windows.push({ options, loadURL: this.loadURL });
  }
}
const utilityProcess = { fork: vi.fn(() => ({})) };
const host = {
  name: 'ALPHA',
  id: 'id',
  url: 'http://127.0.0.1:1',
  call: vi.fn(async (op: string) => ({ ok: true as const, value: { op } })),
  subscribe: vi.fn(() => () => undefined),
  stop: vi.fn(async () => undefined),
};

vi.mock('electron', () => ({
  app,
  protocol,
  ipcMain,
  Menu: menu,
  BrowserWindow: FakeWindow,
  dialog: { showErrorBox: vi.fn() },
  utilityProcess,
  session: {
    defaultSession: {
      webRequest: { onHeadersReceived: vi.fn() },
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
    },
  },
}));
const connectHost = vi.fn(async () => host);
vi.mock('../../../electron/host-connection.js', () => ({ connectHost }));

const { appPaths, runMain } = await import('../../../electron/app-main.js');
const { applicationMenuTemplate } = await import('../../../electron/menu.js');

// A bundle folder as npm run build leaves it: dist/electron next to dist/renderer.
const dist = mkdtempSync(join(tmpdir(), 'qk-app-main-'));
mkdirSync(join(dist, 'electron'));
mkdirSync(join(dist, 'renderer'));
writeFileSync(join(dist, 'renderer/index.html'), '<title>the console</title>');
writeFileSync(join(dist, 'electron/main.cjs'), 'secret main bundle');
// The data folder of every test: QK_DATA, so no test ever looks at the real per-user folder.
const dataDir = join(dist, 'data');
const savedQkData = process.env['QK_DATA'];
process.env['QK_DATA'] = dataDir;
afterAll(() => {
  if (savedQkData === undefined) delete process.env['QK_DATA'];
  else process.env['QK_DATA'] = savedQkData;
  rmSync(dist, { recursive: true, force: true });
});

/** Runs the main process until its window and bridge exist. */
async function start(packaged: boolean) {
  app.isPackaged = packaged;
  runMain(join(dist, 'electron'));
  const beforeReady = {
    sandbox: app.enableSandbox.mock.calls.length,
    scheme: protocol.registerSchemesAsPrivileged.mock.calls.length,
  };
  ready();
  await vi.waitFor(() => expect(ipcMain.handle).toHaveBeenCalled());
  const [, serve] = protocol.handle.mock.calls[0] as [string, (request: Request) => Promise<Response>];
  const [, call] = ipcMain.handle.mock.calls[0] as [
    string,
    (event: unknown, op: unknown, input: unknown) => Promise<unknown>,
  ];
  return { beforeReady, serve, call, window: windows.at(-1) };
}

describe('electron main', () => {
  beforeEach(() => {
    appEvents.clear();
    windows.length = 0;
    vi.clearAllMocks();
  });

  it('a second instance quits at once and leaves the first one alone', () => {
    app.requestSingleInstanceLock.mockReturnValueOnce(false);
    runMain(join(dist, 'electron'));
    expect(app.quit).toHaveBeenCalled();
    expect(app.whenReady).not.toHaveBeenCalled();
  });

  it('sandboxes every renderer and registers app: before the app is ready', async () => {
    const { beforeReady } = await start(true);
    expect(beforeReady).toEqual({ sandbox: 1, scheme: 1 });
    expect([...appEvents.keys()]).toEqual(
      expect.arrayContaining(['second-instance', 'web-contents-created', 'window-all-closed', 'will-quit']),
    );
  });

  it('serves the renderer build on app://console and loads the window from there', async () => {
    const { serve, window } = await start(true);
    expect(window?.loadURL).toHaveBeenCalledWith('app://console/index.html');
    expect(await (await serve(new Request('app://console/index.html'))).text()).toBe('<title>the console</title>');
    // The main bundle sits next to the renderer build, and stays out of reach.
    expect((await serve(new Request('app://console/..%2felectron%2fmain.cjs'))).status).toBe(404);
  });

  it('the bridge answers the app:// page and refuses a file:// page in the same window', async () => {
    const { call } = await start(true);
    const frame = (url: string) => ({ sender: contents, senderFrame: { url, parent: null } });
    await expect(call(frame('app://console/index.html#/'), 'queueList', {})).resolves.toEqual({
      ok: true,
      value: { op: 'queueList' },
    });
    await expect(call(frame(`file://${dist}/renderer/index.html`), 'queuePurge', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
    expect(host.call).toHaveBeenCalledTimes(1);
  });

  it('a packaged app has no DevTools; a development run has them', async () => {
    expect((await start(true)).window?.options.webPreferences?.devTools).toBe(false);
    windows.length = 0;
    vi.clearAllMocks();
    expect((await start(false)).window?.options.webPreferences?.devTools).toBe(true);
  });

  it('starts the service in a utility process on the data folder when none runs there', async () => {
    await start(true);
    expect(utilityProcess.fork).toHaveBeenCalledWith(join(dist, 'electron/main.cjs'), ['--qk-data', dataDir], {
      serviceName: 'Queuekeeper Message Queuing',
      stdio: 'inherit',
    });
    expect(connectHost).toHaveBeenCalledTimes(1);
  });
});

describe('the data folder: one queue manager for the desktop app and qk', () => {
  const folder = (env: NodeJS.ProcessEnv) => appPaths('/app/dist/electron', env).dataDir;
  const qkFolder = (env: NodeJS.ProcessEnv) => {
    const target = resolveTarget({}, env);
    return target.kind === 'data' ? target.dataDir : null;
  };

  it('is the folder qk uses: QK_DATA, else $XDG_DATA_HOME/queuekeeper, else ~/.local/share/queuekeeper', () => {
    const cases: NodeJS.ProcessEnv[] = [
      { QK_DATA: '/srv/qk', XDG_DATA_HOME: '/home/u/.data' },
      { XDG_DATA_HOME: '/home/u/.data' },
      { HOME: '/home/u' },
    ];
    expect(cases.map(folder)).toEqual(cases.map(qkFolder));
    expect(cases.map(folder).slice(0, 2)).toEqual(['/srv/qk', '/home/u/.data/queuekeeper']);
  });
});

describe('with a service already running on the data folder', () => {
  beforeEach(() => {
    appEvents.clear();
    windows.length = 0;
    vi.clearAllMocks();
  });

  it('uses that service (no second one), and leaves it running when the app quits', async () => {
    const service = await runService({ dataDir, name: 'DESKTOP', consoleDir: null });
    const other = await QkClient.fromDataDir(dataDir);
    try {
      const { call } = await start(true);
      expect(utilityProcess.fork).not.toHaveBeenCalled();
      expect(connectHost).not.toHaveBeenCalled();
      const page = { sender: contents, senderFrame: { url: 'app://console/index.html', parent: null } };
      await expect(call(page, 'queueCreate', { path: '.\\private$\\from-the-app' })).resolves.toMatchObject({
        ok: true,
      });
      // What the console did is what qk sees: the same queue manager.
      expect((await other.queueList({})).map((q) => q.path)).toContain('.\\private$\\from-the-app');
      await expect(call(page, 'queueShow', { path: '.\\private$\\missing' })).resolves.toMatchObject({
        ok: false,
        error: { code: 'QUEUE_NOT_FOUND' },
      });

      const preventDefault = vi.fn();
      appEvents.get('will-quit')?.({ preventDefault });
      await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
      expect(readServiceEndpoint(dataDir).url).toBe(service.url);
      expect((await other.serviceStatus({})).name).toBe('DESKTOP');
    } finally {
      await other.close();
      await service.stop();
    }
  });
});

describe('application menu', () => {
  const roles = (template: Electron.MenuItemConstructorOptions[] | null): string[] =>
    (template ?? []).flatMap((item) => [
      ...(item.role ? [item.role] : []),
      ...roles(Array.isArray(item.submenu) ? item.submenu : null),
    ]);

  it('none on Windows and Linux (the MMC menu bar is drawn in the window)', () => {
    expect(applicationMenuTemplate('linux', 'Queuekeeper', { devTools: true })).toBeNull();
    expect(applicationMenuTemplate('win32', 'Queuekeeper', { devTools: true })).toBeNull();
  });

  it('on macOS: platform roles, and Toggle Developer Tools only outside a packaged app', () => {
    expect(roles(applicationMenuTemplate('darwin', 'Queuekeeper', { devTools: false }))).not.toContain(
      'toggleDevTools',
    );
    expect(roles(applicationMenuTemplate('darwin', 'Queuekeeper', { devTools: true }))).toContain('toggleDevTools');
    expect(roles(applicationMenuTemplate('darwin', 'Queuekeeper', { devTools: false }))).toContain('quit');
  });
});
