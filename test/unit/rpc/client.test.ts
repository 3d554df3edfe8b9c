import { describe, expect, test } from 'vitest';
import type { Envelope } from '@qk/model';
import { RpcClient, serveRpc, type RpcCallContext, type RpcHandler } from '@qk/rpc';
import { connect, FakeTransport, flush } from './fake-transport.js';

/** A service-side receive: waits for a message the test puts, then delivers it before "removing" it. */
function receiveHandler() {
  const waiting: { context: RpcCallContext; give(message: string): Promise<'removed' | 'kept'> }[] = [];
  const handler: RpcHandler = {
    call: (_op, _input, context) =>
      new Promise<Envelope<unknown>>((answer) => {
        const onAbort = (): void => answer({ ok: false, error: { code: 'OPERATION_CANCELLED', message: 'x' } });
        context.signal.addEventListener('abort', onAbort, { once: true });
        waiting.push({
          context,
          give: async (message) => {
            context.signal.removeEventListener('abort', onAbort);
            try {
              const write = await context.deliver(message);
              await write();
            } catch (error) {
              answer({ ok: false, error: { code: (error as { code: 'OPERATION_CANCELLED' }).code, message: 'x' } });
              return 'kept';
            }
            answer({ ok: true, value: message });
            return 'removed';
          },
        });
      }),
  };
  return { handler, waiting };
}

describe('RpcClient', () => {
  test('calls resolve with their own envelopes, whatever order the service answers in', async () => {
    const { client } = connect({
      call: async (op, input) => {
        await new Promise((r) => setTimeout(r, (input as { delay: number }).delay));
        return { ok: true, value: op };
      },
    });
    const results = await Promise.all([
      client.call('slow', { delay: 20 }),
      client.call('fast', { delay: 1 }),
      client.call('middle', { delay: 10 }),
    ]);
    expect(results).toEqual([
      { ok: true, value: 'slow' },
      { ok: true, value: 'fast' },
      { ok: true, value: 'middle' },
    ]);
  });

  test('calls past the connection limit wait on the client instead of being refused', async () => {
    let running = 0;
    let most = 0;
    const { client } = connect(
      {
        call: async () => {
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 2));
          running--;
          return { ok: true, value: 1 };
        },
      },
      { maxCallsInFlight: 4, serverLimit: 4 },
    );
    const results = await Promise.all(Array.from({ length: 40 }, () => client.call('peek', {})));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(most).toBeLessThanOrEqual(4);
  });

  test('a cancelled receive takes nothing: the service refuses its delivery and the call ends OPERATION_CANCELLED', async () => {
    const { handler, waiting } = receiveHandler();
    const { client } = connect(handler);
    const cancel = new AbortController();
    const receiving = client.call('receive', {}, cancel.signal);
    await flush();
    cancel.abort();
    await flush();
    expect(await waiting[0]?.give('m1')).toBe('kept');
    expect(await receiving).toMatchObject({ ok: false, error: { code: 'OPERATION_CANCELLED' } });
  });

  test('a cancel that comes too late hands over the message that was already on its way', async () => {
    const { handler, waiting } = receiveHandler();
    const { client } = connect(handler);
    const cancel = new AbortController();
    const receiving = client.call('receive', {}, cancel.signal);
    await flush();
    const given = waiting[0]?.give('m1');
    cancel.abort();
    expect(await given).toBe('removed');
    expect(await receiving).toEqual({ ok: true, value: 'm1' });
  });

  test('a call cancelled while it waits on the client is never sent', async () => {
    const { handler, waiting } = receiveHandler();
    const { client, toServer } = connect(handler, { maxCallsInFlight: 1 });
    const first = client.call('receive', {});
    const cancel = new AbortController();
    const queued = client.call('receive', {}, cancel.signal);
    cancel.abort();
    expect(await queued).toMatchObject({ ok: false, error: { code: 'OPERATION_CANCELLED' } });
    await flush();
    expect(waiting).toHaveLength(1);
    expect(toServer.frames().filter((f) => f.type === 'call')).toHaveLength(1);
    client.closed('the test is over');
    expect(await first).toMatchObject({ ok: false, error: { code: 'SERVICE_NOT_AVAILABLE' } });
  });

  test('when the connection closes, every call still waiting fails SERVICE_NOT_AVAILABLE', async () => {
    const { handler } = receiveHandler();
    const { client } = connect(handler, { maxCallsInFlight: 1 });
    const first = client.call('receive', {});
    const second = client.call('receive', {});
    await flush();
    client.closed('gone');
    expect(await first).toMatchObject({ ok: false, error: { code: 'SERVICE_NOT_AVAILABLE' } });
    expect(await second).toMatchObject({ ok: false, error: { code: 'SERVICE_NOT_AVAILABLE' } });
    expect(await client.call('peek', {})).toMatchObject({ ok: false, error: { code: 'SERVICE_NOT_AVAILABLE' } });
  });

  test('events reach subscribers until they unsubscribe; a lag is reported as events lost', async () => {
    let emit!: (event: unknown) => void;
    const { client, toServer, toClient } = connect({
      call: async () => ({ ok: true, value: null }),
      subscribe: (listener) => {
        emit = listener;
        return () => undefined;
      },
    });
    const seen: unknown[] = [];
    const lost: number[] = [];
    const dispose = client.subscribe((e) => seen.push(e));
    client.onEventsLost((n) => lost.push(n));
    await flush();
    emit({ n: 1 });
    toClient.buffered = 100 * 1024 * 1024;
    emit({ n: 2 });
    toClient.buffered = 0;
    emit({ n: 3 });
    await flush();
    dispose();
    await flush();
    expect(seen).toEqual([{ n: 1 }, { n: 3 }]);
    expect(lost).toEqual([1]);
    expect(toServer.frames().map((f) => f.type)).toEqual(['subscribe', 'unsubscribe']);
  });

  test('an auth frame goes first; a refused token fails the connection and its calls with UNAUTHORIZED', async () => {
    const toServer = new FakeTransport();
    const toClient = new FakeTransport();
    const server = serveRpc(toClient, {
      handler: { call: async () => ({ ok: true, value: 1 }) },
      authenticate: (t) => t === 'right',
    });
    const client = new RpcClient(toServer, { token: 'wrong' });
    toServer.peer = server;
    toClient.peer = client;
    const pending = client.call('queueList', {});
    await expect(client.ready).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
    expect(toServer.frames()[0]).toEqual({ type: 'auth', token: 'wrong' });
  });

  test('a result the client cannot read fails that call instead of hanging it', async () => {
    const toServer = new FakeTransport();
    const client = new RpcClient(toServer);
    const pending = client.call('queueList', {});
    client.frame(JSON.stringify({ type: 'result', id: 1, ok: false, error: { code: 'NEW_CODE', message: 'm' } }));
    expect(await pending).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });
});
