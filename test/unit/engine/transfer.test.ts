import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ExportedMessage } from '@qk/model';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\source';
const COPY = '.\\private$\\copy';
const TX = '.\\private$\\tx';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q, retention: true });
  h.qm.createQueue({ path: COPY });
  h.qm.createQueue({ path: TX, transactional: true });
});
afterEach(async () => {
  await h.dispose();
});

/** Every page of a queue. */
function exportAll(path: string, limit: number): ExportedMessage[] {
  const all: ExportedMessage[] = [];
  let after: string | undefined;
  for (;;) {
    const page = h.qm.exportMessages(path, after, limit);
    all.push(...page.messages);
    if (page.next === null) return all;
    after = page.next;
  }
}

const withoutLookup = ({ lookupId: _l, ...rest }: ExportedMessage): Omit<ExportedMessage, 'lookupId'> => rest;

describe('export and import, losslessly', () => {
  test('every property and binary bodies survive the round trip; pages walk ready then retained messages', async () => {
    const binary = randomBytes(3_000);
    await h.qm.send(Q, { bodyBase64: binary.toString('base64'), label: 'bin', priority: 5, timeToBeReceived: 3_600 });
    await h.qm.send(Q, {
      body: 'text ✓',
      label: 'props',
      acknowledge: 0x0e,
      adminQueue: COPY,
      responseQueue: COPY,
      journal: 3,
      appSpecific: 77,
      correlationId: `{${h.qm.id}}\\5`,
      conversation: 'conv-1',
      delivery: 'recoverable',
    });
    for (let i = 0; i < 5; i++) await h.qm.send(Q, { label: `n${i}` });
    await h.qm.receive({ path: Q, lookupAction: 'last' }); // retained (status 0)
    const exported = exportAll(Q, 2);
    expect(exported).toHaveLength(7);
    expect(exported.map((m) => m.status)).toEqual([1, 1, 1, 1, 1, 1, 0]);
    expect(Buffer.from(exported[0]?.bodyBase64 ?? '', 'base64').equals(binary)).toBe(true);
    h.clock.advance(5_000);
    expect(await h.qm.importMessages(COPY, exported)).toBe(7);
    const again = exportAll(COPY, 1_000);
    expect(again.map(withoutLookup)).toEqual(exported.map(withoutLookup));
    expect(new Set(again.map((m) => m.lookupId)).size).toBe(7);
    expect(again.some((m) => exported.some((e) => e.lookupId === m.lookupId))).toBe(false);
  });

  test('an imported message expires when the exported one would have (its timer base is kept)', async () => {
    await h.qm.send(Q, { body: 'short', timeToBeReceived: 10 });
    const exported = exportAll(Q, 10);
    h.clock.advance(6_000);
    await h.qm.importMessages(COPY, exported);
    expect((await h.qm.peek({ path: COPY })).timeToBeReceived).toBe(4);
    h.clock.advance(4_500);
    expect(h.qm.showQueue(COPY).messageCount).toBe(0);
  });

  test('a batch that cannot be stored whole is refused whole: wrong transactional type, no room, bad values', async () => {
    await h.qm.send(Q, { body: 'plain' });
    const [plain] = exportAll(Q, 10);
    if (!plain) throw new Error('nothing exported');
    await expect(h.qm.importMessages(TX, [plain])).rejects.toMatchObject({ code: 'TRANSACTION_USAGE' });
    h.qm.setQueue({ path: COPY, quotaKB: 0 });
    await expect(h.qm.importMessages(COPY, [plain])).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    h.qm.setQueue({ path: COPY, quotaKB: null });
    await expect(h.qm.importMessages(COPY, [plain, { ...plain, priority: 9 }])).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      message: expect.stringContaining('Message 2'),
    });
    await expect(h.qm.importMessages(COPY, [{ ...plain, id: 'not an id' }])).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
    });
    expect(h.qm.showQueue(COPY).messageCount).toBe(0);
  });

  test('a dead-letter queue exported and imported back keeps its classes (a backup of dead letters)', async () => {
    await h.qm.send(COPY, { body: 'dl', timeToBeReceived: 1, journal: 1 });
    h.clock.advance(1_500);
    const dead = exportAll('.\\DEADLETTER$', 10);
    await h.qm.purgeQueue('.\\DEADLETTER$');
    await h.qm.importMessages('.\\DEADLETTER$', dead);
    expect(h.qm.browse({ path: '.\\DEADLETTER$' }).messages.map((m) => m.classCode)).toEqual([0xc002]);
  });
});

describe('import into a subqueue (R-S1)', () => {
  const RESTORE = `${COPY};restore`;
  const subqueuePaths = (): string[] => h.qm.listQueues().flatMap((q) => (q.type === 'subqueue' ? [q.path] : []));

  test('a subqueue the import opens keeps what it stored: recoverable and express, listed, and after a restart', async () => {
    await h.qm.send(COPY, { label: 'kept', delivery: 'recoverable' });
    await h.qm.send(COPY, { label: 'fast' });
    const exported = exportAll(COPY, 100);
    await h.qm.purgeQueue(COPY);
    expect(await h.qm.importMessages(RESTORE, exported)).toBe(2);
    // A turn later the call is over: the subqueue stays, since it holds what was imported.
    await new Promise((resolve) => setImmediate(resolve));
    expect(subqueuePaths()).toEqual([RESTORE]);
    expect(h.qm.browse({ path: RESTORE }).messages.map((m) => m.label)).toEqual(['kept', 'fast']);
    expect(h.qm.showQueue(RESTORE).messageCount).toBe(2);
    await h.reopen();
    expect(h.qm.browse({ path: RESTORE }).messages.map((m) => m.label)).toEqual(['kept']);
  });

  test('a refused import into a new subqueue leaves no subqueue behind', async () => {
    await h.qm.send(TX, { label: 'tx' }, { transactional: true });
    const exported = exportAll(TX, 100);
    await expect(h.qm.importMessages(RESTORE, exported)).rejects.toMatchObject({ code: 'TRANSACTION_USAGE' });
    h.qm.setQueue({ path: COPY, quotaKB: 0 });
    const plain = exported.map((m) => ({ ...m, transactional: false }));
    await expect(h.qm.importMessages(RESTORE, plain)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(subqueuePaths()).toEqual([]);
  });
});
