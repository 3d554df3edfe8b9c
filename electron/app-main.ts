/**
 * The main process: one instance, one window, the IPC bridge, and this computer's queue manager on the data
 * folder `qk` uses too — the service already running there, or else one started in a utility process.
 */
import { join } from 'node:path';
import { dataDirFor } from '@qk/client';
import { app, type BrowserWindow, dialog, ipcMain, Menu, protocol, utilityProcess, type WebContents } from 'electron';
import { APP_INDEX_URL, handleAppProtocol, registerAppScheme } from './app-protocol.js';
import { connectHost } from './host-connection.js';
import type { HostApi } from './host-protocol.js';
import { registerIpc } from './ipc.js';
import { applicationMenuTemplate } from './menu.js';
import { connectToService, runningService } from './service-link.js';
import { CONSOLE_CSP, createMainWindow, lockDown } from './window.js';

/**
 * Where things are, relative to the bundled dist/electron/main.cjs; the data folder is `qk`'s (QK_DATA, else
 * the per-user folder), so the console and `qk` administer one queue manager.
 */
export function appPaths(bundleDir: string, env: NodeJS.ProcessEnv) {
  return {
    preload: join(bundleDir, 'preload.cjs'),
    rendererDir: join(bundleDir, '..', 'renderer'),
    hostScript: join(bundleDir, 'main.cjs'),
    dataDir: dataDirFor(undefined, env),
  };
}

/** The service running on the folder, or else a new one in a utility process running this same bundle. */
async function openService(paths: ReturnType<typeof appPaths>): Promise<HostApi> {
  const running = runningService(paths.dataDir);
  if (running) return connectToService(running);
  // main.ts sends the utility process to runHostProcess.
  const child = utilityProcess.fork(paths.hostScript, ['--qk-data', paths.dataDir], {
    serviceName: 'Queuekeeper Message Queuing',
    stdio: 'inherit',
  });
  return connectHost(child);
}

/** Runs the Electron main process. */
export function runMain(bundleDir: string): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let window: BrowserWindow | null = null;
  let host: HostApi | null = null;
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
      const paths = appPaths(bundleDir, process.env);
      handleAppProtocol(protocol, { rendererDir: paths.rendererDir, contentSecurityPolicy: CONSOLE_CSP });
      const template = applicationMenuTemplate(process.platform, app.getName(), { devTools });
      Menu.setApplicationMenu(template ? Menu.buildFromTemplate(template) : null);
      try {
        host = await openService(paths);
      } catch (error) {
        dialog.showErrorBox(
          'Message Queuing could not start',
          `The service of ${paths.dataDir} could not be reached or started:\n${error instanceof Error ? error.message : String(error)}`,
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
