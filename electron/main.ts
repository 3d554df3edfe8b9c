/**
 * Entry of dist/electron/main.cjs. The same bundle runs twice: as the Electron main process, and (forked
 * with utilityProcess) as the process that hosts the service, so the engine's work never runs on the
 * main process's event loop.
 */
import { runMain } from './app-main.js';
import { runUtilityHost } from './host-entry.js';
import type { ParentPortLike } from './host-process.js';

const utilityPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
if (process.type === 'utility' && utilityPort) {
  runUtilityHost(utilityPort).catch((error: unknown) => {
    // The main process sees the utility process exit; the reason is only here.
    console.error('Queuekeeper service process failed:', error);
    process.exit(1);
  });
} else {
  runMain(__dirname);
}
