/**
 * Quotas count what is stored (R-Q2, R-Q4, §4.3): a fixed 124-byte header, the body and the strings (label,
 * queue names, conversation) in UTF-16, as MaxMessageSize does; `bytes` in every listing follows.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ok, waitFor } from '../helpers/qk-expect.js';
import type { QkMessage, QkQueue, QkStatus } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();
const HEADER = 124;

/** What a message takes, from what qk shows of it: header, body, and its strings in UTF-16. */
function storedSizeOf(m: QkMessage): number {
  const strings = [m.label, m.destinationQueue, m.adminQueue, m.responseQueue, m.conversation, m.deadLetterQueue];
  return HEADER + m.bodySize + 2 * strings.reduce((sum, text) => sum + (text?.length ?? 0), 0);
}

describe.concurrent('what a message takes', () => {
  test('R-Q2 label-only messages fill a 1 KB queue; the one that does not fit is refused with NACK 0x8003', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('lbl', '--quota', '1'), q.newQueue('lbl-adm')]);
    const label = 'a label and nothing else';
    const each = HEADER + 2 * (label.length + dest.length + adm.length);
    const fit = Math.floor(1_024 / each);
    for (let i = 0; i < fit + 2; i++)
      ok(await svc.qk('send', dest, '--label', label, '--ack', 'nack-reach-queue', '--admin-queue', adm));
    const queue = await q.show(dest);
    expect(queue).toMatchObject({ messageCount: fit, bytes: fit * each });
    const listed = ok(await svc.qk<QkQueue[]>('queue', 'list')).find(
      (x) => x.path.toLowerCase() === dest.toLowerCase(),
    );
    expect(listed?.bytes).toBe(fit * each);
    await waitFor(async () => (await q.messages(adm)).length === 2, 'two NACKs');
    expect((await q.messages(adm)).map((n) => n.class)).toEqual(['NACK_Q_EXCEED_QUOTA', 'NACK_Q_EXCEED_QUOTA']);
  });

  test('R-A2 positive acknowledgments have empty bodies yet fill an administration queue with a quota', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('ack'), q.newQueue('ack-adm', '--quota', '1')]);
    for (let i = 0; i < 10; i++) await q.send(dest, '--ack', 'pos-arrival', '--admin-queue', adm);
    const admin = await q.show(adm);
    expect(admin.messageCount).toBeGreaterThan(0);
    expect(admin.messageCount).toBeLessThan(10);
    expect(admin.bytes).toBeLessThanOrEqual(1_024);
    expect((await q.messages(adm)).every((m) => m.bodySize === 0 && m.class === 'ACK_REACH_QUEUE')).toBe(true);
  });

  test('R-Q2 a message handed over by another computer (qk arrive) takes its stored size: label-only arrivals fill a 1 KB queue', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('arr', '--quota', '1');
    const source = randomUUID();
    const results: { accepted: boolean }[] = [];
    for (let i = 1; i <= 8; i++) {
      const args = ['--id', `{${source}}\\${i}`, '--source-id', source, '--source-name', 'BETA'];
      results.push(ok(await svc.qk<{ accepted: boolean }>('arrive', dest, ...args, '--label', 'x'.repeat(40))));
    }
    const stored = await q.messages(dest);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThan(8);
    expect(results.filter((r) => r.accepted)).toHaveLength(stored.length);
    const total = stored.reduce((sum, m) => sum + storedSizeOf(m), 0);
    expect(total).toBeLessThanOrEqual(1_024);
    expect(total + storedSizeOf(stored[0] as QkMessage)).toBeGreaterThan(1_024);
    expect((await q.show(dest)).bytes).toBe(total);
  });

  test('bytes of a queue counts header, body and strings; bodySize the body alone', async () => {
    const { q } = file;
    const dest = await q.newQueue('bytes');
    await q.send(dest, '--body', 'hello', '--label', 'L');
    expect((await q.show(dest)).bytes).toBe(HEADER + 5 + 2 * (1 + dest.length));
    expect((await q.peek(dest)).bodySize).toBe(5);
  });
});

// After the tests above (suites run one after the other): nothing changes while the totals are compared.
describe('the computer', () => {
  test("bytes in qk service status is every listed queue's bytes plus its journal's", async () => {
    const { q } = file;
    const dest = await q.newQueue('total', '--journal');
    await q.send(dest, '--label', 'kept in the journal', '--body', 'journaled');
    await q.receive(dest);
    const [list, status] = [await q.list(), ok(await file.svc.qk<QkStatus>('service', 'status'))];
    const journalOwners = new Set(['private', 'public']);
    const listed = list.reduce((sum, x) => sum + x.bytes + (journalOwners.has(x.type) ? x.journalBytes : 0), 0);
    expect(status.bytes).toBe(listed);
    expect(status.journalBytes).toBeGreaterThanOrEqual((await q.show(dest)).journalBytes);
    expect((await q.show(dest)).journalBytes).toBe(
      storedSizeOf((await q.messages(`${dest}\\JOURNAL$`))[0] as QkMessage),
    );
  });
});
