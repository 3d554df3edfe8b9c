import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QkEvent } from '@qk/api';
import { HttpTransport, QkClient, QkError } from '@qk/client';
import { runService, type RunningService } from '@qk/service';
import { tempDataDir } from '../service/helpers.js';

describe('QkClient against a real service', () => {
  let service: RunningService;
  let cleanup: () => void;

  beforeAll(async () => {
    const temp = tempDataDir('qk-client-');
    cleanup = temp.cleanup;
    service = await runService({ dataDir: temp.dir, name: 'CLIENTTEST', consoleDir: null });
  });
  afterAll(async () => {
    await service.stop();
    cleanup();
  });

  for (const transport of ['http', 'ws'] as const) {
    describe(`over ${transport}`, () => {
      it('has one method per operation and returns values', async () => {
        const client = await QkClient.connect({ url: service.url, token: service.token, transport });
        try {
          expect(typeof client.messagesMove).toBe('function');
          const path = `.\\private$\\client-${transport}`;
          await client.queueCreate({ path });
          const { id } = await client.send({ path, message: { body: 'hi', label: 'L' } });
          const message = await client.receive({ path, timeoutMs: 1_000 });
          expect(message).toMatchObject({ id, body: 'hi', label: 'L' });
        } finally {
          await client.close();
        }
      });

      it('sendEach answers each send as its own send would: a refused one fails alone, the rest are sent in order', async () => {
        const client = await QkClient.connect({ url: service.url, token: service.token, transport });
        const path = `.\\private$\\client-each-${transport}`;
        try {
          await client.queueCreate({ path });
          const { results } = await client.sendEach({
            sends: [
              { path, message: { body: 'first' } },
              { path: '.\\private$\\client-each-missing', message: { body: 'lost' } },
              { path, message: { body: 'long label', label: 'x'.repeat(251) } },
              { path, message: 'not a message' },
              { path, message: { body: 'second' } },
            ],
          });
          expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual([
            'ok',
            'QUEUE_NOT_FOUND',
            'LABEL_TOO_LONG',
            'INVALID_PARAMETER',
            'ok',
          ]);
          const page = await client.browse({ path, includeBody: true });
          expect(page.messages.map((m) => m.body)).toEqual(['first', 'second']);
          expect(page.messages.map((m) => m.id)).toEqual(results.filter((r) => r.ok).map((r) => r.ok && r.value.id));
        } finally {
          await client.close();
        }
      });

      it('throws QkError with the service code', async () => {
        const client = await QkClient.connect({ url: service.url, token: service.token, transport });
        try {
          const error = await client.queueShow({ path: '.\\private$\\missing' }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(QkError);
          expect(error).toMatchObject({ code: 'QUEUE_NOT_FOUND' });
        } finally {
          await client.close();
        }
      });

      it('commits a transaction when the work resolves and aborts it when it throws', async () => {
        const client = await QkClient.connect({ url: service.url, token: service.token, transport });
        const path = `.\\private$\\client-tx-${transport}`;
        try {
          await client.queueCreate({ path, transactional: true });
          await client.transaction(async (transaction) => {
            await client.send({ path, message: { body: 'committed' }, transaction });
          });
          await expect(
            client.transaction(async (transaction) => {
              await client.send({ path, message: { body: 'aborted' }, transaction });
              throw new Error('changed my mind');
            }),
          ).rejects.toThrow('changed my mind');
          const page = await client.browse({ path, includeBody: true });
          expect(page.messages.map((m) => m.body)).toEqual(['committed']);
        } finally {
          await client.close();
        }
      });
    });
  }

  it('keeps many WebSocket calls in flight on one connection', async () => {
    const client = await QkClient.connect({ url: service.url, token: service.token, transport: 'ws' });
    const path = '.\\private$\\client-flight';
    try {
      await client.queueCreate({ path });
      const receives = Array.from({ length: 20 }, () => client.receive({ path, timeoutMs: 5_000 }));
      const sends = Array.from({ length: 20 }, (_, i) => client.send({ path, message: { body: `m${i}` } }));
      await Promise.all(sends);
      const bodies = (await Promise.all(receives)).map((m) => m.body).sort();
      expect(bodies).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`).sort());
    } finally {
      await client.close();
    }
  });

  it('sends in flight on one WebSocket are each answered as a send: the refused one alone fails, the rest arrive in order', async () => {
    const client = await QkClient.connect({ url: service.url, token: service.token, transport: 'ws' });
    const path = '.\\private$\\client-coalesced';
    try {
      await client.queueCreate({ path });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          client.send({ path: i === 7 ? '.\\private$\\client-coalesced-missing' : path, message: { body: `m${i}` } }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o.reason as QkError).code)).toEqual([
        'QUEUE_NOT_FOUND',
      ]);
      expect((outcomes[7] as PromiseRejectedResult).reason).toBeInstanceOf(QkError);
      const page = await client.browse({ path, includeBody: true, limit: 100 });
      expect(page.messages.map((m) => m.body)).toEqual(
        Array.from({ length: 30 }, (_, i) => `m${i}`).filter((body) => body !== 'm7'),
      );
    } finally {
      await client.close();
    }
  });

  it('delivers events to subscribers until disposed', async () => {
    const client = await QkClient.connect({ url: service.url, token: service.token });
    const events: QkEvent[] = [];
    const dispose = client.subscribe((e) => events.push(e));
    try {
      await client.eventsReady();
      await new Promise((r) => setTimeout(r, 50));
      await client.queueCreate({ path: '.\\private$\\client-events' });
      await expect.poll(() => events.some((e) => e.type === 'queueCreated')).toBe(true);
      dispose();
      const seen = events.length;
      await client.queueDelete({ path: '.\\private$\\client-events' });
      await new Promise((r) => setTimeout(r, 100));
      expect(events.length).toBe(seen);
    } finally {
      await client.close();
    }
  });

  it('stops a long receive over HTTP when the signal aborts', async () => {
    const client = await QkClient.connect({ url: service.url, token: service.token });
    const path = '.\\private$\\client-abort';
    await client.queueCreate({ path });
    const aborter = new AbortController();
    const pending = client.call('receive', { path, timeoutMs: 10_000 }, { signal: aborter.signal });
    setTimeout(() => aborter.abort(), 100);
    await expect(pending).rejects.toMatchObject({ code: 'OPERATION_CANCELLED' });
    await client.close();
  });

  it('stops a waiting receive and receiveBatch over WebSocket when the signal aborts; neither takes a later message', async () => {
    const client = await QkClient.connect({ url: service.url, token: service.token, transport: 'ws' });
    try {
      const path = '.\\private$\\client-abort-ws';
      await client.queueCreate({ path });
      for (const op of ['receive', 'receiveBatch'] as const) {
        const aborter = new AbortController();
        const input = op === 'receive' ? { path, timeoutMs: 10_000 } : { path, timeoutMs: 10_000, max: 10 };
        const pending = client.call(op, input, { signal: aborter.signal });
        setTimeout(() => aborter.abort(), 100);
        await expect(pending).rejects.toMatchObject({ code: 'OPERATION_CANCELLED' });
      }
      await client.send({ path, message: { body: 'after the cancels' } });
      expect((await client.queueShow({ path })).messageCount).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('splits a long HTTP wait into rounds, still timing out at the end and still taking a late message', async () => {
    const setup = await QkClient.connect({ url: service.url, token: service.token });
    const path = '.\\private$\\client-rounds';
    await setup.queueCreate({ path });
    const transport = new HttpTransport(service.url, service.token, { longPollRoundMs: 200 });
    const started = Date.now();
    await expect(transport.call('receive', { path, timeoutMs: 700 })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    const late = transport.call('receive', { path, timeoutMs: 5_000 });
    await new Promise((r) => setTimeout(r, 500));
    await setup.send({ path, message: { body: 'late' } });
    expect(await late).toMatchObject({ body: 'late' });
    await setup.close();
  });

  it('refuses a wrong token: UNAUTHORIZED over HTTP and over WebSocket', async () => {
    const http = await QkClient.connect({ url: service.url, token: 'nope' });
    await expect(http.serviceStatus({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(QkClient.connect({ url: service.url, token: 'nope', transport: 'ws' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('finds the service of a data folder through service.json and the token', async () => {
    const client = await QkClient.fromDataDir(service.dataDir);
    expect((await client.serviceStatus({})).name).toBe('CLIENTTEST');
    await client.close();
  });
});

describe('QkClient.fromDataDir without a service', () => {
  it('says no service is running on DIR when service.json is missing', async () => {
    const { dir, cleanup } = tempDataDir('qk-client-');
    try {
      const error = await QkClient.fromDataDir(dir).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'SERVICE_NOT_AVAILABLE',
        message: expect.stringContaining(`No service is running on ${dir}`),
      });
    } finally {
      cleanup();
    }
  });

  it('says so when the pid in service.json is gone, and when nothing answers at its URL', async () => {
    const { dir, cleanup } = tempDataDir('qk-client-');
    try {
      writeFileSync(join(dir, 'token'), 'f'.repeat(64));
      writeFileSync(
        join(dir, 'service.json'),
        JSON.stringify({ url: 'http://127.0.0.1:9', pid: 2 ** 22 + 1, name: 'X', id: 'y', startedTime: 'z' }),
      );
      await expect(QkClient.fromDataDir(dir)).rejects.toMatchObject({
        code: 'SERVICE_NOT_AVAILABLE',
        message: expect.stringContaining('is gone'),
      });
      writeFileSync(
        join(dir, 'service.json'),
        JSON.stringify({ url: 'http://127.0.0.1:9', pid: process.pid, name: 'X', id: 'y', startedTime: 'z' }),
      );
      const client = await QkClient.fromDataDir(dir);
      await expect(client.serviceStatus({})).rejects.toMatchObject({
        code: 'SERVICE_NOT_AVAILABLE',
        message: expect.stringContaining(`No service is running on ${dir}`),
      });
      rmSync(join(dir, 'token'));
      await expect(QkClient.fromDataDir(dir)).rejects.toMatchObject({ code: 'SERVICE_NOT_AVAILABLE' });
    } finally {
      cleanup();
    }
  });
});
