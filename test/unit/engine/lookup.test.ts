import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\walk';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
});
afterEach(async () => {
  await h.dispose();
});

/** Sends in this order: a(3) b(3) high(7) c(3) → queue order: high, a, b, c. */
async function fill(): Promise<Record<string, number>> {
  for (const [label, priority] of [
    ['a', 3],
    ['b', 3],
    ['high', 7],
    ['c', 3],
  ] as const)
    await h.qm.send(Q, { label, priority });
  return Object.fromEntries(h.qm.browse({ path: Q }).messages.map((m) => [m.label, m.lookupId]));
}

const peekLabel = async (
  lookupId: number | undefined,
  lookupAction: 'current' | 'next' | 'previous' | 'first' | 'last',
) => (await h.qm.peek({ path: Q, lookupId, lookupAction })).label;

describe('R-L2 lookup-ID actions walk the queue in queue order (R-O1)', () => {
  test('first, last, next and previous follow priority, then arrival', async () => {
    const ids = await fill();
    expect(await peekLabel(undefined, 'first')).toBe('high');
    expect(await peekLabel(undefined, 'last')).toBe('c');
    expect(await peekLabel(ids['high'], 'next')).toBe('a');
    expect(await peekLabel(ids['a'], 'next')).toBe('b');
    expect(await peekLabel(ids['c'], 'previous')).toBe('b');
    expect(await peekLabel(ids['a'], 'previous')).toBe('high');
    expect(await peekLabel(ids['b'], 'current')).toBe('b');
  });

  test('next past the last, previous before the first and a missing ID are MESSAGE_NOT_FOUND', async () => {
    const ids = await fill();
    await expect(h.qm.peek({ path: Q, lookupId: ids['c'], lookupAction: 'next' })).rejects.toMatchObject({
      code: 'MESSAGE_NOT_FOUND',
    });
    await expect(h.qm.peek({ path: Q, lookupId: ids['high'], lookupAction: 'previous' })).rejects.toMatchObject({
      code: 'MESSAGE_NOT_FOUND',
    });
    await expect(h.qm.peek({ path: Q, lookupId: 999_999, lookupAction: 'next' })).rejects.toMatchObject({
      code: 'MESSAGE_NOT_FOUND',
    });
  });

  test('receive by action removes that message; a walk goes on from a removed one only by its neighbours', async () => {
    const ids = await fill();
    expect((await h.qm.receive({ path: Q, lookupId: ids['a'], lookupAction: 'next' })).label).toBe('b');
    expect((await h.qm.receive({ path: Q, lookupAction: 'last' })).label).toBe('c');
    expect(h.qm.browse({ path: Q }).messages.map((m) => m.label)).toEqual(['high', 'a']);
  });

  test('a message held by an open transaction is skipped by the walk', async () => {
    h.qm.createQueue({ path: '.\\private$\\walk-tx', transactional: true });
    const TX = '.\\private$\\walk-tx';
    for (const label of ['x', 'y', 'z']) await h.qm.send(TX, { label }, { transactional: true });
    const tx = h.qm.beginTransaction();
    const held = await h.qm.receive({ path: TX, transaction: tx });
    expect(held.label).toBe('x');
    expect((await h.qm.peek({ path: TX, lookupAction: 'first' })).label).toBe('y');
    h.qm.abortTransaction(tx);
    expect((await h.qm.peek({ path: TX, lookupAction: 'first' })).label).toBe('x');
  });

  test('an action other than first or last needs a lookup ID', async () => {
    await fill();
    await expect(h.qm.peek({ path: Q, lookupAction: 'next' })).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
  });
});
