/**
 * Delivery semantics: duplicate removal on the arrival path (R-U1–R-U4, seed 003). `qk arrive` hands a
 * message "from another computer" to the arrival path. Its own service: the tests change the cache
 * settings and restart.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ok } from '../helpers/qk-expect.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';

const file = serviceForFile();

interface Arrival {
  accepted: boolean;
  reason: string | null;
}

/** A remote computer: its GUID and name, and message IDs it would mint. */
function remoteComputer(): { guid: string; name: string; id: (n: number) => string } {
  const guid = randomUUID();
  return { guid, name: `REMOTE-${guid.slice(0, 6).toUpperCase()}`, id: (n) => `{${guid}}\\${n}` };
}

async function arrive(
  path: string,
  id: string,
  source: { guid: string; name: string },
  ...flags: string[]
): Promise<Arrival> {
  return ok(
    await file.svc.qk<Arrival>(
      'arrive',
      path,
      '--id',
      id,
      '--source-id',
      source.guid,
      '--source-name',
      source.name,
      ...flags,
    ),
  );
}

describe('duplicate removal', () => {
  test('R-U2 a second arrival of the same (source computer, message ID) nontransactional message is dropped and counted', async () => {
    const { q } = file;
    const dest = await q.newQueue('u2');
    const remote = remoteComputer();
    const before = (await q.status()).duplicateCache;
    const first = await arrive(dest, remote.id(1), remote, '--label', 'original', '--body', 'once');
    expect(first).toMatchObject({ accepted: true });
    const again = await arrive(dest, remote.id(1), remote, '--label', 'duplicate', '--body', 'twice');
    expect(again.accepted).toBe(false);
    expect(again.reason ?? '').not.toBe('');
    const messages = await q.messages(dest);
    expect(messages.map((m) => [m.id.toLowerCase(), m.label])).toEqual([[remote.id(1).toLowerCase(), 'original']]);
    expect(messages[0]).toMatchObject({ sourceMachine: remote.name });
    expect(messages[0]?.sourceMachineId.replace(/[{}]/g, '').toLowerCase()).toBe(remote.guid);
    const after = (await q.status()).duplicateCache;
    expect(after.duplicatesRemoved).toBe(before.duplicatesRemoved + 1);
    expect(after.entries).toBe(before.entries + 1);
    expect(after.capacity).toBe(10_000);
  });

  test('R-U2 the cache records an ID only once the message is stored: an arrival a full queue refused is taken when retried', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('u2retry', '--quota', '0');
    const remote = remoteComputer();
    const refused = await arrive(dest, remote.id(1), remote, '--label', 'first try');
    expect(refused.accepted).toBe(false);
    ok(await svc.qk('queue', 'set', dest, '--quota', 'unlimited'));
    expect(await arrive(dest, remote.id(1), remote, '--label', 'retry')).toMatchObject({ accepted: true });
    expect((await arrive(dest, remote.id(1), remote, '--label', 'duplicate')).accepted).toBe(false);
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['retry']);
  });

  test('R-U2 the key is source computer + message ID: the same ID from another computer, or another ID, is not a duplicate', async () => {
    const { q } = file;
    const dest = await q.newQueue('u2key');
    const a = remoteComputer();
    const b = remoteComputer();
    const sameId = a.id(7);
    expect((await arrive(dest, sameId, a)).accepted).toBe(true);
    expect((await arrive(dest, sameId, b)).accepted).toBe(true); // a different sending QM
    expect((await arrive(dest, a.id(8), a)).accepted).toBe(true);
    expect((await q.show(dest)).messageCount).toBe(3);
  });

  test('R-U1 duplicate removal covers express and recoverable messages but never transactional ones', async () => {
    const { q } = file;
    const [plain, tx] = await Promise.all([q.newQueue('u1'), q.newQueue('u1-tx', '--transactional')]);
    const remote = remoteComputer();
    expect((await arrive(plain, remote.id(1), remote, '--recoverable')).accepted).toBe(true);
    expect((await arrive(plain, remote.id(1), remote, '--recoverable')).accepted).toBe(false);
    expect((await arrive(plain, remote.id(2), remote, '--express')).accepted).toBe(true);
    expect((await arrive(plain, remote.id(2), remote, '--express')).accepted).toBe(false);
    const before = (await q.status()).duplicateCache.duplicatesRemoved;
    expect((await arrive(tx, remote.id(3), remote, '--transactional')).accepted).toBe(true);
    expect((await arrive(tx, remote.id(3), remote, '--transactional')).accepted).toBe(true);
    expect((await q.show(plain)).messageCount).toBe(2);
    expect((await q.show(tx)).messageCount).toBe(2);
    expect((await q.status()).duplicateCache.duplicatesRemoved).toBe(before);
  });

  test('R-U4 (seed 003) the duplicate cache is empty after a restart: the same message is accepted again', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('u4');
    const remote = remoteComputer();
    expect((await arrive(dest, remote.id(1), remote, '--recoverable')).accepted).toBe(true);
    expect((await q.status()).duplicateCache.entries).toBeGreaterThan(0);
    await svc.restart();
    const status = await q.status();
    expect(status.duplicateCache.entries).toBe(0);
    expect((await arrive(dest, remote.id(1), remote, '--recoverable')).accepted).toBe(true);
    expect((await q.show(dest)).messageCount).toBe(2);
  });

  test('R-U3 when more than RemoveDuplicateSize messages arrive between an original and its duplicate, the duplicate is accepted', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('u3size');
    expect(await q.setSetting('RemoveDuplicateSize', 3)).toMatchObject({ value: 10_000, pending: 3 });
    await svc.restart();
    expect((await q.status()).duplicateCache.capacity).toBe(3);
    const remote = remoteComputer();
    expect((await arrive(dest, remote.id(1), remote)).accepted).toBe(true);
    expect((await arrive(dest, remote.id(1), remote)).accepted).toBe(false); // still cached
    for (let n = 2; n <= 5; n++) expect((await arrive(dest, remote.id(n), remote)).accepted).toBe(true);
    expect((await q.status()).duplicateCache.entries).toBeLessThanOrEqual(3);
    expect((await arrive(dest, remote.id(1), remote)).accepted).toBe(true); // pushed out of the cache
    expect((await arrive(dest, remote.id(5), remote)).accepted).toBe(false); // the newest is still there
  });

  test('R-U3 RemoveDuplicateSize 0 disables duplicate removal, after a restart', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('u3off');
    const remote = remoteComputer();
    expect(await q.setSetting('RemoveDuplicateSize', 0)).toMatchObject({ pending: 0 });
    // Pending: the running cache still removes duplicates. (Recoverable, so the messages outlive the restart.)
    expect((await arrive(dest, remote.id(1), remote, '--recoverable')).accepted).toBe(true);
    expect((await arrive(dest, remote.id(1), remote, '--recoverable')).accepted).toBe(false);
    await svc.restart();
    expect((await arrive(dest, remote.id(2), remote, '--recoverable')).accepted).toBe(true);
    expect((await arrive(dest, remote.id(2), remote, '--recoverable')).accepted).toBe(true);
    const status = await q.status();
    expect(status.duplicateCache).toMatchObject({ capacity: 0, entries: 0 });
    expect((await q.show(dest)).messageCount).toBe(3);
  });

  test('R-U3 entries older than RemoveDuplicateCleanup leave the cache at the next cleanup pass', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('u3age');
    // 3 s: an entry stays at least 3 s and is gone by the pass after it turned 3 s old (at most 6 s).
    expect(await q.setSetting('RemoveDuplicateCleanup', 3_000)).toMatchObject({ pending: 3_000 });
    await q.setSetting('RemoveDuplicateSize', 100);
    await svc.restart();
    expect((await q.status()).duplicateCache.capacity).toBe(100);
    const remote = remoteComputer();
    // Two arrivals at once, so the duplicate surely comes while the entry is young: one is dropped.
    const pair = await Promise.all([arrive(dest, remote.id(1), remote), arrive(dest, remote.id(1), remote)]);
    const cached = Date.now();
    expect(pair.map((r) => r.accepted).sort()).toEqual([false, true]);
    await delay(Math.max(0, cached + 6_500 - Date.now()));
    expect((await arrive(dest, remote.id(1), remote)).accepted).toBe(true);
  });
});
