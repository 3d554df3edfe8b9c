import { describe, expect, it, vi } from 'vitest';
import { operationNames } from '@qk/api';
import { createBridge } from '../../../electron/bridge.js';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../../../electron/channels.js';

function fakeIpc() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  return {
    invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: {} })),
    on: vi.fn((channel: string, listener: (...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(listener);
    }),
    removeListener: vi.fn((channel: string, listener: (...args: unknown[]) => void) => {
      listeners.get(channel)?.delete(listener);
    }),
    emit(channel: string, ...args: unknown[]) {
      for (const listener of listeners.get(channel) ?? []) listener(...args);
    },
    count: (channel: string) => listeners.get(channel)?.size ?? 0,
  };
}

describe('preload bridge', () => {
  it('exposes one function per contract operation and one event subscription, nothing else', () => {
    const bridge = createBridge(fakeIpc() as never);
    expect(Object.keys(bridge).sort()).toEqual([...operationNames, 'onEvent'].sort());
    for (const name of operationNames) expect(typeof bridge[name]).toBe('function');
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('sends the operation name and input on the one call channel and returns the envelope', async () => {
    const ipc = fakeIpc();
    ipc.invoke.mockResolvedValueOnce({ ok: true, value: { purged: 3 } });
    const bridge = createBridge(ipc as never);
    await expect(bridge.queuePurge({ path: '.\\private$\\orders' })).resolves.toEqual({
      ok: true,
      value: { purged: 3 },
    });
    expect(ipc.invoke).toHaveBeenCalledWith(CALL_CHANNEL, 'queuePurge', { path: '.\\private$\\orders' });
    await bridge.queueList(undefined as never);
    expect(ipc.invoke).toHaveBeenLastCalledWith(CALL_CHANNEL, 'queueList', {});
  });

  it('delivers events to a subscriber until its disposer runs', () => {
    const ipc = fakeIpc();
    const bridge = createBridge(ipc as never);
    const seen: unknown[] = [];
    const dispose = bridge.onEvent((event) => seen.push(event));
    ipc.emit(EVENT_CHANNEL, {}, { type: 'queueCreated', path: '.\\private$\\a' });
    dispose();
    ipc.emit(EVENT_CHANNEL, {}, { type: 'queueDeleted', path: '.\\private$\\a' });
    expect(seen).toEqual([{ type: 'queueCreated', path: '.\\private$\\a' }]);
    expect(ipc.count(EVENT_CHANNEL)).toBe(0);
  });

  it('refuses a listener that is not a function (the page could pass anything)', () => {
    const bridge = createBridge(fakeIpc() as never);
    expect(() => bridge.onEvent('nope' as never)).toThrow(TypeError);
  });
});
