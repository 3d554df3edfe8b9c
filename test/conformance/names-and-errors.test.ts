/**
 * Foundation: queue names (§3.2, §3.3), the system queues every computer has, and the send-time
 * validation errors (R-V0a, R-V0b) — each refused with MSMQ's error name and nothing changed.
 */
import { describe, expect, test } from 'vitest';
import { failsWith, ok } from '../helpers/qk-expect.js';
import { SYSTEM, journalOf, sameQueue, uniqueName } from '../helpers/qk-ops.js';
import type { QkMessagePage, QkQueue } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { writeTempFile } from '../helpers/temp-files.js';

const file = serviceForFile();

function bareGuid(text: string): string {
  return text.replace(/[{}]/g, '').toLowerCase();
}

describe.concurrent('system queues', () => {
  test('§3.1 the computer journal and both dead-letter queues exist from the first start, listed with type "system"', async () => {
    const queues = await file.q.list();
    for (const path of [SYSTEM.journal, SYSTEM.deadLetter, SYSTEM.xactDeadLetter]) {
      const found = queues.find((queue) => sameQueue(queue.path, path));
      expect(found, `${path} in queue list: ${queues.map((x) => x.path).join(', ')}`).toBeDefined();
      expect(found?.type).toBe('system');
    }
  });

  test('§3.1 sending to a system queue or a journal fails with ACCESS_DENIED and changes nothing', async () => {
    const { q, svc } = file;
    const app = await q.newQueue('app', '--journal');
    const targets = [
      SYSTEM.journal,
      SYSTEM.deadLetter,
      SYSTEM.xactDeadLetter,
      `MACHINE=${bareGuid(svc.id)};DEADLETTER`,
      `MACHINE=${bareGuid(svc.id)};DEADXACT`,
      `MACHINE=${bareGuid(svc.id)};JOURNAL`,
      journalOf(app),
    ];
    const countsBefore = await Promise.all(
      targets.map(async (t) => ok(await svc.qk<QkMessagePage>('messages', t)).total),
    );
    const results = await Promise.all(
      targets.map((t) => svc.qk('send', t, '--label', 'not allowed', '--journal', 'deadletter')),
    );
    results.forEach((r) => failsWith(r, 'ACCESS_DENIED'));
    const countsAfter = await Promise.all(
      targets.map(async (t) => ok(await svc.qk<QkMessagePage>('messages', t)).total),
    );
    expect(countsAfter).toEqual(countsBefore);
  });
});

describe.concurrent('names', () => {
  test('§3.3 format names: MACHINE=<guid>;DEADLETTER / ;DEADXACT / ;JOURNAL read the system queues', async () => {
    const { q, svc } = file;
    const guid = bareGuid(svc.id);
    const pairs: [string, string][] = [
      [`MACHINE=${guid};DEADLETTER`, SYSTEM.deadLetter],
      [`MACHINE=${guid};DEADXACT`, SYSTEM.xactDeadLetter],
      [`MACHINE=${guid};JOURNAL`, SYSTEM.journal],
    ];
    for (const [formatName, path] of pairs) {
      const viaFormat = ok(await svc.qk<QkMessagePage>('messages', formatName));
      const viaPath = await q.page(path);
      expect(viaFormat.total, formatName).toBe(viaPath.total);
    }
  });

  test("§3.3 format names: DIRECT=OS:<this computer>\\private$\\q and the queue's own formatName reach the local queue", async () => {
    const { q, svc } = file;
    const name = uniqueName('direct');
    const path = `.\\private$\\${name}`;
    const queue = await q.createQueue(path);
    const direct = `DIRECT=OS:${svc.name}\\private$\\${name}`;
    const a = await q.send(direct, '--label', 'via direct');
    const b = await q.send(queue.formatName, '--label', 'via format name');
    const c = await q.send(`.\\PRIVATE$\\${name.toUpperCase()}`, '--label', 'via other case');
    const messages = await q.messages(path);
    expect(messages.map((m) => m.id)).toEqual([a, b, c]);
    expect((await q.peek(direct)).id).toBe(a);
    expect((await q.receive(`FORMATNAME:${queue.formatName}`)).id).toBe(a);
  });

  test('§3.3 queue create takes a DIRECT= format name (it carries the path); a PRIVATE= name (a number given at creation) is refused', async () => {
    const { q, svc } = file;
    const name = uniqueName('created-direct');
    const created = ok(await svc.qk<QkQueue>('queue', 'create', `DIRECT=OS:${svc.name}\\private$\\${name}`));
    expect(created.path.toLowerCase()).toBe(`.\\private$\\${name}`.toLowerCase());
    const viaDot = ok(await svc.qk<QkQueue>('queue', 'create', `FORMATNAME:DIRECT=OS:.\\private$\\${name}-dot`));
    expect(viaDot.type).toBe('private');
    failsWith(await svc.qk('queue', 'create', `DIRECT=OS:.\\private$\\${name}`), 'QUEUE_EXISTS');
    const numbered = created.formatName.replace(/\\[0-9a-f]+$/i, '\\fffffff0');
    failsWith(await svc.qk('queue', 'create', numbered), 'ILLEGAL_QUEUE_PATHNAME');
    failsWith(
      await svc.qk('queue', 'create', `DIRECT=OS:${svc.name}\\private$\\${name}-j;JOURNAL`),
      'ILLEGAL_QUEUE_PATHNAME',
    );
    expect((await q.page(`.\\private$\\${name}`)).total).toBe(0);
  });

  test('§3.2 names are case-insensitive: creating .\\private$\\ABC when .\\private$\\abc exists is QUEUE_EXISTS', async () => {
    const { q, svc } = file;
    const name = uniqueName('casey');
    await q.createQueue(`.\\private$\\${name.toLowerCase()}`);
    failsWith(await svc.qk('queue', 'create', `.\\private$\\${name.toLowerCase()}`), 'QUEUE_EXISTS');
    failsWith(await svc.qk('queue', 'create', `.\\private$\\${name.toUpperCase()}`), 'QUEUE_EXISTS');
  });

  test('§3.2 bad queue names are refused with ILLEGAL_QUEUE_PATHNAME and nothing is created', async () => {
    const { q, svc } = file;
    const stem = uniqueName('bad');
    const badNames = [
      '.\\private$\\', // empty name
      `.\\private$\\${'n'.repeat(125)}`, // longer than 124
      `.\\private$\\${stem};x`,
      `.\\private$\\${stem}+x`,
      `.\\private$\\${stem},x`,
      `.\\private$\\${stem}"x`,
      `.\\private$\\${stem}\\x`,
      `.\\private$\\${stem}$`, // ends with $
      `.\\${stem}$`,
    ];
    const results = await Promise.all(badNames.map((n) => svc.qk('queue', 'create', n)));
    results.forEach((r) => failsWith(r, 'ILLEGAL_QUEUE_PATHNAME'));
    const created = (await q.list()).filter(
      (queue) => queue.path.toLowerCase().includes(stem.toLowerCase()) || /\\n{125}$/.test(queue.path),
    );
    expect(created.map((queue) => queue.path)).toEqual([]);
  });

  test('§3.2 a 124-character name and a name with $ inside are legal', async () => {
    const { q } = file;
    const long = `${uniqueName('L')}`.padEnd(124, 'x');
    const created = await q.createQueue(`.\\private$\\${long}`);
    expect(created.path.toLowerCase()).toBe(`.\\private$\\${long}`.toLowerCase());
    const dollar = await q.createQueue(`.\\private$\\${uniqueName('a$b')}`);
    expect(dollar.type).toBe('private');
  });

  test('§2.5 an unknown queue is QUEUE_NOT_FOUND for every operation', async () => {
    const { svc } = file;
    const missing = `.\\private$\\${uniqueName('missing')}`;
    const results = await Promise.all([
      svc.qk('send', missing, '--body', 'x'),
      svc.qk('receive', missing, '--timeout', '0'),
      svc.qk('peek', missing, '--timeout', '0'),
      svc.qk('messages', missing),
      svc.qk('queue', 'show', missing),
      svc.qk('queue', 'set', missing, '--label', 'x'),
      svc.qk('queue', 'purge', missing),
      svc.qk('queue', 'delete', missing),
    ]);
    results.forEach((r) => failsWith(r, 'QUEUE_NOT_FOUND'));
  });
});

describe.concurrent('send-time validation', () => {
  test('R-V0a a label of 251 characters is LABEL_TOO_LONG and nothing is stored; 250 is accepted', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('label');
    failsWith(await svc.qk('send', dest, '--label', 'L'.repeat(251)), 'LABEL_TOO_LONG');
    expect((await q.show(dest)).messageCount).toBe(0);
    await q.send(dest, '--label', 'L'.repeat(250));
    expect((await q.peek(dest)).label).toHaveLength(250);
  });

  test('R-V0a a correlation ID that is not 20 bytes is ILLEGAL_PROPERTY_SIZE and nothing is stored', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('corr');
    const results = await Promise.all([
      svc.qk('send', dest, '--correlation-id', 'abc'),
      svc.qk('send', dest, '--correlation-id', 'ab'.repeat(19)), // 19 bytes
      svc.qk('send', dest, '--correlation-id', 'ab'.repeat(21)), // 21 bytes
    ]);
    results.forEach((r) => failsWith(r, 'ILLEGAL_PROPERTY_SIZE'));
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('R-V0b a message over MaxMessageSize (4 MB, body and properties together) is INSUFFICIENT_RESOURCES and nothing is stored', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('big');
    const tooBig = writeTempFile(Buffer.alloc(4 * 1024 * 1024 + 1, 0x61));
    failsWith(await svc.qk('send', dest, '--body-file', tooBig, '--recoverable'), 'INSUFFICIENT_RESOURCES');
    // Decisions table: MaxMessageSize bounds body and properties together, so a 4 MB body with a label is too big.
    const exactly = writeTempFile(Buffer.alloc(4 * 1024 * 1024, 0x61));
    failsWith(await svc.qk('send', dest, '--body-file', exactly, '--label', 'and a label'), 'INSUFFICIENT_RESOURCES');
    const queue: QkQueue = await q.show(dest);
    expect(queue.messageCount).toBe(0);
    expect(queue.bytes).toBe(0);
  });

  test('§1.1 a priority outside 0..7 is refused and nothing is stored', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('prio');
    const result = await svc.qk('send', dest, '--priority', '8');
    expect(result.exitCode, result.stderr).not.toBe(0);
    expect((await q.show(dest)).messageCount).toBe(0);
  });
});
