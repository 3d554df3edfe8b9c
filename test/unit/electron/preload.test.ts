import { describe, expect, it, vi } from 'vitest';
import { operationNames } from '@qk/api';

const exposeInMainWorld = vi.fn();
const ipcRenderer = { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn(), send: vi.fn(), sendSync: vi.fn() };
vi.mock('electron', () => ({ contextBridge: { exposeInMainWorld }, ipcRenderer }));

describe('preload', () => {
  it('exposes exactly window.queuekeeper with the bridge, and no raw ipcRenderer', async () => {
    await import('../../../electron/preload.js');
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [key, api] = exposeInMainWorld.mock.calls[0] as [string, Record<string, unknown>];
    expect(key).toBe('queuekeeper');
    expect(Object.keys(api).sort()).toEqual([...operationNames, 'onEvent'].sort());
    expect(Object.values(api)).not.toContain(ipcRenderer);
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);
  });
});
