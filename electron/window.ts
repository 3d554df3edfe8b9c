/** The console window with the secure defaults fixed in one place (Electron's security checklist). */
import { BrowserWindow, dialog, session, type BrowserWindowConstructorOptions, type WebContents } from 'electron';
import { ANY_SERVICE_CONNECT_SRC, consoleContentSecurityPolicy } from '@qk/api';

/** The console's one policy (core/api), as a header on what the app serves; the console may connect to any service. */
export const CONSOLE_CSP = consoleContentSecurityPolicy(ANY_SERVICE_CONNECT_SRC);

/**
 * The options every console window gets; exported so a test can check each one. DevTools exist only in
 * development: a packaged app has no way to open them (no menu item, no shortcut, no API that works).
 */
export function secureWindowOptions(preloadPath: string, devTools = false): BrowserWindowConstructorOptions {
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
      experimentalFeatures: false,
      devTools,
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

/** What the window shows and with which preload; `devTools` is false in a packaged app. */
export interface MainWindowOptions {
  preloadPath: string;
  /** The console's page: `app://console/index.html` (app-protocol.ts), never a file:// URL. */
  url: string;
  devTools: boolean;
}

/** Creates the window and loads the console. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  if (!cspInstalled) {
    cspInstalled = true;
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONSOLE_CSP] } });
    });
    // The console needs no permission (camera, notifications, clipboard reads, …): refuse requests and checks.
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
  }
  const window = new BrowserWindow(secureWindowOptions(options.preloadPath, options.devTools));
  lockDown(window.webContents);
  window.once('ready-to-show', () => window.show());
  window.loadURL(options.url).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Queuekeeper: ${options.url} did not load: ${message}`);
    dialog.showErrorBox('Queuekeeper', `The console could not be loaded (${options.url}):\n${message}`);
  });
  return window;
}
