/**
 * The main process: one instance, one window, the service in a utility process on the user's data
 * folder, and the IPC bridge between them.
 */
import { join } from 'node:path';
import { app, type BrowserWindow, dialog, ipcMain, Menu, protocol, utilityProcess, type WebContents } from 'electron';
import { APP_INDEX_URL, handleAppProtocol, registerAppScheme } from './app-protocol.js';
import { connectHost, type HostConnection } from './host-connection.js';
import { registerIpc } from './ipc.js';
import { applicationMenuTemplate } from './menu.js';
import { CONSOLE_CSP, createMainWindow, lockDown } from './window.js';

/** Where things are, relative to the bundled dist/electron/main.cjs. */
export function appPaths(bundleDir: string, userData: string) {
  return {
    preload: join(bundleDir, 'preload.cjs'),
    rendererDir: join(bundleDir, '..', 'renderer'),
    hostScript: join(bundleDir, 'main.cjs'),
    dataDir: join(userData, 'data'),
  };
}

/** Runs the Electron main process. */
export function runMain(bundleDir: string): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let window: BrowserWindow | null = null;
  let host: HostConnection | null = null;
  let disposeIpc: (() => void) | null = null;
  // Both must happen before the app is ready: every renderer sandboxed whatever its options say, and app: a
  // standard, secure scheme.
  app.enableSandbox();
  registerAppScheme(protocol);
  const devTools = !app.isPackaged;

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents: WebContents) => lockDown(contents));

  app.whenReady().then(
    async () => {
      const paths = appPaths(bundleDir, app.getPath('userData'));
      handleAppProtocol(protocol, { rendererDir: paths.rendererDir, contentSecurityPolicy: CONSOLE_CSP });
      const template = applicationMenuTemplate(process.platform, app.getName(), { devTools });
      Menu.setApplicationMenu(template ? Menu.buildFromTemplate(template) : null);
      try {
        // The utility process runs this same bundle; main.ts sends it to runHostProcess.
        const child = utilityProcess.fork(paths.hostScript, ['--qk-data', paths.dataDir], {
          serviceName: 'Queuekeeper Message Queuing',
          stdio: 'inherit',
        });
        host = await connectHost(child);
      } catch (error) {
        dialog.showErrorBox(
          'Message Queuing could not start',
          `The service on ${paths.dataDir} did not start:\n${error instanceof Error ? error.message : String(error)}`,
        );
        app.quit();
        return;
      }
      window = createMainWindow({ preloadPath: paths.preload, url: APP_INDEX_URL, devTools });
      window.on('closed', () => {
        window = null;
      });
      disposeIpc = registerIpc(ipcMain, host, {
        webContents: () => window?.webContents ?? null,
        indexUrl: APP_INDEX_URL,
      });
    },
    (error: unknown) => {
      dialog.showErrorBox('Queuekeeper', String(error));
      app.quit();
    },
  );

  app.on('window-all-closed', () => app.quit());
  let stopping = false;
  app.on('will-quit', (event) => {
    if (stopping || !host) return;
    // Let the queue manager flush and release the data folder before the process goes.
    event.preventDefault();
    stopping = true;
    disposeIpc?.();
    host
      .stop()
      .catch((error: unknown) => console.error('Queuekeeper: the service did not stop cleanly:', error))
      .finally(() => app.quit());
  });
}
