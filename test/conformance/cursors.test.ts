/**
 * Cursors (R-C2–R-C5) through the service's API (`cursorOpen`, `cursorPeek`, `cursorReceive`,
 * `cursorClose`): `qk` runs one call per process, so its cursor is `--lookup-id … --action` (lookup.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { ok } from '../helpers/qk-expect.js';
import { callApi } from '../helpers/http-api.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();

/** A queue holding the labels in this order, priority 3, sent in one batch. */
async function queueOf(prefix: string, ...labels: string[]): Promise<string> {
  const { q, svc } = file;
  const path = await q.newQueue(prefix);
  await callApi(svc.dataDir, 'sendBatch', { messages: labels.map((label) => ({ path, message: { label } })) });
  return path;
}

const api = <T>(op: string, input: unknown): Promise<T> => callApi<T>(file.svc.dataDir, op, input);

describe.concurrent('cursors', () => {
  test('R-C2 a new cursor stands before the first message; next walks the queue in order', async () => {
    const path = await queueOf('c2', 'a', 'b', 'c');
    const { cursor } = await api<{ cursor: string }>('cursorOpen', { path });
    const seen = [
      (await api<QkMessage>('cursorPeek', { cursor })).label,
      (await api<QkMessage>('cursorPeek', { cursor, action: 'next' })).label,
      (await api<QkMessage>('cursorPeek', { cursor, action: 'next' })).label,
    ];
    expect(seen).toEqual(['a', 'b', 'c']);
    await expect(api('cursorPeek', { cursor, action: 'next' })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    await api('cursorClose', { cursor });
    await expect(api('cursorPeek', { cursor })).rejects.toMatchObject({ code: 'INVALID_HANDLE' });
  });

  test('R-C3 after a receive at the cursor it stands at the next message by itself', async () => {
    const { q } = file;
    const path = await queueOf('c3', 'a', 'b', 'c');
    const { cursor } = await api<{ cursor: string }>('cursorOpen', { path });
    expect((await api<QkMessage>('cursorReceive', { cursor })).label).toBe('a');
    expect((await api<QkMessage>('cursorPeek', { cursor })).label).toBe('b');
    expect((await api<QkMessage>('cursorReceive', { cursor })).label).toBe('b');
    expect((await q.messages(path)).map((m) => m.label)).toEqual(['c']);
    // It stands at c: current shows it, and "next" right after a receive would skip it (nothing after c here).
    await expect(api('cursorPeek', { cursor, action: 'next' })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    expect((await api<QkMessage>('cursorPeek', { cursor })).label).toBe('c');
  });

  test('R-C5 when another receiver takes the message under a cursor, the cursor gets MESSAGE_ALREADY_RECEIVED', async () => {
    const { q } = file;
    const path = await queueOf('c5', 'a', 'b');
    const { cursor } = await api<{ cursor: string }>('cursorOpen', { path });
    expect((await api<QkMessage>('cursorPeek', { cursor })).label).toBe('a');
    expect((await q.receive(path)).label).toBe('a');
    await expect(api('cursorReceive', { cursor })).rejects.toMatchObject({ code: 'MESSAGE_ALREADY_RECEIVED' });
    expect((await api<QkMessage>('cursorPeek', { cursor, action: 'next' })).label).toBe('b');
  });

  test('R-C4 a cursor waiting at the end returns the message that arrives', async () => {
    const { q } = file;
    const path = await queueOf('c4', 'first');
    const { cursor } = await api<{ cursor: string }>('cursorOpen', { path });
    await api('cursorPeek', { cursor });
    const waiting = api<QkMessage>('cursorPeek', { cursor, action: 'next', timeoutMs: 60_000 });
    await q.send(path, '--label', 'late', '--priority', '7');
    expect((await waiting).label).toBe('late');
  });

  test('R-S1 R-C4 a cursor open on a subqueue keeps it; a message moved in later reaches the waiting cursor', async () => {
    const { q, svc } = file;
    const path = await queueOf('c-sub', 'poisonous');
    const poison = `${path};poison`;
    const { cursor } = await api<{ cursor: string }>('cursorOpen', { path: poison });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await q.list()).some((x) => x.type === 'subqueue' && x.path.toLowerCase() === poison.toLowerCase())).toBe(
      true,
    );
    const waiting = api<QkMessage>('cursorPeek', { cursor, timeoutMs: 60_000 });
    const [m] = await q.messages(path);
    ok(await svc.qk('message', 'move', path, String(m?.lookupId), poison));
    expect(await waiting).toMatchObject({ label: 'poisonous', moveCount: 1 });
    await api('cursorClose', { cursor });
  });
});

// Not concurrent: the queue deleted under the cursor must be the newest, whose ID the store would give again.
describe('a cursor whose queue was deleted', () => {
  test('R-C2 R-Q1 it answers QUEUE_DELETED from then on, and never reads a queue created after', async () => {
    const { q, svc } = file;
    const gone = await queueOf('c-gone', 'went with its queue');
    const { cursor } = await api<{ cursor: string }>('cursorOpen', { path: gone });
    ok(await svc.qk('queue', 'delete', gone));
    const later = await queueOf('c-later', 'not for that cursor');
    await expect(api('cursorReceive', { cursor })).rejects.toMatchObject({ code: 'QUEUE_DELETED' });
    await expect(api('cursorPeek', { cursor, action: 'next' })).rejects.toMatchObject({ code: 'QUEUE_DELETED' });
    expect((await q.messages(later)).map((m) => m.label)).toEqual(['not for that cursor']);
  });
});
