// The console window as Electron would build it (a fake BrowserWindow records what it was given and told).
import { beforeEach, describe, expect, it, vi } from 'vitest';

const created: Array<{ options: Electron.BrowserWindowConstructorOptions; window: FakeWindow }> = [];
const onHeadersReceived = vi.fn();
const setPermissionRequestHandler = vi.fn();
const setPermissionCheckHandler = vi.fn();
const showErrorBox = vi.fn();
let loadResult: Promise<void> = Promise.resolve();

class FakeContents {
  handlers = new Map<string, (...args: unknown[]) => void>();
  openHandler: ((details: { url: string }) => unknown) | null = null;
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(event, fn);
    return this;
  }
  setWindowOpenHandler(fn: (details: { url: string }) => unknown) {
    this.openHandler = fn;
  }
}
class FakeWindow {
  webContents = new FakeContents();
  loadURL = vi.fn(() => loadResult);
  loadFile = vi.fn(async () => undefined);
  once = vi.fn();
  constructor(options: Electron.BrowserWindowConstructorOptions) {
    created.push({ options, window: this });
  }
}

vi.mock('electron', () => ({
  BrowserWindow: FakeWindow,
  dialog: { showErrorBox },
  session: {
    defaultSession: { webRequest: { onHeadersReceived }, setPermissionRequestHandler, setPermissionCheckHandler },
  },
}));

const { createMainWindow, CONSOLE_CSP } = await import('../../../electron/window.js');
const { APP_INDEX_URL } = await import('../../../electron/app-protocol.js');

const open = (devTools = false) => {
  createMainWindow({ preloadPath: '/app/dist/electron/preload.cjs', url: APP_INDEX_URL, devTools });
  const last = created.at(-1);
  if (!last) throw new Error('no window was created');
  return last;
};

describe('createMainWindow', () => {
  beforeEach(() => {
    created.length = 0;
    loadResult = Promise.resolve();
    // Not the session hooks: they are installed once per process, by the first window.
    showErrorBox.mockClear();
  });

  it('loads the console from app://, never from a file', () => {
    const { window } = open();
    expect(window.loadURL).toHaveBeenCalledWith('app://console/index.html');
    expect(window.loadFile).not.toHaveBeenCalled();
  });

  it('isolates and sandboxes the page, with no Node and our preload only', () => {
    const prefs = open().options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
      preload: '/app/dist/electron/preload.cjs',
    });
    expect(prefs?.experimentalFeatures).not.toBe(true);
    expect(prefs?.enableBlinkFeatures).toBeUndefined();
  });

  it('has DevTools only when asked (development), none in a packaged app', () => {
    expect(open(false).options.webPreferences?.devTools).toBe(false);
    expect(open(true).options.webPreferences?.devTools).toBe(true);
  });

  it('prevents navigation, redirects, webviews and new windows', () => {
    const contents = open().window.webContents;
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      contents.handlers.get(event)?.({ preventDefault }, 'https://example.com/');
      expect(preventDefault, event).toHaveBeenCalledTimes(1);
    }
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: APP_INDEX_URL })).toEqual({ action: 'deny' });
  });

  it('sends the console CSP as a header on every response and denies every permission request and check', () => {
    open();
    const hook = onHeadersReceived.mock.calls[0]?.[0] as
      ((details: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void) | undefined;
    if (!hook) throw new Error('no header hook was installed');
    const callback = vi.fn();
    hook({ responseHeaders: { a: ['b'] } }, callback);
    expect(callback).toHaveBeenCalledWith({ responseHeaders: { a: ['b'], 'Content-Security-Policy': [CONSOLE_CSP] } });
    const permission = setPermissionRequestHandler.mock.calls[0]?.[0] as (
      contents: unknown,
      name: string,
      cb: (granted: boolean) => void,
    ) => void;
    for (const name of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const answer = vi.fn();
      permission({}, name, answer);
      expect(answer, name).toHaveBeenCalledWith(false);
    }
    const check = setPermissionCheckHandler.mock.calls[0]?.[0] as (contents: unknown, name: string) => boolean;
    expect(['clipboard-read', 'media', 'notifications'].map((name) => check(null, name))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('a page that fails to load is reported, not swallowed', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    loadResult = Promise.reject(new Error('ERR_FILE_NOT_FOUND (-6)'));
    open();
    await vi.waitFor(() => expect(showErrorBox).toHaveBeenCalledTimes(1));
    expect(showErrorBox.mock.calls[0]?.[1]).toContain('ERR_FILE_NOT_FOUND');
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});

describe('the console CSP', () => {
  it('allows scripts and styles from the console itself only: no inline code, no eval, no plugins', () => {
    const directives = new Map(
      CONSOLE_CSP.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(CONSOLE_CSP).not.toMatch(/unsafe-(inline|eval)/);
    expect(directives.has('object-src') ? directives.get('object-src') : ["'none'"]).toEqual(["'none'"]);
  });
});
