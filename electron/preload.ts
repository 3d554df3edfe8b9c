/** Preload (sandboxed, context-isolated): exposes exactly the bridge of bridge.ts as `window.queuekeeper`. */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.js';

contextBridge.exposeInMainWorld('queuekeeper', createBridge(ipcRenderer));
