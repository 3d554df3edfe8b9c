import { describe, expect, it, vi } from 'vitest';
import type { QkEvent } from '@qk/api';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../../electron/channels.js';
import type { HostApi } from '../../../electron/host-protocol.js';
import { isTrustedSender, registerIpc } from '../../../electron/ipc.js';

const INDEX = 'file:///opt/Queuekeeper/resources/app.asar/dist/renderer/index.html';

function setup() {
  let handler: ((event: unknown, op: unknown, input: unknown) => Promise<unknown>) | null = null;
  const ipcMain = {
    handle: vi.fn((channel: string, fn: typeof handler) => {
      expect(channel).toBe(CALL_CHANNEL);
      handler = fn;
    }),
    removeHandler: vi.fn(),
  };
  const listeners = new Set<(event: QkEvent) => void>();
  const host: HostApi = {
    call: vi.fn(async (op: string) => ({ ok: true as const, value: { op } })),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: vi.fn(async () => undefined),
  };
  const contents = { send: vi.fn(), isDestroyed: () => false };
  const dispose = registerIpc(ipcMain as never, host, { webContents: () => contents as never, indexUrl: INDEX });
  const mainFrame = { url: `${INDEX}#/`, parent: null };
  const call = (op: unknown, input: unknown = {}, sender: unknown = contents, frame: unknown = mainFrame) =>
    (handler as NonNullable<typeof handler>)({ sender, senderFrame: frame }, op, input);
  return { ipcMain, host, contents, call, listeners, dispose, mainFrame };
}

describe('electron/ipc', () => {
  it('dispatches a call from our window and renderer file to the host', async () => {
    const { call, host } = setup();
    await expect(call('queueList')).resolves.toEqual({ ok: true, value: { op: 'queueList' } });
    expect(host.call).toHaveBeenCalledWith('queueList', {});
  });

  it('refuses callers that are not our renderer, without reaching the host', async () => {
    const { call, host, mainFrame } = setup();
    const other = { send: vi.fn() };
    const denied = { ok: false, error: { code: 'ACCESS_DENIED', message: expect.any(String) } };
    await expect(call('queuePurge', { path: '.\\DEADLETTER$' }, other)).resolves.toEqual(denied);
    await expect(
      call('queuePurge', {}, undefined, { url: 'https://evil.example/index.html', parent: null }),
    ).resolves.toEqual(denied);
    await expect(
      call('queuePurge', {}, undefined, { url: 'file:///tmp/other/index.html', parent: null }),
    ).resolves.toEqual(denied);
    await expect(call('queuePurge', {}, undefined, { url: `${INDEX}`, parent: mainFrame })).resolves.toEqual(denied);
    await expect(call('queuePurge', {}, undefined, null)).resolves.toEqual(denied);
    expect(host.call).not.toHaveBeenCalled();
  });

  it('refuses an operation that is not in the contract', async () => {
    const { call, host } = setup();
    await expect(call('__proto__')).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
    await expect(call(42)).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
    expect(host.call).not.toHaveBeenCalled();
  });

  it('forwards every service event to the window, and stops when disposed', () => {
    const { listeners, contents, dispose, ipcMain } = setup();
    for (const listener of listeners) listener({ type: 'queueCreated', path: '.\\private$\\a' });
    expect(contents.send).toHaveBeenCalledWith(EVENT_CHANNEL, { type: 'queueCreated', path: '.\\private$\\a' });
    dispose();
    expect(listeners.size).toBe(0);
    expect(ipcMain.removeHandler).toHaveBeenCalledWith(CALL_CHANNEL);
  });

  it('isTrustedSender ignores the hash of the renderer URL but not its folder', () => {
    const contents = {};
    const trusted = { webContents: () => contents as never, indexUrl: INDEX };
    expect(
      isTrustedSender({ sender: contents, senderFrame: { url: `${INDEX}#x`, parent: null } } as never, trusted),
    ).toBe(true);
    expect(
      isTrustedSender(
        { sender: contents, senderFrame: { url: INDEX.replace('renderer', 'renderer2'), parent: null } } as never,
        trusted,
      ),
    ).toBe(false);
  });
});
