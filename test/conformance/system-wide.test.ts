/**
 * Rules about computer-wide state — the computer quotas (R-Q4, R-J5, R-D6) and purging the dead-letter
 * queue — in their own file and in order: each changes what every other test on the service would see.
 */
import { describe, expect, test } from 'vitest';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';
import { bodyOfSize } from '../helpers/temp-files.js';

const file = serviceForFile();

async function deadLettered(id: string): Promise<QkMessage> {
  return waitFor(async () => (await file.q.copiesOf(SYSTEM.deadLetter, id))[0], `${id} in ${SYSTEM.deadLetter}`, 6_000);
}

/** Runs `body` with a setting changed, and puts the old value back whatever happens. */
async function withSetting(name: string, value: number, body: () => Promise<void>): Promise<void> {
  const previous = (await file.q.setting(name)).value;
  const changed = await file.q.setSetting(name, value);
  try {
    expect(changed, `${name} takes effect at once`).toMatchObject({ value, pending: null });
    await body();
  } finally {
    await file.q.setSetting(name, previous ?? 'none');
  }
}

describe('computer quotas', () => {
  test('R-Q4 computer quota (MachineQuota) full: a local send fails with INSUFFICIENT_RESOURCES and no ack is sent', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('q4'), q.newQueue('q4-adm')]);
    await q.send(dest, '--recoverable', '--body', bodyOfSize(4_096));
    await withSetting('MachineQuota', 1, async () => {
      failsWith(
        await svc.qk(
          'send',
          dest,
          '--body',
          'x',
          '--ack',
          'full-reach-queue',
          '--admin-queue',
          adm,
          '--journal',
          'deadletter',
        ),
        'INSUFFICIENT_RESOURCES',
      );
      await delay(300);
      const [queue, admin] = await Promise.all([q.show(dest), q.show(adm)]);
      expect(queue.messageCount).toBe(1);
      expect(admin.messageCount).toBe(0);
    });
    await q.send(dest, '--body', 'x');
    expect((await q.show(dest)).messageCount).toBe(2);
  });

  test('R-J5 when the computer-journal quota (MachineJournalQuota) is exceeded the journal copy is discarded without an error', async () => {
    const { q } = file;
    const dest = await q.newQueue('j5');
    const first = await q.send(dest, '--journal', 'journal', '--body', bodyOfSize(2_048));
    await q.receive(dest);
    expect(await q.copiesOf(SYSTEM.journal, first), 'journal copy while under quota').toHaveLength(1);
    await withSetting('MachineJournalQuota', 1, async () => {
      const second = await q.send(dest, '--journal', 'journal', '--body', bodyOfSize(2_048));
      const received = await q.receive(dest); // no error for the receiver either
      expect(received.id).toBe(second);
      const journal = await q.messages(SYSTEM.journal);
      expect(
        journal.filter((m) => m.id === second),
        'journal copy over quota',
      ).toHaveLength(0);
      expect(
        journal.filter((m) => m.id === first),
        'earlier copy untouched',
      ).toHaveLength(1);
    });
  });

  test('R-D6 when the dead-letter storage limit (MachineJournalQuota) is exceeded the dead-letter copy is dropped', async () => {
    const { q } = file;
    const dest = await q.newQueue('d6');
    const first = await q.send(dest, '--ttbr', '1', '--journal', 'deadletter', '--body', bodyOfSize(2_048));
    await deadLettered(first);
    await withSetting('MachineJournalQuota', 1, async () => {
      const second = await q.send(dest, '--ttbr', '1', '--journal', 'deadletter', '--body', bodyOfSize(2_048));
      await waitFor(async () => (await q.show(dest)).messageCount === 0, 'the second message to expire');
      await delay(300);
      expect(await q.copiesOf(SYSTEM.deadLetter, second)).toHaveLength(0);
    });
  });
});

describe('the dead-letter queue is an ordinary queue to read and clean', () => {
  test('seed 001 applications may read, delete from and purge the dead-letter queue', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('dlq-admin');
    const ids = await Promise.all(
      [1, 2].map((i) => q.send(dest, '--ttbr', '1', '--journal', 'deadletter', '--label', `dl${i}`)),
    );
    const copies = await Promise.all(ids.map((id) => deadLettered(id)));
    ok(await svc.qk('message', 'delete', SYSTEM.deadLetter, String(copies[0]?.lookupId)));
    expect(await q.copiesOf(SYSTEM.deadLetter, ids[0] as string)).toHaveLength(0);
    const total = (await q.page(SYSTEM.deadLetter)).total;
    expect(total).toBeGreaterThanOrEqual(1);
    expect(await q.purge(SYSTEM.deadLetter)).toBe(total);
    expect((await q.page(SYSTEM.deadLetter)).total).toBe(0);
  });
});
