import { describe, expect, it, vi } from 'vitest';
import type { Envelope, QkEvent } from '@qk/api';
import type { RpcCallContext } from '@qk/rpc';
import { connectHost, type ChildLike } from '../../../electron/host-connection.js';
import { dataDirFromArgv } from '../../../electron/host-entry.js';
import { runHostProcess, type OpenedService, type ParentPortLike } from '../../../electron/host-process.js';

/** A utility process and its parent port wired to each other, as Electron does across processes. */
function wire() {
  const childListeners: Record<string, Array<(arg: unknown) => void>> = { message: [], exit: [] };
  const portListeners: Array<(message: { data: unknown }) => void> = [];
  const clone = <T>(v: T): T => structuredClone(v);
  const child: ChildLike & { exit(code: number): void } = {
    postMessage: (message) => queueMicrotask(() => portListeners.forEach((l) => l({ data: clone(message) }))),
    on: ((event: string, listener: (arg: unknown) => void) =>
      void childListeners[event]?.push(listener)) as ChildLike['on'],
    kill: vi.fn(() => true),
    exit: (code) => childListeners['exit']?.forEach((l) => l(code)),
  };
  const port: ParentPortLike = {
    on: (_event, listener) => void portListeners.push(listener),
    postMessage: (message) => queueMicrotask(() => childListeners['message']?.forEach((l) => l(clone(message)))),
  };
  return { child, port };
}

function fakeService() {
  const listeners = new Set<(event: QkEvent) => void>();
  const service: OpenedService & { emit(event: QkEvent): void } = {
    name: 'ALPHA',
    id: 'guid',
    url: 'http://127.0.0.1:1',
    call: vi.fn(async (op: string, input: unknown): Promise<Envelope<unknown>> =>
      op === 'fail'
        ? { ok: false, error: { code: 'QUEUE_NOT_FOUND', message: 'no' } }
        : { ok: true, value: { op, input } },
    ),
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    stop: vi.fn(async () => undefined),
    emit: (event) => listeners.forEach((l) => l(event)),
  };
  return service;
}

describe('service in a utility process', () => {
  it('connects, calls with envelopes both ways, forwards events and stops cleanly', async () => {
    const { child, port } = wire();
    const service = fakeService();
    const exit = vi.fn();
    const hosting = runHostProcess(port, async () => service, exit);
    const host = await connectHost(child);
    await expect(hosting).resolves.toBeUndefined();
    expect(host.name).toBe('ALPHA');
    await expect(host.call('queueList', {})).resolves.toEqual({ ok: true, value: { op: 'queueList', input: {} } });
    await expect(host.call('fail', {})).resolves.toEqual({
      ok: false,
      error: { code: 'QUEUE_NOT_FOUND', message: 'no' },
    });
    const events: QkEvent[] = [];
    host.subscribe((e) => events.push(e));
    await new Promise((r) => setTimeout(r, 0));
    service.emit({ type: 'queuePurged', path: '.\\DEADLETTER$', purged: 2 });
    await new Promise((r) => setTimeout(r, 0));
    expect(events).toEqual([{ type: 'queuePurged', path: '.\\DEADLETTER$', purged: 2 }]);
    await host.stop();
    expect(service.stop).toHaveBeenCalled();
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('many calls in flight resolve with their own answers', async () => {
    const { child, port } = wire();
    const hosting = runHostProcess(port, async () => fakeService(), vi.fn());
    const host = await connectHost(child);
    await expect(hosting).resolves.toBeUndefined();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => host.call('browse', { offset: i })));
    answers.forEach((a, i) => expect(a).toEqual({ ok: true, value: { op: 'browse', input: { offset: i } } }));
  });

  it('a receive cancelled from the main process takes nothing: its delivery is refused in the service', async () => {
    const { child, port } = wire();
    const service = fakeService();
    let delivery: Promise<unknown> | undefined;
    service.call = vi.fn(
      (_op: string, _input: unknown, context: RpcCallContext) =>
        new Promise<Envelope<unknown>>((answer) => {
          context.signal.addEventListener('abort', () => {
            delivery = context.deliver({ body: 'late' }).then(
              () => 'prepared',
              (e: { code: string }) => e.code,
            );
            answer({ ok: false, error: { code: 'OPERATION_CANCELLED', message: 'cancelled' } });
          });
        }),
    );
    const hosting = runHostProcess(port, async () => service, vi.fn());
    const host = await connectHost(child);
    await expect(hosting).resolves.toBeUndefined();
    const cancel = new AbortController();
    const receiving = host.call('receive', { path: 'q', timeoutMs: 60_000 }, cancel.signal);
    await new Promise((r) => setTimeout(r, 0));
    cancel.abort();
    await expect(receiving).resolves.toMatchObject({ ok: false, error: { code: 'OPERATION_CANCELLED' } });
    await expect(delivery).resolves.toBe('OPERATION_CANCELLED');
  });

  it('reports a service that cannot open (a locked data folder) instead of hanging', async () => {
    const { child, port } = wire();
    const exit = vi.fn();
    const hosting = runHostProcess(
      port,
      async () => {
        throw new Error('SERVICE_ALREADY_RUNNING: the data folder is in use');
      },
      exit,
    );
    await expect(connectHost(child)).rejects.toThrow('data folder is in use');
    await expect(hosting).resolves.toBeUndefined();
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('fails calls in flight when the process dies, and later calls at once', async () => {
    const { child, port } = wire();
    const service = fakeService();
    service.call = vi.fn(() => new Promise<Envelope<unknown>>(() => undefined));
    const hosting = runHostProcess(port, async () => service, vi.fn());
    const host = await connectHost(child);
    await expect(hosting).resolves.toBeUndefined();
    const pending = host.call('receive', { path: 'q', timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 0));
    child.exit(9);
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'SERVICE_NOT_AVAILABLE' } });
    await expect(host.call('queueList', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'SERVICE_NOT_AVAILABLE' },
    });
  });

  it('reads the data folder from its arguments', () => {
    expect(dataDirFromArgv(['electron', 'main.cjs', '--qk-data', '/home/u/.config/Queuekeeper/data'])).toBe(
      '/home/u/.config/Queuekeeper/data',
    );
    expect(() => dataDirFromArgv(['electron'])).toThrow('--qk-data');
  });
});
