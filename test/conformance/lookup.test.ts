/**
 * Lookup-ID actions (R-L1, R-L2, MQReceiveMessageByLookupId): `qk peek|receive --lookup-id N --action
 * first|last|next|previous|current` walk a queue in queue order (R-O1); nothing there exits 3.
 */
import { describe, expect, test } from 'vitest';
import { ok } from '../helpers/qk-expect.js';
import { callApi } from '../helpers/http-api.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();

/**
 * A queue holding a(3) b(3) top(7) c(3), sent in that order in one batch through the API (setup only):
 * queue order top, a, b, c. Returns the lookup IDs by label.
 */
async function walkable(prefix: string): Promise<{ path: string; ids: Record<string, string> }> {
  const { q, svc } = file;
  const path = await q.newQueue(prefix);
  const messages = (
    [
      ['a', 3],
      ['b', 3],
      ['top', 7],
      ['c', 3],
    ] as const
  ).map(([label, priority]) => ({ path, message: { label, priority } }));
  await callApi(svc.dataDir, 'sendBatch', { messages });
  const ids = Object.fromEntries((await q.messages(path)).map((m) => [m.label, String(m.lookupId)]));
  return { path, ids };
}

describe.concurrent('lookup-ID actions', () => {
  test('R-L1 lookup IDs strictly increase in queue order: a later message of higher priority comes first with a smaller ID', async () => {
    const { q, svc } = file;
    const path = await q.newQueue('l1');
    // One send at a time, so each arrives after the one before.
    for (const [label, priority] of [
      ['low', '1'],
      ['normal-1', '3'],
      ['urgent', '7'],
      ['normal-2', '3'],
      ['lowest', '0'],
    ] as const)
      ok(await svc.qk('send', path, '--label', label, '--priority', priority));
    const listed = await q.messages(path);
    expect(listed.map((m) => m.label)).toEqual(['urgent', 'normal-1', 'normal-2', 'low', 'lowest']);
    const ids = listed.map((m) => m.lookupId);
    for (let i = 1; i < ids.length; i++)
      expect(ids[i], `after ${listed[i - 1]?.label}`).toBeGreaterThan(ids[i - 1] ?? 0);
    // next from each ID walks the queue in that order.
    const next = ok(await svc.qk<QkMessage>('peek', path, '--lookup-id', String(ids[0]), '--action', 'next'));
    expect(next.label).toBe('normal-1');
    // A message of a higher priority sent now still lands ahead of the lower ones, below their IDs.
    ok(await svc.qk('send', path, '--label', 'urgent-2', '--priority', '6'));
    const after = await q.messages(path);
    expect(after.map((m) => m.label)).toEqual(['urgent', 'urgent-2', 'normal-1', 'normal-2', 'low', 'lowest']);
    const afterIds = after.map((m) => m.lookupId);
    expect([...afterIds].sort((a, b) => a - b)).toEqual(afterIds);
    expect(new Set(afterIds).size).toBe(afterIds.length);
  });

  test('R-L2 peek --action first|last and next|previous relative to --lookup-id follow queue order', async () => {
    const { svc } = file;
    const { path, ids } = await walkable('l2');
    const peek = async (...flags: string[]): Promise<string> =>
      ok(await svc.qk<QkMessage>('peek', path, ...flags)).label;
    expect(await peek('--action', 'first')).toBe('top');
    expect(await peek('--action', 'last')).toBe('c');
    expect(await peek('--lookup-id', ids['top'] as string, '--action', 'next')).toBe('a');
    expect(await peek('--lookup-id', ids['a'] as string, '--action', 'next')).toBe('b');
    expect(await peek('--lookup-id', ids['c'] as string, '--action', 'previous')).toBe('b');
    expect(await peek('--lookup-id', ids['b'] as string)).toBe('b'); // --action defaults to current
    expect((await file.q.messages(path)).length).toBe(4);
  });

  test('R-L2 nothing there (next past the last, previous before the first, an unknown ID) exits 3 with MESSAGE_NOT_FOUND', async () => {
    const { svc } = file;
    const { path, ids } = await walkable('l2-none');
    for (const flags of [
      ['--lookup-id', ids['c'] as string, '--action', 'next'],
      ['--lookup-id', ids['top'] as string, '--action', 'previous'],
      ['--lookup-id', '999999999'],
    ]) {
      const result = await svc.qk('peek', path, ...flags);
      expect(result.exitCode, flags.join(' ')).toBe(3);
      expect(result.json).toMatchObject({ error: { code: 'MESSAGE_NOT_FOUND' } });
    }
  });

  test('R-L2 receive --lookup-id N --action next removes that message and no other', async () => {
    const { q, svc } = file;
    const { path, ids } = await walkable('l2-recv');
    const got = ok(await svc.qk<QkMessage>('receive', path, '--lookup-id', ids['a'] as string, '--action', 'next'));
    expect(got.label).toBe('b');
    expect((await q.messages(path)).map((m) => m.label)).toEqual(['top', 'a', 'c']);
    const last = ok(await svc.qk<QkMessage>('receive', path, '--action', 'last'));
    expect(last.label).toBe('c');
  });

  test('R-L2 first and last ignore --lookup-id (0 included); on an empty queue they find nothing (exit 3)', async () => {
    const { q, svc } = file;
    const { path } = await walkable('l2-ends');
    const label = async (...flags: string[]): Promise<string> =>
      ok(await svc.qk<QkMessage>('peek', path, ...flags)).label;
    expect(await label('--lookup-id', '999999999', '--action', 'first')).toBe('top');
    expect(await label('--lookup-id', '1', '--action', 'last')).toBe('c');
    // MSMQ's own call passes 0 with FIRST and LAST.
    expect(await label('--lookup-id', '0', '--action', 'first')).toBe('top');
    expect(await label('--lookup-id', '0', '--action', 'last')).toBe('c');
    const empty = await q.newQueue('l2-empty');
    for (const action of ['first', 'last']) {
      const result = await svc.qk('receive', empty, '--action', action);
      expect(result.exitCode, action).toBe(3);
      expect(result.json).toMatchObject({ error: { code: 'MESSAGE_NOT_FOUND' } });
    }
  });

  test('--action needs a word qk knows, and next/previous/current need --lookup-id (exit 2)', async () => {
    const { svc } = file;
    const { path } = await walkable('l2-usage');
    expect((await svc.qk('peek', path, '--action', 'sideways')).exitCode).toBe(2);
    expect((await svc.qk('peek', path, '--action', 'next')).exitCode).toBe(2);
  });
});
