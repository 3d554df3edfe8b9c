import { describe, expect, test, vi } from 'vitest';
import { QkError, type Envelope } from '@qk/model';
import {
  BATCH_REPLY_LIMIT,
  DEFAULT_LIMITS,
  estimatedJsonBytes,
  serveRpc,
  type RpcCallContext,
  type RpcHandler,
  type RpcLogger,
} from '@qk/rpc';
import { FakeTransport, flush } from './fake-transport.js';

const call = (id: number, op: string, input: unknown = {}) => JSON.stringify({ type: 'call', id, op, input });
const ok = (value: unknown): Envelope<unknown> => ({ ok: true, value });

function logger(): RpcLogger & { lines: { level: string; message: string; context: object }[] } {
  const lines: { level: string; message: string; context: object }[] = [];
  const at = (level: string) => (context: object, message: string) => void lines.push({ level, message, context });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** A handler whose calls the test answers by hand. */
function manualHandler(extra: Partial<RpcHandler> = {}) {
  const calls: { op: string; input: unknown; context: RpcCallContext; answer(e: Envelope<unknown>): void }[] = [];
  const handler: RpcHandler = {
    call: (op, input, context) =>
      new Promise((answer) => {
        calls.push({ op, input, context, answer });
      }),
    ...extra,
  };
  return { handler, calls };
}

describe('frames', () => {
  test('each call is answered once, by id, in the order calls finish', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler });
    sink.frame(call(1, 'queueList'));
    sink.frame(call(2, 'serviceStatus', { x: 1 }));
    await flush();
    expect(calls.map((c) => [c.op, c.input])).toEqual([
      ['queueList', {}],
      ['serviceStatus', { x: 1 }],
    ]);
    calls[1]?.answer(ok('second'));
    calls[0]?.answer({ ok: false, error: { code: 'QUEUE_NOT_FOUND', message: 'no' } });
    await flush();
    expect(t.frames()).toEqual([
      { type: 'result', id: 2, ok: true, value: 'second' },
      { type: 'result', id: 1, ok: false, error: { code: 'QUEUE_NOT_FOUND', message: 'no' } },
    ]);
  });

  test('a frame that is not JSON gets an error frame and the connection stays usable', async () => {
    const t = new FakeTransport();
    const sink = serveRpc(t, { handler: { call: async () => ok(1) } });
    sink.frame('{not json');
    sink.frame(call(7, 'queueList'));
    await flush();
    expect(t.frames()).toEqual([
      { type: 'error', error: { code: 'INVALID_PARAMETER', message: expect.stringContaining('JSON') } },
      { type: 'result', id: 7, ok: true, value: 1 },
    ]);
    expect(t.closedWith).toBeUndefined();
  });

  test('a malformed frame with an id is answered as that call; without one, by an error frame', async () => {
    const t = new FakeTransport();
    const handler = { call: vi.fn(async () => ok(1)) };
    const sink = serveRpc(t, { handler });
    sink.frame(JSON.stringify({ type: 'call', id: 3, op: 'no such/op' }));
    sink.frame(JSON.stringify({ type: 'call', id: 4 }));
    sink.frame(JSON.stringify({ type: 'launch' }));
    sink.frame(JSON.stringify([1, 2, 3]));
    sink.frame(JSON.stringify({ type: 'call', id: -1, op: 'queueList' }));
    sink.frame(JSON.stringify({ type: 'call', id: 1.5, op: 'queueList' }));
    await flush();
    const frames = t.frames();
    expect(frames.slice(0, 2)).toEqual([
      { type: 'result', id: 3, ok: false, error: { code: 'INVALID_PARAMETER', message: expect.any(String) } },
      { type: 'result', id: 4, ok: false, error: { code: 'INVALID_PARAMETER', message: expect.any(String) } },
    ]);
    expect(frames.slice(2).map((f) => [f.type, f.error?.code])).toEqual([
      ['error', 'INVALID_PARAMETER'],
      ['error', 'INVALID_PARAMETER'],
      ['error', 'INVALID_PARAMETER'],
      ['error', 'INVALID_PARAMETER'],
    ]);
    expect(handler.call).not.toHaveBeenCalled();
  });

  test('deeply nested and huge inputs are parsed or refused without harm', async () => {
    const t = new FakeTransport();
    const sink = serveRpc(t, { handler: { call: async (_op, input) => ok(typeof input) } });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    sink.frame(`{"type":"call","id":1,"op":"browse","input":${deep}}`);
    sink.frame('['.repeat(1_000_000));
    await flush();
    expect(
      t
        .frames()
        .map((f) => f.type)
        .sort(),
    ).toEqual(['error', 'result']);
  });

  test('an id already in flight is refused without a second answer for it', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler });
    sink.frame(call(5, 'receive'));
    sink.frame(call(5, 'receive'));
    await flush();
    expect(calls).toHaveLength(1);
    calls[0]?.answer(ok('one'));
    await flush();
    expect(t.frames()).toEqual([
      { type: 'error', error: { code: 'INVALID_PARAMETER', message: 'Call id 5 is already in flight.' } },
      { type: 'result', id: 5, ok: true, value: 'one' },
    ]);
  });
});

describe('limits', () => {
  test('calls past the limit in flight are refused with TOO_MANY_CALLS; room comes back as calls finish', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler, limits: { maxCallsInFlight: 2 } });
    for (const id of [1, 2, 3]) sink.frame(call(id, 'receive'));
    await flush();
    expect(calls).toHaveLength(2);
    expect(t.frames()).toEqual([
      { type: 'result', id: 3, ok: false, error: { code: 'TOO_MANY_CALLS', message: expect.any(String) } },
    ]);
    calls[0]?.answer(ok(null));
    await flush();
    sink.frame(call(4, 'receive'));
    await flush();
    expect(calls).toHaveLength(3);
  });

  test('a reply over the byte budget becomes INSUFFICIENT_RESOURCES instead of being sent', async () => {
    const t = new FakeTransport();
    const log = logger();
    const sink = serveRpc(t, {
      handler: { call: async () => ok('x'.repeat(2_000)) },
      limits: { maxReplyBytes: 1_000 },
      logger: log,
    });
    sink.frame(call(1, 'browse'));
    await flush();
    expect(t.frames()).toEqual([
      { type: 'result', id: 1, ok: false, error: { code: 'INSUFFICIENT_RESOURCES', message: expect.any(String) } },
    ]);
    expect(log.lines.some((l) => l.level === 'warn')).toBe(true);
  });

  test('a reply that cannot be serialized is answered with an error, not a crash', async () => {
    const t = new FakeTransport();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const sink = serveRpc(t, { handler: { call: async (op) => ok(op === 'big' ? 10n : cyclic) } });
    sink.frame(call(1, 'cyclic'));
    sink.frame(call(2, 'big'));
    await flush();
    expect(t.frames().map((f) => [f.id, f.error?.code])).toEqual([
      [1, 'INSUFFICIENT_RESOURCES'],
      [2, 'INSUFFICIENT_RESOURCES'],
    ]);
  });

  test('a handler that throws something unexpected is answered INTERNAL and logged', async () => {
    const t = new FakeTransport();
    const log = logger();
    const sink = serveRpc(t, {
      handler: {
        call: async (op) => {
          if (op === 'known') throw new QkError('QUEUE_NOT_FOUND', 'gone');
          throw new TypeError('boom');
        },
      },
      logger: log,
    });
    sink.frame(call(1, 'unknown'));
    sink.frame(call(2, 'known'));
    await flush();
    expect(t.frames().map((f) => f.error?.code)).toEqual(['INTERNAL', 'QUEUE_NOT_FOUND']);
    expect(log.lines.filter((l) => l.level === 'error')).toHaveLength(1);
  });
});

describe('delivery and cancel', () => {
  test('deliver prepares the result and its write step sends it; what the call returns afterwards is not sent', async () => {
    const t = new FakeTransport();
    const log = logger();
    const sink = serveRpc(t, {
      logger: log,
      handler: {
        call: async (_op, _input, context) => {
          const write = await context.deliver({ body: 'm' });
          // Between the two phases the receive commits its removal: nothing has been sent yet.
          expect(t.sent).toEqual([]);
          await write();
          return { ok: false, error: { code: 'MESSAGE_STORAGE_FAILED', message: 'late failure' } };
        },
      },
    });
    sink.frame(call(1, 'receive'));
    await flush();
    expect(t.frames()).toEqual([{ type: 'result', id: 1, ok: true, value: { body: 'm' } }]);
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes('after its reply'))).toBe(true);
  });

  test('a prepared result whose write never runs (the removal failed) leaves the call answered by its error', async () => {
    const t = new FakeTransport();
    const sink = serveRpc(t, {
      handler: {
        call: async (_op, _input, context) => {
          await context.deliver({ body: 'm' });
          return { ok: false, error: { code: 'MESSAGE_STORAGE_FAILED', message: 'the disk is full' } };
        },
      },
    });
    sink.frame(call(1, 'receive'));
    await flush();
    expect(t.frames()).toEqual([
      { type: 'result', id: 1, ok: false, error: { code: 'MESSAGE_STORAGE_FAILED', message: 'the disk is full' } },
    ]);
  });

  test('a cancel after the result was prepared has lost the race: the result is still written', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler });
    sink.frame(call(1, 'receive'));
    await flush();
    const write = await (calls[0]?.context as RpcCallContext).deliver({ body: 'taken' });
    sink.frame(JSON.stringify({ type: 'cancel', id: 1 }));
    await write();
    calls[0]?.answer({ ok: true, value: { body: 'taken' } });
    await flush();
    expect(t.frames()).toEqual([{ type: 'result', id: 1, ok: true, value: { body: 'taken' } }]);
  });

  test('a cancel aborts the call: its delivery is refused, nothing is sent but OPERATION_CANCELLED', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler });
    sink.frame(call(1, 'receive'));
    await flush();
    const context = calls[0]?.context as RpcCallContext;
    sink.frame(JSON.stringify({ type: 'cancel', id: 1 }));
    expect(context.signal.aborted).toBe(true);
    await expect(context.deliver({ body: 'm' })).rejects.toMatchObject({ code: 'OPERATION_CANCELLED' });
    calls[0]?.answer({ ok: false, error: { code: 'OPERATION_CANCELLED', message: 'cancelled' } });
    await flush();
    expect(t.frames()).toEqual([
      { type: 'result', id: 1, ok: false, error: { code: 'OPERATION_CANCELLED', message: 'cancelled' } },
    ]);
  });

  test('a too-large delivery is refused before anything is sent, so the receive can keep its message', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler, limits: { maxReplyBytes: 100 } });
    sink.frame(call(1, 'receive'));
    await flush();
    await expect(calls[0]?.context.deliver('y'.repeat(500))).rejects.toMatchObject({ code: 'INSUFFICIENT_RESOURCES' });
    expect(t.sent).toEqual([]);
  });

  test('a prepared result the transport can no longer take is reported lost, loudly', async () => {
    const t = new FakeTransport();
    const log = logger();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler, logger: log });
    sink.frame(call(1, 'receive'));
    await flush();
    const write = await (calls[0]?.context as RpcCallContext).deliver('m');
    t.failSends = true;
    await expect(write()).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
    expect(log.lines.some((l) => l.level === 'error' && l.message.includes('lost'))).toBe(true);
  });

  test('closing the connection aborts every call, refuses their deliveries and tells the handler', async () => {
    const t = new FakeTransport();
    const closed = vi.fn();
    const { handler, calls } = manualHandler({ closed });
    const sink = serveRpc(t, { handler });
    sink.frame(call(1, 'receive'));
    sink.frame(call(2, 'receiveBatch'));
    await flush();
    sink.closed('peer went away');
    expect(calls.every((c) => c.context.signal.aborted)).toBe(true);
    await expect(calls[0]?.context.deliver('m')).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
    expect(closed).toHaveBeenCalledTimes(1);
  });
});

describe('backpressure', () => {
  test('over the high-water mark reading stops and destructive calls wait; they start once the reader catches up', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler({ isDestructive: (op) => op === 'receive' });
    const sink = serveRpc(t, { handler, limits: { highWaterBytes: 1_000 } });
    sink.frame(call(1, 'browse'));
    await flush();
    t.buffered = 5_000;
    calls[0]?.answer(ok('page'));
    await flush();
    expect(t.reading).toBe(false);
    // Frames read before reading stopped still arrive: a receive waits, a browse does not.
    sink.frame(call(2, 'receive'));
    sink.frame(call(3, 'browse'));
    await flush();
    expect(calls.map((c) => c.op)).toEqual(['browse', 'browse']);
    t.buffered = 400;
    sink.frame(call(4, 'peek'));
    await flush();
    expect(t.reading).toBe(true);
    expect(calls.map((c) => c.op).sort()).toEqual(['browse', 'browse', 'peek', 'receive']);
  });

  test('a receive prepares its reply only while the reader keeps up, so little is committed and unread', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler({ isDestructive: (op) => op === 'receive' });
    const sink = serveRpc(t, { handler, limits: { highWaterBytes: 1_000 } });
    sink.frame(call(1, 'receive'));
    await flush();
    t.buffered = 5_000;
    let prepared = false;
    const preparing = (calls[0]?.context as RpcCallContext).deliver('m').then((write) => {
      prepared = true;
      return write;
    });
    await flush();
    expect(prepared).toBe(false);
    t.buffered = 0;
    sink.frame(call(2, 'peek'));
    await (
      await preparing
    )();
    expect(prepared).toBe(true);
  });

  test('a reply that takes messages away waits for a lower mark than other replies: what a reader that vanishes can lose stays small', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler({ isDestructive: (op) => op === 'receive' });
    const sink = serveRpc(t, { handler, limits: { highWaterBytes: 1_000, deliverHighWaterBytes: 100 } });
    sink.frame(call(1, 'receive'));
    await flush();
    // Below the high-water mark (reading goes on, a browse is answered) but above the mark for removals.
    t.buffered = 500;
    let prepared = false;
    const preparing = (calls[0]?.context as RpcCallContext).deliver('m').then((write) => {
      prepared = true;
      return write;
    });
    sink.frame(call(2, 'browse'));
    await flush();
    calls[1]?.answer(ok('page'));
    await flush();
    expect(t.reading).toBe(true);
    expect(prepared).toBe(false);
    t.buffered = 100;
    sink.frame(call(3, 'peek'));
    await flush();
    calls[2]?.answer(ok('peeked'));
    await (
      await preparing
    )();
    expect(prepared).toBe(true);
  });

  test('a receive waiting for the reader to catch up gives up when the connection closes', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler({ isDestructive: (op) => op === 'receive' });
    const sink = serveRpc(t, { handler, limits: { highWaterBytes: 1_000 } });
    sink.frame(call(1, 'receive'));
    await flush();
    t.buffered = 5_000;
    const preparing = (calls[0]?.context as RpcCallContext).deliver('m');
    sink.closed('gone');
    await expect(preparing).rejects.toMatchObject({ code: 'OPERATION_CANCELLED' });
  });

  test('a receive waiting for the reader gives up when the connection breaks, before its close is reported', async () => {
    const t = new FakeTransport();
    t.holdSends = true;
    const { handler, calls } = manualHandler({ isDestructive: (op) => op === 'receive' });
    const sink = serveRpc(t, { handler, limits: { highWaterBytes: 1_000 } });
    sink.frame(call(1, 'browse'));
    sink.frame(call(2, 'receive'));
    await flush();
    t.buffered = 5_000;
    calls[0]?.answer(ok('a large page, stuck in the socket'));
    await flush();
    let prepared = false;
    const preparing = (calls[1]?.context as RpcCallContext).deliver('m').then((write) => {
      prepared = true;
      return write;
    });
    await flush();
    expect(prepared).toBe(false);
    // The buffer empties because the socket died, not because the reader caught up: nothing may be committed.
    t.breakConnection();
    await expect(preparing).rejects.toMatchObject({
      code: expect.stringMatching(/OPERATION_CANCELLED|SERVICE_NOT_AVAILABLE/),
    });
    expect(prepared).toBe(false);
    sink.closed('gone');
  });

  test('results are never dropped for a slow reader', async () => {
    const t = new FakeTransport();
    t.buffered = 1_000_000;
    const sink = serveRpc(t, { handler: { call: async () => ok('r') }, limits: { highWaterBytes: 10 } });
    for (let id = 1; id <= 20; id++) sink.frame(call(id, 'peek'));
    await flush();
    expect(t.frames().filter((f) => f.type === 'result')).toHaveLength(20);
  });

  test('a reader that is behind loses events, and is told how many once it catches up', async () => {
    const t = new FakeTransport();
    let emit!: (event: unknown) => void;
    const sink = serveRpc(t, {
      handler: {
        call: async () => ok(null),
        subscribe: (listener) => {
          emit = listener;
          return () => undefined;
        },
      },
      limits: { highWaterBytes: 100 },
    });
    sink.frame('{"type":"subscribe"}');
    emit({ n: 1 });
    t.buffered = 1_000;
    emit({ n: 2 });
    emit({ n: 3 });
    t.buffered = 0;
    emit({ n: 4 });
    await flush();
    expect(t.frames()).toEqual([
      { type: 'event', event: { n: 1 } },
      { type: 'eventsLost', count: 2 },
      { type: 'event', event: { n: 4 } },
    ]);
  });

  test('inputs in flight past their budget stop reading until calls finish', async () => {
    const t = new FakeTransport();
    const { handler, calls } = manualHandler();
    const sink = serveRpc(t, { handler, limits: { maxInputBytesInFlight: 1_000 } });
    sink.frame(call(1, 'send', { body: 'x'.repeat(1_500) }));
    await flush();
    expect(t.reading).toBe(false);
    calls[0]?.answer(ok({ id: 'm' }));
    await flush();
    expect(t.reading).toBe(true);
  });
});

describe('authentication by first frame', () => {
  const open = (check = (token: string) => token === 'secret') => {
    const t = new FakeTransport();
    const handler = { call: vi.fn(async () => ok('x')) };
    const sink = serveRpc(t, { handler, authenticate: check, authTimeoutMs: 50 });
    return { t, handler, sink };
  };

  test('the right token in the first frame opens the connection', async () => {
    const { t, sink } = open();
    sink.frame(JSON.stringify({ type: 'auth', token: 'secret' }));
    sink.frame(call(1, 'queueList'));
    await flush();
    expect(t.frames()).toEqual([{ type: 'ready' }, { type: 'result', id: 1, ok: true, value: 'x' }]);
  });

  test('a wrong token, or a call before the auth frame, closes the connection without running anything', async () => {
    for (const first of [JSON.stringify({ type: 'auth', token: 'guess' }), call(1, 'serviceStop'), 'garbage']) {
      const { t, sink, handler } = open();
      sink.frame(first);
      sink.frame(call(2, 'serviceStop'));
      await flush();
      expect(t.frames()).toEqual([{ type: 'error', error: { code: 'UNAUTHORIZED', message: expect.any(String) } }]);
      expect(t.closedWith).toEqual({ code: 1008, reason: 'unauthorized' });
      expect(handler.call).not.toHaveBeenCalled();
    }
  });

  test('the token is also taken as {"token"}, a Bearer authorization, a JSON string or the bare token', async () => {
    for (const first of [
      JSON.stringify({ token: 'secret' }),
      JSON.stringify({ authorization: 'Bearer secret' }),
      JSON.stringify('secret'),
      'secret',
    ]) {
      const { t, sink } = open();
      sink.frame(first);
      await flush();
      expect(t.frames(), first).toEqual([{ type: 'ready' }]);
    }
  });

  test('a connection that never authenticates is closed after the timeout', async () => {
    const { t } = open();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(t.closedWith?.code).toBe(1008);
  });
});

describe('batch reply estimate', () => {
  test('stays within a third of the real size for text, binary and escaped bodies, so the cap holds', () => {
    const message = (body: string | null, base64: string) => ({
      id: '{x}\\1',
      lookupId: 1,
      label: 'label',
      body,
      bodyBase64: base64,
      bodySize: base64.length,
      correlationId: null,
      priority: 3,
    });
    const samples = [
      message('plain ascii text '.repeat(1_000), Buffer.from('plain ascii text '.repeat(1_000)).toString('base64')),
      message(null, Buffer.alloc(100_000, 7).toString('base64')),
      message('\u0001'.repeat(50_000), Buffer.alloc(50_000, 1).toString('base64')),
      message('漢字'.repeat(20_000), Buffer.from('漢字'.repeat(20_000)).toString('base64')),
    ];
    for (const sample of samples) {
      const real = Buffer.byteLength(JSON.stringify(sample));
      const estimate = estimatedJsonBytes(sample);
      expect(real / estimate).toBeLessThan(3.2);
      expect(BATCH_REPLY_LIMIT.maxBytes * (real / estimate)).toBeLessThan(DEFAULT_LIMITS.maxReplyBytes);
    }
  });
});
