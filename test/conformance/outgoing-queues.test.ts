/**
 * Outgoing queues seen from this computer (issue 7, item 8; CLI.md "Many computers"): an application's
 * receive or peek of another computer's queue is refused, because it would read this computer's outgoing
 * queue, which only an administrator may do (R-P1); browsing, showing and purging it stay possible as audited
 * administrator operations.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';
import type { QkMessagePage, QkQueue } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();

interface AuditLine {
  op: string;
  target?: string;
  ok: boolean;
  code?: string;
}

function auditLines(dataDir: string): AuditLine[] {
  try {
    return readFileSync(join(dataDir, 'audit.log'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as AuditLine);
  } catch {
    return [];
  }
}

describe('outgoing queues', () => {
  test('R-P1 reading an outgoing queue is an admin action: receive and peek of a remote path are ACCESS_DENIED naming --service, and take nothing', async () => {
    const { q, svc } = file;
    const computer = uniqueName('OTHERPC')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '');
    const remote = `${computer}\\private$\\orders`;
    const id = await q.send(remote, '--body', 'for the other computer', '--recoverable');

    for (const args of [
      ['receive', remote],
      ['peek', remote],
      ['receive', remote, '--timeout', '1'],
      ['receive', `DIRECT=OS:${computer}\\private$\\orders`],
      ['peek', `DIRECT=OS:${computer.toLowerCase()}\\private$\\ORDERS`],
    ]) {
      const error = failsWith(await svc.qk(...args), 'ACCESS_DENIED');
      expect(error.message).toContain('--service');
      expect(error.message.toUpperCase()).toContain(computer);
    }

    const page = ok(await svc.qk<QkMessagePage>('messages', remote));
    expect(page.messages.map((m) => m.id)).toEqual([id]);
    const shown = ok(await svc.qk<QkQueue>('queue', 'show', remote));
    expect(shown).toMatchObject({ type: 'outgoing', messageCount: 1 });
  });

  test('R-P1 qk messages, qk queue show and qk queue purge of a remote path act on the outgoing queue and are audited, as refused reads are', async () => {
    const { q, svc } = file;
    const computer = uniqueName('AUDITPC')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '');
    const remote = `${computer}\\private$\\orders`;
    await q.send(remote, '--body', 'one');
    await q.send(remote, '--body', 'two');
    expect((await q.page(remote)).total).toBe(2);
    expect((await q.show(remote)).messageCount).toBe(2);
    failsWith(await svc.qk('receive', remote), 'ACCESS_DENIED');
    expect(await q.purge(remote)).toBe(2);
    expect((await q.page(remote)).total).toBe(0);

    const mine = await waitFor(async () => {
      const lines = auditLines(svc.dataDir).filter((line) => line.target === remote);
      return lines.length >= 5 ? lines : undefined;
    }, `audit.log lines for ${remote}`);
    expect(mine.map((line) => [line.op, line.ok, line.code ?? null])).toEqual([
      ['browse', true, null],
      ['queueShow', true, null],
      ['receive', false, 'ACCESS_DENIED'],
      ['queuePurge', true, null],
      ['browse', true, null],
    ]);
  });

  test('R-P1 reads of local queues are not audited (only admin actions and outgoing-queue reads are)', async () => {
    const { q, svc } = file;
    const local = await q.newQueue('plain');
    await q.send(local, '--body', 'x');
    await q.page(local);
    await q.receive(local);
    await q.purge(local);
    const lines = await waitFor(async () => {
      const found = auditLines(svc.dataDir).filter((line) => line.target === local);
      return found.some((line) => line.op === 'queuePurge') ? found : undefined;
    }, `the purge of ${local} in audit.log`);
    expect(lines.map((line) => line.op)).toEqual(['queueCreate', 'queuePurge']);
  });
});
