/**
 * The console's daily tools through `qk` (issue 12): copy keeps the original and sends a new message
 * through the target's arrival rules, leaving nothing when refused; search finds messages in every queue by any browse filter, the
 * correlation ID, application-specific value and source computer included; `service restart --dry-run`
 * states what a restart would lose (R-V1: express messages are kept in memory only) and restarts nothing.
 */
import { describe, expect, test } from 'vitest';
import { failsWith, ok } from '../helpers/qk-expect.js';
import { SYSTEM } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();

interface Search {
  total: number;
  matches: Array<{ path: string; message: QkMessage }>;
  queues: Array<{ path: string; count: number }>;
}

interface Impact {
  expressMessages: number;
  queues: Array<{ path: string; messages: number }>;
  duplicateCacheEntries: number;
  pendingSettings: string[];
}

describe.concurrent('copy', () => {
  test('qk message copy keeps the original and sends a new message with the same properties and body', async () => {
    const { q, svc } = file;
    const [from, to] = await Promise.all([q.newQueue('copy-from'), q.newQueue('copy-to')]);
    const id = await q.send(
      from,
      '--label',
      'invoice 7',
      '--body',
      'total: 12',
      '--priority',
      '5',
      '--app-specific',
      '7',
    );
    const [original] = await q.messages(from);
    const copy = ok(
      await svc.qk<{ copied: number; ids: string[] }>('message', 'copy', from, String(original?.lookupId), to),
    );
    expect(copy.copied).toBe(1);
    expect(copy.ids[0]).not.toBe(id);
    expect((await q.messages(from)).map((m) => m.id)).toEqual([id]);
    const [copied] = await q.messages(to);
    expect(copied).toMatchObject({ id: copy.ids[0], label: 'invoice 7', priority: 5, appSpecific: 7, classCode: 0 });
    expect(ok(await svc.qk<QkMessage>('message', 'show', to, String(copied?.lookupId))).body).toBe('total: 12');
  });

  test('R-M1 a copy into a transactional queue is sent in a transaction; R-Q2 a full queue refuses it and keeps nothing, no dead letter', async () => {
    const { q, svc } = file;
    const [from, xact, small] = await Promise.all([
      q.newQueue('copy-src'),
      q.newQueue('copy-xact', '--transactional'),
      q.newQueue('copy-small', '--quota', '1'),
    ]);
    await q.send(from, '--body', 'x'.repeat(2_000), '--journal', 'deadletter');
    const [m] = await q.messages(from);
    ok(await svc.qk('message', 'copy', from, String(m?.lookupId), xact));
    expect((await q.messages(xact))[0]?.transactional).toBe(true);
    const deadBefore = (await q.messages(SYSTEM.deadLetter)).length;
    failsWith(await svc.qk('message', 'copy', from, String(m?.lookupId), small), 'QUOTA_EXCEEDED');
    expect(await q.messages(small)).toEqual([]);
    expect(await q.messages(SYSTEM.deadLetter)).toHaveLength(deadBefore);
    expect(await q.messages(from)).toHaveLength(1);
  });
});

describe.concurrent('search across every queue', () => {
  test('qk search finds messages in every queue by label, correlation ID, app-specific value and source computer', async () => {
    const { q, svc } = file;
    const [a, b] = await Promise.all([q.newQueue('search-a'), q.newQueue('search-b')]);
    const tag = `needle-${Date.now()}`;
    const first = await q.send(a, '--label', `${tag} 1`, '--app-specific', '4242');
    await q.send(b, '--label', `${tag} 2`, '--correlation-id', first);
    await q.send(b, '--label', 'hay');
    const byLabel = ok(await svc.qk<Search>('search', '--label', tag));
    expect(byLabel.total).toBe(2);
    expect(byLabel.queues.map((x) => x.path).sort()).toEqual([a, b].sort());
    const byCorrelation = ok(await svc.qk<Search>('search', '--correlation-id', first));
    expect(byCorrelation.matches.map((x) => [x.path, x.message.label])).toEqual([[b, `${tag} 2`]]);
    const byAppSpecific = ok(await svc.qk<Search>('search', '--app-specific', '4242', '--label', tag));
    expect(byAppSpecific.matches.map((x) => x.message.id)).toEqual([first]);
    const status = ok(await svc.qk<{ name: string }>('service', 'status'));
    const bySource = ok(await svc.qk<Search>('search', '--source-computer', status.name, '--label', tag));
    expect(bySource.total).toBe(2);
    const none = ok(await svc.qk<Search>('search', '--source-computer', 'NO-SUCH-COMPUTER', '--label', tag));
    expect(none.total).toBe(0);
  });

  test('qk search with a limit returns that many and still counts every match; no criterion is a usage error', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('search-limit');
    const tag = `many-${Date.now()}`;
    for (let i = 0; i < 5; i += 1) await q.send(dest, '--label', tag);
    const found = ok(await svc.qk<Search>('search', '--label', tag, '--limit', '2'));
    expect(found.matches).toHaveLength(2);
    expect(found.total).toBe(5);
    expect((await svc.qk('search')).exitCode).toBe(2);
  });
});

describe('what a restart would lose', () => {
  test('R-V1 qk service restart --dry-run counts the express messages per queue and restarts nothing', async () => {
    const { q, svc } = file;
    const [fast, safe] = await Promise.all([q.newQueue('dry-express'), q.newQueue('dry-recoverable')]);
    await Promise.all([q.send(fast), q.send(fast), q.send(fast), q.send(safe, '--recoverable')]);
    const before = ok(await svc.qk<{ uptimeSeconds: number; startedTime: string }>('service', 'status'));
    const impact = ok(await svc.qk<Impact>('service', 'restart', '--dry-run'));
    expect(impact.queues.find((x) => x.path === fast)?.messages).toBe(3);
    expect(impact.queues.some((x) => x.path === safe)).toBe(false);
    expect(impact.expressMessages).toBe(impact.queues.reduce((n, x) => n + x.messages, 0));
    // R-T1: the journal copy of a received express message is express too, and a restart loses it as well.
    const journaled = await q.newQueue('dry-journal', '--journal');
    await q.send(journaled, '--label', 'to the journal');
    await q.send(journaled, '--label', 'stays');
    await q.receive(journaled);
    const withJournal = ok(await svc.qk<Impact>('service', 'restart', '--dry-run'));
    expect(withJournal.queues.find((x) => x.path === journaled)?.messages).toBe(1);
    expect(withJournal.queues.find((x) => x.path === `${journaled}\\JOURNAL$`)?.messages).toBe(1);
    // Search reads the journals too.
    const inJournal = ok(await svc.qk<Search>('search', '--label', 'to the journal'));
    expect(inJournal.queues.map((x) => x.path)).toContain(`${journaled}\\JOURNAL$`);
    // Nothing restarted: the express messages are still there.
    expect(await q.messages(fast)).toHaveLength(3);
    const after = ok(await svc.qk<{ startedTime: string }>('service', 'status'));
    expect(after.startedTime).toBe(before.startedTime);
    expect(SYSTEM.deadLetter).toBe('.\\DEADLETTER$');
  });
});
