/** The console window with the secure defaults fixed in one place (Electron's security checklist). */
import { BrowserWindow, dialog, session, type BrowserWindowConstructorOptions, type WebContents } from 'electron';

/** The renderer's policy; the same as the meta tag of renderer/index.html, sent as a header where headers exist. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self' http: https: ws: wss:; base-uri 'none'; form-action 'none'";

/** The options every console window gets; exported so a test can check each one. */
export function secureWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 800,
    minHeight: 500,
    title: 'Queuekeeper — Message Queuing',
    show: false,
    backgroundColor: '#f0f0f0',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** No navigation away from the console, no new windows, no webviews, no permissions. */
export function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

let cspInstalled = false;

/** Creates the window and loads the renderer file. */
export function createMainWindow(options: { preloadPath: string; indexHtml: string }): BrowserWindow {
  if (!cspInstalled) {
    cspInstalled = true;
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONSOLE_CSP] } });
    });
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  }
  const window = new BrowserWindow(secureWindowOptions(options.preloadPath));
  lockDown(window.webContents);
  window.once('ready-to-show', () => window.show());
  window.loadFile(options.indexHtml).catch((error: unknown) => {
    // A console that did not load is an empty window: say why instead.
    console.error('Queuekeeper: the console did not load:', error);
    dialog.showErrorBox('Queuekeeper', `The console did not load from ${options.indexHtml}:\n${String(error)}`);
  });
  return window;
}
