/**
 * Issue 7, items 2 and 3 — nothing lost at the transport. Against a real service on a real socket: a
 * cancelled receive takes nothing; a batch of large bodies is cut at the reply cap and loses nothing; a
 * reply too large to send is refused without a crash; a reader that falls behind gets every message once
 * it reads again; past the calls-in-flight limit a call is refused with a stable code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RawSocket } from '../support/raw-socket.js';
import { DrillService } from '../support/service-process.js';

const service = new DrillService();
let api: ReturnType<DrillService['api']>;

beforeAll(async () => {
  await service.start();
  api = service.api();
});
afterAll(() => service.dispose());

async function queue(name: string): Promise<string> {
  const path = `.\\private$\\${name}`;
  await api.value('queueCreate', { path });
  return path;
}

const count = async (path: string): Promise<number> =>
  (await api.value<{ messageCount: number }>('queueShow', { path })).messageCount;

/** Sends `n` recoverable messages with binary bodies of `size` bytes, each body tagged with its index. */
async function fill(path: string, n: number, size: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = Buffer.alloc(size, i % 251);
    body.writeUInt32BE(i, 0);
    const { id } = await api.value<{ id: string }>('send', {
      path,
      message: { bodyBase64: body.toString('base64'), delivery: 'recoverable', label: `m${i}` },
    });
    ids.push(id);
  }
  return ids;
}

describe('cancel', () => {
  test('a receive cancelled while it waits takes nothing that arrives afterwards', async () => {
    const path = await queue('cancel-wait');
    const socket = await RawSocket.open(service.url, service.token);
    try {
      const ids = Array.from({ length: 20 }, () => socket.send('receive', { path, timeoutMs: 60_000 }));
      await new Promise((r) => setTimeout(r, 300));
      for (const id of ids) socket.cancel(id);
      const results = await Promise.all(ids.map((id) => socket.result(id, 30_000)));
      expect(results.map((r) => r?.error?.code)).toEqual(ids.map(() => 'OPERATION_CANCELLED'));
      await fill(path, 5, 100);
      expect(await count(path)).toBe(5);
    } finally {
      await socket.close();
    }
  });

  test('a cancel racing with arrivals: every message is either answered to its receive or still queued', async () => {
    const path = await queue('cancel-race');
    const socket = await RawSocket.open(service.url, service.token);
    try {
      const ids = Array.from({ length: 40 }, () => socket.send('receive', { path, timeoutMs: 60_000 }));
      const sending = fill(path, 40, 1_000);
      await new Promise((r) => setTimeout(r, 20));
      for (const id of ids) socket.cancel(id);
      await sending;
      const results = await Promise.all(ids.map((id) => socket.result(id, 30_000)));
      const received = results.filter((r) => r?.ok).length;
      expect(results.every((r) => r !== null && (r.ok || r.error?.code === 'OPERATION_CANCELLED'))).toBe(true);
      expect(received + (await count(path))).toBe(40);
    } finally {
      await socket.close();
    }
  });
});

describe('large replies', () => {
  test('a batch of large bodies is cut at the reply cap and loses nothing (HTTP and WebSocket)', async () => {
    const path = await queue('big-batch');
    const sent = await fill(path, 10, 3 * 1024 * 1024);
    const got: string[] = [];
    const socket = await RawSocket.open(service.url, service.token);
    try {
      for (let round = 0; round < 20 && got.length < sent.length; round++) {
        const messages =
          round % 2 === 0
            ? (await api.value<{ messages: { id: string }[] }>('receiveBatch', { path, max: 10 })).messages
            : ((await socket.call('receiveBatch', { path, max: 10 }, 60_000))?.value as { messages: { id: string }[] })
                .messages;
        expect(messages.length).toBeGreaterThanOrEqual(1);
        // 8 MB per reply: two 3 MB bodies (4 MB each in base64) at most.
        expect(messages.length).toBeLessThanOrEqual(2);
        got.push(...messages.map((m) => m.id));
      }
    } finally {
      await socket.close();
    }
    expect([...got].sort()).toEqual([...sent].sort());
    expect(await count(path)).toBe(0);
  });

  test('a reply too large to send is refused with INSUFFICIENT_RESOURCES, the service stays up and keeps the messages', async () => {
    const path = await queue('huge-browse');
    await fill(path, 16, 4 * 1024 * 1024 - 1_024);
    const http = await api.call('browse', { path, limit: 16, includeBody: true });
    expect(http).toMatchObject({ kind: 'refused', status: 413, code: 'INSUFFICIENT_RESOURCES' });
    const socket = await RawSocket.open(service.url, service.token);
    try {
      const ws = await socket.call('browse', { path, limit: 16, includeBody: true }, 120_000);
      expect(ws).toMatchObject({ ok: false, error: { code: 'INSUFFICIENT_RESOURCES' } });
      expect(await count(path)).toBe(16);
      // One message at MaxMessageSize always fits, however its body escapes in JSON.
      const control = await queue('control-body');
      await api.value('send', {
        path: control,
        message: { bodyBase64: Buffer.alloc(4 * 1024 * 1024 - 1_024, 1).toString('base64') },
      });
      const one = await socket.call('receive', { path: control }, 120_000);
      expect(one).toMatchObject({ ok: true, value: { bodySize: 4 * 1024 * 1024 - 1_024 } });
    } finally {
      await socket.close();
    }
    expect(await api.value('serviceStatus', {})).toMatchObject({ name: service.name });
  });
});

describe('slow readers and many calls', () => {
  test('a reader that stops reading gets every message once it reads again; others are served meanwhile', async () => {
    const path = await queue('slow-reader');
    await fill(path, 60, 200 * 1024);
    const slow = await RawSocket.open(service.url, service.token);
    try {
      slow.stopReading();
      const ids = Array.from({ length: 60 }, () => slow.send('receive', { path, timeoutMs: 30_000 }));
      await new Promise((r) => setTimeout(r, 2_000));
      // Another client is served while this one is behind.
      expect(await api.value('serviceStatus', {})).toMatchObject({ name: service.name });
      slow.resumeReading();
      const results = await Promise.all(ids.map((id) => slow.result(id, 60_000)));
      const bodies = results.map((r) => {
        expect(r?.ok, JSON.stringify(r?.error)).toBe(true);
        return Buffer.from((r?.value as { bodyBase64: string }).bodyBase64, 'base64').readUInt32BE(0);
      });
      expect(new Set(bodies).size).toBe(60);
      expect(await count(path)).toBe(0);
    } finally {
      await slow.close();
    }
  });

  test('calls past the limit in flight are refused with TOO_MANY_CALLS; those admitted all answer', async () => {
    const path = await queue('too-many');
    const socket = await RawSocket.open(service.url, service.token);
    try {
      const ids = Array.from({ length: 300 }, () => socket.send('receive', { path, timeoutMs: 2_000 }));
      const results = await Promise.all(ids.map((id) => socket.result(id, 60_000)));
      const codes = results.map((r) => r?.error?.code);
      expect(codes.filter((c) => c === 'TOO_MANY_CALLS')).toHaveLength(300 - 256);
      expect(codes.filter((c) => c === 'IO_TIMEOUT')).toHaveLength(256);
    } finally {
      await socket.close();
    }
  });
});
