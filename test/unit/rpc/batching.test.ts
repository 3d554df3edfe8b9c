/**
 * Frames sent together (issue 11): once a call frame says `"batchFrames":true`, what the service sends in one
 * turn leaves as one `frames` frame, in order; the library client asks for it and reads it as the frames one
 * by one. A client written from the contract, which does not ask, gets every frame on its own as before.
 */
import { describe, expect, test } from 'vitest';
import { serveRpc, type RpcHandler, type RpcLogger } from '@qk/rpc';
import { connect, FakeTransport, flush, type SeenFrame } from './fake-transport.js';

/** A server end alone, its frames sent by hand: what a client written from the contract sends. */
function rawServer(handler: RpcHandler, logger?: RpcLogger) {
  const toClient = new FakeTransport();
  const server = serveRpc(toClient, { handler, logger });
  return { server, toClient };
}

/** A streamed call that prepares `total` numbered items, then writes them all in one turn, as a round does. */
function rounds(total: number, valueOf: (n: number) => unknown = (n) => ({ n })): RpcHandler {
  return {
    call: async (_op, _input, context) => {
      await context.stream.ready();
      const writes: (() => Promise<void>)[] = [];
      for (let n = 1; n <= total; n++) writes.push(await context.stream.prepare(valueOf(n)));
      try {
        await Promise.all(writes.map((write) => write()));
      } catch (error) {
        return { ok: false, error: { code: 'SERVICE_NOT_AVAILABLE', message: String(error) } };
      }
      return { ok: true, value: { sent: total } };
    },
  };
}

/** Calls answered together: each waits for `release`, then answers with its input. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const handler: RpcHandler = {
    call: async (_op, input) => {
      await opened;
      return { ok: true, value: input };
    },
  };
  return { handler, open };
}

const inner = (frame: SeenFrame): SeenFrame[] => (frame.type === 'frames' ? (frame.frames as SeenFrame[]) : [frame]);

describe('frames sent together', () => {
  test('the library client asks for it; a stream round is one frames frame, in order, and each item reaches onItem', async () => {
    const { client, toServer, toClient } = connect(rounds(5));
    const items: unknown[] = [];
    const stream = client.stream('count', {}, { credit: 5, onItem: (v) => items.push(v) });
    expect(await stream.result).toEqual({ ok: true, value: { sent: 5 } });
    expect(toServer.frames()[0]).toMatchObject({ type: 'call', op: 'count', batchFrames: true });
    const [round, result] = toClient.frames();
    expect(toClient.frames()).toHaveLength(2);
    expect(round).toEqual({
      type: 'frames',
      frames: [1, 2, 3, 4, 5].map((n) => ({ type: 'item', id: stream.id, value: { n } })),
    });
    expect(result).toEqual({ type: 'result', id: stream.id, ok: true, value: { sent: 5 } });
    expect(items).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
  });

  test('results of calls answered in one turn leave together, and each call gets its own', async () => {
    const { handler, open } = gate();
    const { client, toClient } = connect(handler);
    const answers = Promise.all([1, 2, 3, 4].map((n) => client.call('echo', { n })));
    await flush();
    open();
    expect(await answers).toEqual([1, 2, 3, 4].map((n) => ({ ok: true, value: { n } })));
    expect(toClient.frames().map((f) => f.type)).toEqual(['frames']);
    expect(inner(toClient.frames()[0] as SeenFrame).map((f) => f.id)).toEqual([1, 2, 3, 4]);
  });

  test('a lone frame still goes on its own', async () => {
    const { client, toClient } = connect({ call: async () => ({ ok: true, value: 'one' }) });
    expect(await client.call('x', {})).toEqual({ ok: true, value: 'one' });
    expect(toClient.frames()).toEqual([{ type: 'result', id: 1, ok: true, value: 'one' }]);
  });

  test('a client that does not ask (or asks with anything but true) gets every frame on its own', async () => {
    for (const flag of [undefined, 'true', 1, false]) {
      const { server, toClient } = rawServer(rounds(3));
      server.frame(JSON.stringify({ type: 'call', id: 7, op: 'count', input: {}, batchFrames: flag }));
      server.frame(JSON.stringify({ type: 'credit', id: 7, count: 3 }));
      await flush();
      expect(toClient.frames()).toEqual([
        { type: 'item', id: 7, value: { n: 1 } },
        { type: 'item', id: 7, value: { n: 2 } },
        { type: 'item', id: 7, value: { n: 3 } },
        { type: 'result', id: 7, ok: true, value: { sent: 3 } },
      ]);
    }
  });

  test('a frames frame stops at 128 frames; the rest follow in order', async () => {
    const { client, toClient } = connect(rounds(300));
    const seen: number[] = [];
    const stream = client.stream('count', {}, { credit: 300, onItem: (v) => seen.push((v as { n: number }).n) });
    await stream.result;
    const sizes = toClient.frames().map((f) => (f.type === 'frames' ? (f.frames as unknown[]).length : f.type));
    expect(sizes).toEqual([128, 128, 44, 'result']);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  test('a frame over 4 KB goes on its own, after what was batched before it, in order', async () => {
    const big = 'x'.repeat(5_000);
    const { client, toClient } = connect(rounds(7, (n) => (n === 4 ? { n, big } : { n })));
    const seen: number[] = [];
    const stream = client.stream('count', {}, { credit: 7, onItem: (v) => seen.push((v as { n: number }).n) });
    await stream.result;
    const frames = toClient.frames();
    expect(frames.map((f) => f.type)).toEqual(['frames', 'item', 'frames', 'result']);
    expect(frames.flatMap((f) => inner(f).map((i) => (i.value as { n: number } | undefined)?.n))).toEqual([
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      undefined,
    ]);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  test('when a frames frame cannot be written, every send in it fails, and each lost item is logged', async () => {
    const lost: string[] = [];
    const logger: RpcLogger = {
      info: () => undefined,
      warn: () => undefined,
      error: (_fields, msg) => lost.push(msg),
    };
    const { server, toClient } = rawServer(rounds(4), logger);
    toClient.holdSends = true;
    server.frame(JSON.stringify({ type: 'call', id: 3, op: 'count', input: {}, batchFrames: true }));
    server.frame(JSON.stringify({ type: 'credit', id: 3, count: 4 }));
    await flush();
    expect(toClient.frames()).toEqual([
      { type: 'frames', frames: [1, 2, 3, 4].map((n) => ({ type: 'item', id: 3, value: { n } })) },
    ]);
    toClient.breakConnection();
    await flush();
    expect(lost.filter((msg) => msg.startsWith('an item could not be written'))).toHaveLength(4);
  });

  test('frames sent before the asking call leave on their own, those after it together, all in order', async () => {
    const { handler, open } = gate();
    const { server, toClient } = rawServer(handler);
    server.frame(JSON.stringify({ type: 'call', id: 1, op: 'echo', input: { n: 1 } }));
    server.frame('not json');
    await flush();
    server.frame(JSON.stringify({ type: 'call', id: 2, op: 'echo', input: { n: 2 }, batchFrames: true }));
    open();
    await flush();
    const frames = toClient.frames();
    expect(frames.map((f) => f.type)).toEqual(['error', 'frames']);
    expect(inner(frames[1] as SeenFrame).map((f) => f.id)).toEqual([1, 2]);
  });
});
