import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MESSAGE_HEADER_BYTES, MessageClass } from '@qk/model';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\sized';
const ADMIN = '.\\private$\\sized-admin';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

/** What a message takes stored: header, body, and its strings in UTF-16. */
const expected = (body: number, ...strings: string[]): number =>
  MESSAGE_HEADER_BYTES + body + 2 * strings.reduce((n, s) => n + s.length, 0);

describe('quotas count what is stored (R-Q2, §4.3)', () => {
  test('a label-only message takes the header and its label; bytes follows in every listing', async () => {
    await h.qm.send(Q, { label: 'only a label' });
    const size = expected(0, 'only a label', Q);
    expect(h.qm.showQueue(Q).bytes).toBe(size);
    expect(h.qm.listQueues().find((q) => q.path === Q)?.bytes).toBe(size);
    expect(h.qm.status().bytes).toBe(size);
    expect(h.qm.browse({ path: Q }).messages[0]?.bodySize).toBe(0);
  });

  test('label-only messages fill a 1 KB queue: the arrival that does not fit is refused with 0x8003', async () => {
    h.qm.setQueue({ path: Q, quotaKB: 1 });
    const each = expected(0, 'label-only', Q, ADMIN);
    const fit = Math.floor(1024 / each);
    for (let i = 0; i < fit + 3; i++)
      await h.qm.send(Q, { label: 'label-only', journal: 1, acknowledge: 0x04, adminQueue: ADMIN });
    expect(h.qm.showQueue(Q).messageCount).toBe(fit);
    expect(h.qm.showQueue(Q).bytes).toBe(fit * each);
    expect(h.qm.classCounts(ADMIN)).toEqual([{ class: 'NACK_Q_EXCEED_QUOTA', classCode: 0x8003, count: 3 }]);
  });

  test('positive acknowledgments (empty bodies) count against the administration queue quota', async () => {
    h.qm.setQueue({ path: ADMIN, quotaKB: 1 });
    for (let i = 0; i < 12; i++) await h.qm.send(Q, { body: 'b', acknowledge: 0x01, adminQueue: ADMIN });
    const admin = h.qm.showQueue(ADMIN);
    expect(admin.messageCount).toBeGreaterThan(0);
    expect(admin.messageCount).toBeLessThan(12);
    expect(admin.bytes).toBeLessThanOrEqual(1024);
    expect(h.qm.browse({ path: ADMIN }).messages.every((m) => m.classCode === MessageClass.ACK_REACH_QUEUE)).toBe(true);
  });

  test('MaxMessageSize counts the same size: header + body + strings', async () => {
    h.qm.setSetting('MaxMessageSize', 2_048);
    await h.reopen();
    const room = 2_048 - expected(0, '', Q);
    await expect(h.qm.send(Q, { body: 'x'.repeat(room) })).resolves.toBeTruthy();
    await expect(h.qm.send(Q, { body: 'x'.repeat(room + 1) })).rejects.toMatchObject({
      code: 'INSUFFICIENT_RESOURCES',
    });
    expect(h.qm.showQueue(Q).bytes).toBe(2_048);
  });
});
