/**
 * Streamed calls (issue 11): items go out within the credit the client grants, each before the call's
 * result; a cancel or a closed connection ends the stream and nothing more is prepared.
 */
import { describe, expect, test } from 'vitest';
import { MAX_CREDIT, type RpcCallContext, type RpcHandler } from '@qk/rpc';
import { connect, flush } from './fake-transport.js';

/** A streamed call that sends `total` numbered items as its credit allows, then answers with how many. */
function counter(total: number) {
  const contexts: RpcCallContext[] = [];
  const handler: RpcHandler = {
    call: async (_op, _input, context) => {
      contexts.push(context);
      let sent = 0;
      try {
        while (sent < total) {
          await context.stream.ready();
          const write = await context.stream.prepare({ n: sent + 1 });
          await write();
          sent++;
        }
      } catch (error) {
        return { ok: false, error: { code: (error as { code: 'OPERATION_CANCELLED' }).code, message: String(error) } };
      }
      return { ok: true, value: { sent } };
    },
  };
  return { handler, contexts };
}

describe('streamed calls', () => {
  test('items come within the credit granted, in order, and the result after the last item', async () => {
    const { handler } = counter(5);
    const { client, toServer, toClient } = connect(handler);
    const items: unknown[] = [];
    const stream = client.stream('count', {}, { credit: 2, onItem: (v) => items.push(v) });
    await flush();
    expect(items).toEqual([{ n: 1 }, { n: 2 }]);
    expect(toServer.frames().filter((f) => f.type === 'credit')).toEqual([{ type: 'credit', id: stream.id, count: 2 }]);
    stream.grant(3);
    const result = await stream.result;
    expect(items).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(result).toEqual({ ok: true, value: { sent: 5 } });
    const kinds = toClient.frames().map((f) => f.type);
    expect(kinds).toEqual(['item', 'item', 'item', 'item', 'item', 'result']);
    // Credit does not wait for the rest of the client's turn: the service can go on while the client works.
    expect(toServer.sentNow.map((text) => JSON.parse(text) as unknown)).toEqual([
      { type: 'credit', id: stream.id, count: 2 },
      { type: 'credit', id: stream.id, count: 3 },
    ]);
  });

  test('without credit nothing is prepared, and preparing past the credit is refused', async () => {
    const contexts: RpcCallContext[] = [];
    const { client, toClient } = connect({
      call: (_op, _input, context) => {
        contexts.push(context);
        return new Promise(() => undefined);
      },
    });
    client.stream('count', {}, { credit: 0, onItem: () => undefined });
    await flush();
    const context = contexts[0] as RpcCallContext;
    let ready = false;
    context.stream.ready().then(
      () => (ready = true),
      () => undefined,
    );
    await flush();
    expect(ready).toBe(false);
    await expect(context.stream.prepare({})).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(toClient.frames()).toEqual([]);
  });

  test('a cancel ends the stream: a waiting ready() rejects and the call answers', async () => {
    const { handler, contexts } = counter(10);
    const { client } = connect(handler);
    const aborter = new AbortController();
    const items: unknown[] = [];
    const stream = client.stream('count', {}, { credit: 1, onItem: (v) => items.push(v), signal: aborter.signal });
    await flush();
    expect(items).toHaveLength(1);
    aborter.abort();
    const result = await stream.result;
    expect(result).toMatchObject({ ok: false, error: { code: 'OPERATION_CANCELLED' } });
    await expect((contexts[0] as RpcCallContext).stream.ready()).rejects.toMatchObject({
      code: 'OPERATION_CANCELLED',
    });
  });

  test('a closed connection ends every stream: prepared items cannot be written', async () => {
    const { handler, contexts } = counter(10);
    const { client, server } = connect(handler);
    client.stream('count', {}, { credit: 0, onItem: () => undefined });
    await flush();
    server.closed('gone');
    await expect((contexts[0] as RpcCallContext).stream.ready()).rejects.toMatchObject({
      code: 'OPERATION_CANCELLED',
    });
  });

  test(`credit beyond ${MAX_CREDIT} held at once is refused with an error frame and not added`, async () => {
    const contexts: RpcCallContext[] = [];
    const { client, toClient } = connect({
      call: (_op, _input, context) => {
        contexts.push(context);
        return new Promise(() => undefined);
      },
    });
    const stream = client.stream('count', {}, { credit: MAX_CREDIT, onItem: () => undefined });
    await flush();
    stream.grant(1);
    await flush();
    expect((contexts[0] as RpcCallContext).stream.credit()).toBe(MAX_CREDIT);
    expect(toClient.frames().at(-1)).toMatchObject({ type: 'error', error: { code: 'INVALID_PARAMETER' } });
  });

  test('credit for a call that does not exist is ignored', async () => {
    const { client, toClient, server } = connect({ call: async () => ({ ok: true, value: 1 }) });
    server.frame(JSON.stringify({ type: 'credit', id: 99, count: 5 }));
    await flush();
    expect(toClient.frames()).toEqual([]);
    expect(await client.call('x', {})).toEqual({ ok: true, value: 1 });
  });
});
