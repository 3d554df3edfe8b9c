import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../renderer/src/client/console-client.js';
import { createHttpClient } from '../../../../renderer/src/client/http-client.js';
import { createBridgeClient } from '../../../../renderer/src/client/bridge-client.js';
import { flush } from '../support/timing.js';

class FakeSocket {
  static last: FakeSocket | null = null;
  static all: FakeSocket[] = [];
  sent: unknown[] = [];
  readyState = 0;
  bufferedAmount = 0;
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

describe('HTTP/WebSocket client', () => {
  it('calls POST /api/v1/<op> with the bearer token and unwraps the envelope', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: [{ path: 'q' }] })));
    const client = createHttpClient({
      baseUrl: 'http://127.0.0.1:9/',
      token: 't0k',
      fetchImpl: fetchImpl,
      WebSocketImpl: FakeSocket as never,
      calls: 'http',
    });
    await expect(client.queueList({})).resolves.toEqual([{ path: 'q' }]);
    expect(fetchImpl).toHaveBeenCalledWith(
      'http://127.0.0.1:9/api/v1/queueList',
      expect.objectContaining({ method: 'POST', headers: expect.objectContaining({ authorization: 'Bearer t0k' }) }),
    );
  });

  it('turns an error envelope into an ApiError with the service code', async () => {
    const fetchImpl = vi.fn(
      async () =>
        new Response(JSON.stringify({ ok: false, error: { code: 'QUEUE_NOT_FOUND', message: 'no such queue' } }), {
          status: 404,
        }),
    );
    const client = createHttpClient({
      baseUrl: 'http://h:1',
      token: 't',
      fetchImpl: fetchImpl,
      WebSocketImpl: FakeSocket as never,
      calls: 'http',
    });
    const error = await client.queueShow({ path: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'QUEUE_NOT_FOUND', message: 'no such queue' });
  });

  it('an unreachable service is SERVICE_NOT_AVAILABLE', async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    const client = createHttpClient({
      baseUrl: 'http://h:1',
      token: 't',
      fetchImpl: fetchImpl,
      WebSocketImpl: FakeSocket as never,
      calls: 'http',
    });
    await expect(client.serviceStatus({})).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
  });

  it('subscribes on the WebSocket with the token in its first frame, delivers valid events, and reports drops', async () => {
    const client = createHttpClient({
      baseUrl: 'http://h:1',
      token: 'a b',
      WebSocketImpl: FakeSocket as never,
      calls: 'http',
    });
    const events: unknown[] = [];
    const states: boolean[] = [];
    client.onConnectionChange?.((c) => states.push(c));
    client.subscribe((e) => events.push(e));
    const socket = FakeSocket.last as FakeSocket;
    expect(socket.url).toBe('ws://h:1/api/v1/ws');
    socket.open();
    expect(socket.sent).toEqual([{ type: 'auth', token: 'a b' }, { type: 'subscribe' }]);
    socket.receive({ type: 'ready' });
    socket.receive({ type: 'event', event: { type: 'queuePurged', path: 'q', purged: 2 } });
    socket.receive({ type: 'event', event: { type: 'fromTheFuture' } });
    expect(events).toEqual([{ type: 'queuePurged', path: 'q', purged: 2 }]);
    // Events the service dropped while this page was behind: told as a reconnection, which reloads the view.
    socket.receive({ type: 'eventsLost', count: 3 });
    socket.close();
    expect(states).toEqual([true, false, true, false]);
    client.close();
  });

  it('for a remote service, calls travel on the socket and match their results by id', async () => {
    const client = createHttpClient({
      baseUrl: 'http://remote:1',
      token: 't',
      WebSocketImpl: FakeSocket as never,
      calls: 'ws',
    });
    const first = client.queueList({});
    const second = client.serviceStatus({});
    const socket = FakeSocket.last as FakeSocket;
    socket.open();
    await flush();
    const [auth, a, b] = socket.sent as Array<{ type: string; id: number; op: string }>;
    expect(auth?.type).toBe('auth');
    expect([a?.op, b?.op]).toEqual(['queueList', 'serviceStatus']);
    socket.receive({ type: 'result', id: b?.id, ok: true, value: { name: 'BETA' } });
    socket.receive({ type: 'result', id: a?.id, ok: false, error: { code: 'ACCESS_DENIED', message: 'no' } });
    await expect(second).resolves.toEqual({ name: 'BETA' });
    await expect(first).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    client.close();
  });

  it('a refused token fails the calls on the socket with UNAUTHORIZED', async () => {
    const client = createHttpClient({
      baseUrl: 'http://remote:1',
      token: 'bad',
      WebSocketImpl: FakeSocket as never,
      calls: 'ws',
    });
    const call = client.queueList({});
    const socket = FakeSocket.last as FakeSocket;
    socket.open();
    await flush();
    socket.receive({ type: 'error', error: { code: 'UNAUTHORIZED', message: 'The token was refused.' } });
    await expect(call).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    client.close();
  });
});

describe('Electron bridge client', () => {
  it('unwraps envelopes from the preload and passes events through', async () => {
    const listeners = new Set<(e: unknown) => void>();
    const bridge = {
      queueList: vi.fn(async () => ({ ok: true, value: [] })),
      queuePurge: vi.fn(async () => ({ ok: false, error: { code: 'ACCESS_DENIED', message: 'denied' } })),
      onEvent: (l: (e: unknown) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const client = createBridgeClient(bridge as never);
    await expect(client.queueList({})).resolves.toEqual([]);
    await expect(client.queuePurge({ path: 'q' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    const seen: unknown[] = [];
    const off = client.subscribe((e) => seen.push(e));
    listeners.forEach((l) => l({ type: 'serviceRestarted' }));
    off();
    expect(listeners.size).toBe(0);
    expect(seen).toEqual([{ type: 'serviceRestarted' }]);
  });
});
