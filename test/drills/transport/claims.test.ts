/**
 * Issue 7, item 3 — "a message leaves the store only when its reply can reach the caller": receives (single,
 * batch, transactional) claim their messages and wait while their connection is over its high-water mark; when
 * the connection goes, every claim is given back and each message is exactly where it was — same lookup ID,
 * same position. Against a real service on a real socket, with a reader that stopped reading.
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

interface Listed {
  id: string;
  lookupId: number;
  label: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function listed(path: string): Promise<Listed[]> {
  const page = await api.value<{ messages: Listed[] }>('browse', { path, limit: 100 });
  return page.messages.map(({ id, lookupId, label }) => ({ id, lookupId, label }));
}

describe('claims given back in place', () => {
  test('receives held back by a reader that stopped reading give every message back in place when the connection goes: same lookup ID, same position', async () => {
    const plain = '.\\private$\\held-plain';
    const xact = '.\\private$\\held-xact';
    const filler = '.\\private$\\held-filler';
    await api.value('queueCreate', { path: plain });
    await api.value('queueCreate', { path: xact, transactional: true });
    await api.value('queueCreate', { path: filler });
    for (let i = 0; i < 8; i++) {
      await api.value('send', {
        path: filler,
        message: { bodyBase64: Buffer.alloc(3_000_000, 0x61 + i).toString('base64'), delivery: 'recoverable' },
      });
    }
    const { transaction } = await api.value<{ transaction: string }>('transactionBegin', {});

    const slow = await RawSocket.open(service.url, service.token);
    // Receives that wait on empty queues: plain, batch, single-message transactions and an open transaction.
    const waiting = [
      slow.send('receive', { path: plain, timeoutMs: 120_000 }),
      slow.send('receive', { path: plain, timeoutMs: 120_000 }),
      slow.send('receiveBatch', { path: plain, max: 3, timeoutMs: 120_000 }),
      slow.send('receive', { path: xact, timeoutMs: 120_000, transactional: true }),
      slow.send('receive', { path: xact, timeoutMs: 120_000, transaction }),
      slow.send('receiveBatch', { path: xact, max: 2, timeoutMs: 120_000, transaction }),
    ];
    await sleep(500);
    // The reader stops, and two browses put ~64 MB of replies in front of it: far over the 16 MB high-water mark.
    slow.stopReading();
    slow.send('browse', { path: filler, limit: 4, includeBody: true });
    slow.send('browse', { path: filler, limit: 4, includeBody: true });
    await sleep(4_000);

    for (let i = 0; i < 10; i++) {
      await api.value('send', {
        path: plain,
        message: { label: `p${i}`, body: `plain ${i}`, delivery: 'recoverable' },
      });
      await api.value('send', { path: xact, message: { label: `x${i}`, body: `xact ${i}` }, transactional: true });
    }
    const before = { plain: await listed(plain), xact: await listed(xact) };
    expect(before.plain.map((m) => m.label)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`));
    expect(before.xact.map((m) => m.label)).toEqual(Array.from({ length: 10 }, (_, i) => `x${i}`));
    await sleep(1_500);

    // The first message of each queue is held by a waiting receive: an administrator cannot delete it meanwhile.
    for (const [path, first] of [
      [plain, before.plain[0]],
      [xact, before.xact[0]],
    ] as const) {
      expect(await api.call('messageDelete', { path, lookupId: first?.lookupId })).toMatchObject({
        kind: 'refused',
        code: 'MESSAGE_LOCKED_UNDER_TRANSACTION',
      });
    }
    expect(slow.results.size, 'no reply can have reached a reader that stopped reading').toBe(0);

    slow.vanish();
    await sleep(1_500);
    // Nothing joined the open transaction (no reply could be handed over): aborting it returns nothing.
    await api.value('transactionAbort', { transaction });
    expect(await listed(plain)).toEqual(before.plain);
    expect(await listed(xact)).toEqual(before.xact);
    expect(waiting).toHaveLength(6);

    // And the next receive takes the first message, as if the held receives had never been.
    const next = await api.value<{ label: string; lookupId: number }>('receive', { path: plain });
    expect(next).toMatchObject({ label: 'p0', lookupId: before.plain[0]?.lookupId });
    const nextX = await api.value<{ label: string }>('receive', { path: xact, transactional: true });
    expect(nextX.label).toBe('x0');
    expect(await api.value('serviceStatus', {})).toMatchObject({ name: service.name });
  });

  test('receives cancelled while they wait for the reader take nothing but what was already on its way; the rest stays in place', async () => {
    const path = '.\\private$\\held-cancel';
    const filler = '.\\private$\\held-cancel-filler';
    await api.value('queueCreate', { path });
    await api.value('queueCreate', { path: filler });
    for (let i = 0; i < 8; i++) {
      await api.value('send', {
        path: filler,
        message: { bodyBase64: Buffer.alloc(3_000_000, 0x61 + i).toString('base64') },
      });
    }
    const slow = await RawSocket.open(service.url, service.token);
    try {
      const ids = [
        slow.send('receive', { path, timeoutMs: 120_000 }),
        slow.send('receive', { path, timeoutMs: 120_000 }),
        slow.send('receiveBatch', { path, max: 4, timeoutMs: 120_000 }),
      ];
      await sleep(500);
      slow.stopReading();
      slow.send('browse', { path: filler, limit: 4, includeBody: true });
      slow.send('browse', { path: filler, limit: 4, includeBody: true });
      await sleep(4_000);
      for (let i = 0; i < 8; i++)
        await api.value('send', { path, message: { label: `c${i}`, delivery: 'recoverable' } });
      const before = await listed(path);
      await sleep(1_000);
      expect(await api.call('messageDelete', { path, lookupId: before[0]?.lookupId })).toMatchObject({
        kind: 'refused',
        code: 'MESSAGE_LOCKED_UNDER_TRANSACTION',
      });
      // Cancel frames wait behind the stalled replies too; the receives they name must take nothing.
      for (const id of ids) slow.cancel(id);
      slow.resumeReading();
      const results = await Promise.all(ids.map((id) => slow.result(id, 120_000)));
      const taken = results.flatMap((r) => {
        if (!r?.ok) return [];
        const value = r.value as { label?: string; messages?: { label: string }[] };
        return value.messages ? value.messages.map((m) => m.label) : [value.label ?? '?'];
      });
      // A cancel that lost the race hands over what was already on its way (CLI.md): those are the only ones gone.
      for (const r of results) expect(r?.ok === true || r?.error?.code === 'OPERATION_CANCELLED').toBe(true);
      expect(await listed(path)).toEqual(before.filter((m) => !taken.includes(m.label)));
    } finally {
      await slow.close();
    }
  });
});
