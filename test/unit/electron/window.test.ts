import { beforeEach, describe, expect, it, vi } from 'vitest';

const created: Array<{ options: Record<string, unknown>; window: FakeWindow }> = [];
const onHeadersReceived = vi.fn();
const setPermissionRequestHandler = vi.fn();

class FakeContents {
  handlers = new Map<string, (...args: unknown[]) => void>();
  openHandler: (() => unknown) | null = null;
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(event, fn);
    return this;
  }
  setWindowOpenHandler(fn: () => unknown) {
    this.openHandler = fn;
  }
}
class FakeWindow {
  webContents = new FakeContents();
  loadFile = vi.fn(async () => undefined);
  once = vi.fn();
  constructor(options: Record<string, unknown>) {
    created.push({ options, window: this });
  }
}

vi.mock('electron', () => ({
  BrowserWindow: FakeWindow,
  session: { defaultSession: { webRequest: { onHeadersReceived }, setPermissionRequestHandler } },
}));

const { createMainWindow, CONSOLE_CSP, secureWindowOptions } = await import('../../../electron/window.js');

describe('createMainWindow', () => {
  beforeEach(() => {
    created.length = 0;
  });

  it('fixes the secure defaults: isolation, sandbox, no Node, web security, our preload', () => {
    createMainWindow({ preloadPath: '/app/dist/electron/preload.cjs', indexHtml: '/app/dist/renderer/index.html' });
    const prefs = created[0]?.options['webPreferences'] as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
      preload: '/app/dist/electron/preload.cjs',
    });
    expect(created[0]?.window.loadFile).toHaveBeenCalledWith('/app/dist/renderer/index.html');
  });

  it('prevents navigation and new windows', () => {
    createMainWindow({ preloadPath: 'p', indexHtml: 'i' });
    const contents = created[0]?.window.webContents as FakeContents;
    const event = { preventDefault: vi.fn() };
    contents.handlers.get('will-navigate')?.(event, 'https://example.com');
    contents.handlers.get('will-attach-webview')?.(event);
    expect(event.preventDefault).toHaveBeenCalledTimes(2);
    expect(contents.openHandler?.()).toEqual({ action: 'deny' });
  });

  it('sends a strict CSP header and denies permission requests', () => {
    createMainWindow({ preloadPath: 'p', indexHtml: 'i' });
    const hook = onHeadersReceived.mock.calls[0]?.[0] as (details: unknown, cb: (r: unknown) => void) => void;
    const callback = vi.fn();
    hook({ responseHeaders: { a: ['b'] } }, callback);
    expect(callback).toHaveBeenCalledWith({ responseHeaders: { a: ['b'], 'Content-Security-Policy': [CONSOLE_CSP] } });
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    const permission = setPermissionRequestHandler.mock.calls[0]?.[0] as (
      c: unknown,
      p: string,
      cb: (ok: boolean) => void,
    ) => void;
    const answer = vi.fn();
    permission({}, 'media', answer);
    expect(answer).toHaveBeenCalledWith(false);
  });

  it('the renderer meta CSP is the same policy as the header', async () => {
    const { readFileSync } = await import('node:fs');
    const html = readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');
    expect(html).toContain(`content="${CONSOLE_CSP}"`);
    expect(secureWindowOptions('x').show).toBe(false);
  });
});
