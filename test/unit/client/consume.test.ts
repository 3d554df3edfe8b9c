/**
 * The streaming receive through the client library and a real service (issue 11): consume() with a
 * handler, the async iterator, transactional commits, and what happens to messages when a consumer stops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsumerError, QkClient } from '@qk/client';
import type { MessageInfo } from '@qk/model';
import { runService, type RunningService } from '@qk/service';
import { tempDataDir } from '../service/helpers.js';

let service: RunningService;
let cleanup: () => void;
let queueNumber = 0;

beforeAll(async () => {
  const temp = tempDataDir('qk-consume-');
  cleanup = temp.cleanup;
  service = await runService({ dataDir: temp.dir, name: 'CONSUMETEST', consoleDir: null });
});
afterAll(async () => {
  await service.stop();
  cleanup();
});

async function client(transport: 'ws' | 'http' = 'ws'): Promise<QkClient> {
  return QkClient.connect({ url: service.url, token: service.token, transport });
}

async function queue(c: QkClient, transactional = false): Promise<string> {
  const path = `.\\private$\\consume-${++queueNumber}`;
  await c.queueCreate({ path, transactional });
  return path;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const until = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('consume()', () => {
  it('R-O1 hands every message to the handler in receive order, those waiting and those sent later, and each leaves the queue', async () => {
    const c = await client();
    try {
      const path = await queue(c);
      await c.sendBatch({
        messages: [
          { path, message: { body: 'p1', priority: 1 } },
          { path, message: { body: 'p6', priority: 6 } },
        ],
      });
      const bodies: (string | null)[] = [];
      const consumer = c.consume(path, { credit: 10 }, (m) => void bodies.push(m.body));
      await until(() => bodies.length === 2);
      for (let i = 0; i < 50; i++) await c.send({ path, message: { body: `later-${i}` } });
      await until(() => bodies.length === 52);
      await consumer.close();
      expect(bodies.slice(0, 2)).toEqual(['p6', 'p1']);
      expect(bodies.slice(2)).toEqual(Array.from({ length: 50 }, (_, i) => `later-${i}`));
      expect(consumer.handled).toBe(52);
      expect((await c.queueShow({ path })).messageCount).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('never has more than its credit on the way: a slow handler leaves the rest in the queue for others', async () => {
    const c = await client();
    const other = await client();
    try {
      const path = await queue(c);
      await c.sendBatch({ messages: Array.from({ length: 20 }, (_, i) => ({ path, message: { body: `m${i}` } })) });
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const seen: string[] = [];
      const consumer = c.consume(path, { credit: 3 }, async (m) => {
        seen.push(m.body ?? '');
        await gate;
      });
      await until(() => seen.length === 1);
      await new Promise((r) => setTimeout(r, 100));
      // 3 sent to the consumer (1 in the handler, 2 waiting); 17 still there for anyone.
      expect((await c.queueShow({ path })).messageCount).toBe(17);
      expect((await other.receive({ path, timeoutMs: 0 })).body).toBe('m3');
      release();
      await until(() => seen.length === 19);
      await consumer.close();
      expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`).filter((b) => b !== 'm3'));
    } finally {
      await Promise.all([c.close(), other.close()]);
    }
  });

  it('max: takes exactly that many and leaves the rest', async () => {
    const c = await client();
    try {
      const path = await queue(c);
      await c.sendBatch({ messages: Array.from({ length: 10 }, (_, i) => ({ path, message: { body: `m${i}` } })) });
      const seen: string[] = [];
      const consumer = c.consume(path, { credit: 100, max: 4 }, (m) => void seen.push(m.body ?? ''));
      await consumer.done;
      expect(seen).toEqual(['m0', 'm1', 'm2', 'm3']);
      expect((await c.queueShow({ path })).messageCount).toBe(6);
    } finally {
      await c.close();
    }
  });

  it('a handler that throws stops the consumer; without a transaction the messages already sent to it come with the error', async () => {
    const c = await client();
    try {
      const path = await queue(c);
      await c.sendBatch({ messages: Array.from({ length: 5 }, (_, i) => ({ path, message: { body: `m${i}` } })) });
      const consumer = c.consume(path, { credit: 5 }, async (m) => {
        await new Promise((r) => setTimeout(r, 20));
        if (m.body === 'm1') throw new Error('cannot handle m1');
      });
      const error = (await consumer.done.catch((e: unknown) => e)) as ConsumerError;
      expect(error).toBeInstanceOf(ConsumerError);
      const left = (await c.queueShow({ path })).messageCount;
      // Nothing vanished: every message is in the queue, was handled (m0, m1), or is in the error.
      expect(2 + error.unhandled.length + left).toBe(5);
    } finally {
      await c.close();
    }
  });

  it('over an HTTP client it opens a WebSocket of its own', async () => {
    const c = await client('http');
    try {
      const path = await queue(c);
      await c.send({ path, message: { body: 'via ws' } });
      const seen: string[] = [];
      const consumer = c.consume(path, {}, (m) => void seen.push(m.body ?? ''));
      await until(() => seen.length === 1);
      await consumer.close();
      expect(seen).toEqual(['via ws']);
    } finally {
      await c.close();
    }
  });

  it('the consume operation over plain HTTP is refused with a clear error', async () => {
    const c = await client('http');
    try {
      const path = await queue(c);
      await expect(c.call('consume', { path })).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
    } finally {
      await c.close();
    }
  });
});

describe('transactional consume()', () => {
  it('commits each message once the handler is done with it; close() commits what was handled', async () => {
    const c = await client();
    try {
      const path = await queue(c, true);
      await c.sendBatch({
        messages: Array.from({ length: 6 }, (_, i) => ({ path, message: { body: `m${i}` }, transactional: true })),
      });
      const seen: string[] = [];
      const consumer = c.consume(path, { transactional: true, credit: 10, commitEvery: 2 }, (m) => {
        seen.push(m.body ?? '');
      });
      await until(() => seen.length === 6);
      await consumer.close();
      expect((await c.queueShow({ path })).messageCount).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('R-D5 a handler that throws puts back, in place, every message not committed', async () => {
    const c = await client();
    try {
      const path = await queue(c, true);
      await c.sendBatch({
        messages: Array.from({ length: 4 }, (_, i) => ({ path, message: { body: `m${i}` }, transactional: true })),
      });
      const before = (await c.browse({ path })).messages.map((m) => m.lookupId);
      const consumer = c.consume(path, { transactional: true, credit: 4 }, (m) => {
        if (m.body === 'm2') throw new Error('m2 is bad');
      });
      await expect(consumer.done).rejects.toBeInstanceOf(ConsumerError);
      await pause(100);
      const after = (await c.browse({ path })).messages.map((m) => m.lookupId);
      // m0 and m1 were committed one by one; m2 and m3 went back where they were.
      expect(after).toEqual(before.slice(2));
    } finally {
      await c.close();
    }
  });

  it('a dropped connection puts back what a transactional consumer had not committed', async () => {
    const c = await client();
    const check = await client();
    try {
      const path = await queue(c, true);
      await c.sendBatch({
        messages: Array.from({ length: 3 }, (_, i) => ({ path, message: { body: `m${i}` }, transactional: true })),
      });
      let started!: () => void;
      let finish!: () => void;
      const inHandler = new Promise<void>((r) => (started = r));
      const handlerDone = new Promise<void>((r) => (finish = r));
      const consumer = c.consume(path, { transactional: true, credit: 3 }, () => {
        started();
        return handlerDone;
      });
      await inHandler;
      expect((await check.queueShow({ path })).messageCount).toBe(3);
      await c.close();
      // The handler finishes after the connection is gone: its commit cannot reach the service.
      finish();
      await expect(consumer.done).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
      await pause(100);
      const bodies = (await check.browse({ path, includeBody: true })).messages.map((m) => m.body);
      expect(bodies).toEqual(['m0', 'm1', 'm2']);
      expect((await check.receive({ path, timeoutMs: 1_000, transactional: true })).body).toBe('m0');
    } finally {
      await Promise.all([c.close(), check.close()]);
    }
  });
});

describe('messages() iterator', () => {
  it('yields messages in order; leaving the loop leaves the rest in the queue', async () => {
    const c = await client();
    try {
      const path = await queue(c);
      await c.sendBatch({ messages: Array.from({ length: 5 }, (_, i) => ({ path, message: { body: `m${i}` } })) });
      const seen: MessageInfo[] = [];
      for await (const m of c.messages(path)) {
        seen.push(m);
        if (seen.length === 2) break;
      }
      expect(seen.map((m) => m.body)).toEqual(['m0', 'm1']);
      await pause(100);
      expect((await c.queueShow({ path })).messageCount).toBe(3);
      expect((await c.receive({ path, timeoutMs: 1_000 })).body).toBe('m2');
    } finally {
      await c.close();
    }
  });
});
