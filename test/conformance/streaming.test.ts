/**
 * The streaming receive (issue 11) keeps every rule of a plain receive: `qk receive PATH --follow` against a
 * real service, checked with the same rules as the plain receive's tests — receive order, journaling,
 * acknowledgments, time-to-be-received, transactional receives.
 */
import { describe, expect, test } from 'vitest';
import { QkClient } from '@qk/client';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM, journalOf } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';

const file = serviceForFile();

/** `qk receive PATH --follow --count N`: the messages it printed, one JSON line each. */
async function follow(path: string, count: number, ...flags: string[]): Promise<QkMessage[]> {
  const result = await file.svc.qk('receive', path, '--follow', '--count', String(count), ...flags);
  ok(result);
  return printed(result.stdout);
}

function printed(stdout: string): QkMessage[] {
  return stdout
    .trimEnd()
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as QkMessage);
}

describe.concurrent('qk receive --follow keeps the rules of receive', () => {
  test('R-O1 higher priority first (7 before 0), FIFO within one priority', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-order');
    for (const [label, priority] of [
      ['p0-a', 0],
      ['p7-a', 7],
      ['p3-a', 3],
      ['p7-b', 7],
      ['p0-b', 0],
    ] as const)
      await q.send(dest, '--label', label, '--priority', String(priority));
    const got = await follow(dest, 5);
    expect(got.map((m) => m.label)).toEqual(['p7-a', 'p7-b', 'p3-a', 'p0-a', 'p0-b']);
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('R-O1 messages sent while the stream waits arrive in order, and --count takes no more than it prints', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-live');
    const streaming = follow(dest, 3);
    await delay(500);
    for (let i = 0; i < 5; i++) await q.send(dest, '--label', `m${i}`);
    expect((await streaming).map((m) => m.label)).toEqual(['m0', 'm1', 'm2']);
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['m3', 'm4']);
  });

  test('R-T1 R-J2 a streamed message is journaled as a received one: queue journal, computer journal', async () => {
    const { q } = file;
    const withJournal = await q.newQueue('s-t1', '--journal');
    const plain = await q.newQueue('s-j2');
    const a = await q.send(withJournal, '--label', 'a');
    const b = await q.send(plain, '--journal', 'journal', '--label', 'b');
    await follow(withJournal, 1);
    await follow(plain, 1);
    expect((await q.messages(journalOf(withJournal))).map((m) => m.id)).toEqual([a]);
    expect(await q.copiesOf(SYSTEM.journal, b)).toHaveLength(1);
  });

  test('R-A3 POS_RECEIVE yields ACK_RECEIVE (0x4000) when the stream takes the message', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-a3');
    const adm = await q.newQueue('s-a3-admin');
    const id = await q.send(dest, '--ack', 'pos-receive', '--admin-queue', adm);
    expect(await q.acksFor(adm, id)).toHaveLength(0);
    await follow(dest, 1);
    const acks = await waitFor(async () => {
      const found = await q.acksFor(adm, id);
      return found.length > 0 && found;
    }, 'the receive acknowledgment');
    expect(acks.map((m) => m.classCode)).toEqual([0x4000]);
  });

  test('R-X7 a message whose TTBR ran out is never streamed: it is dead-lettered with 0xC002 and the stream gets the next one', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-x7');
    const expiring = await q.send(dest, '--ttbr', '1', '--journal', 'deadletter', '--label', 'old');
    await delay(2_000);
    await q.send(dest, '--label', 'fresh');
    const got = await follow(dest, 1);
    expect(got.map((m) => m.label)).toEqual(['fresh']);
    const dead = await waitFor(async () => {
      const found = await q.copiesOf(SYSTEM.deadLetter, expiring);
      return found.length > 0 && found;
    }, 'the dead letter');
    expect(dead[0]?.classCode).toBe(0xc002);
  });

  test('R-M4 a transactional stream needs a transactional queue: TRANSACTION_USAGE, nothing taken', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-m4');
    await q.send(dest, '--label', 'stays');
    failsWith(await file.svc.qk('receive', dest, '--follow', '--count', '1', '--transactional'), 'TRANSACTION_USAGE');
    expect((await q.show(dest)).messageCount).toBe(1);
  });

  test('R-D5 a transactional stream commits what it printed; the rest stays, not dead-lettered', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-tx', '--transactional');
    for (let i = 0; i < 3; i++) await q.send(dest, '--transactional', '--label', `t${i}`);
    const got = await follow(dest, 2, '--transactional');
    expect(got.map((m) => m.label)).toEqual(['t0', 't1']);
    expect((await q.messages(dest)).map((m) => m.label)).toEqual(['t2']);
    expect((await q.messages(SYSTEM.xactDeadLetter)).filter((m) => m.label.startsWith('t'))).toHaveLength(0);
  });
});

describe.concurrent('qk receive --follow --timeout S: a stream that ends once its queue stays empty', () => {
  test('R-O1 --timeout 0 prints what is there in receive order, takes it all, and exits 0', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-drain');
    for (const [label, priority] of [
      ['d0', 0],
      ['d7', 7],
      ['d3', 3],
    ] as const)
      await q.send(dest, '--label', label, '--priority', String(priority));
    const run = await file.svc.qk('receive', dest, '--follow', '--timeout', '0');
    expect(run.exitCode, run.stderr).toBe(0);
    expect(printed(run.stdout).map((m) => m.label)).toEqual(['d7', 'd3', 'd0']);
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('an empty queue: nothing printed, IO_TIMEOUT and exit 3, as a receive that got nothing', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-empty');
    const run = await file.svc.qk('receive', dest, '--follow', '--timeout', '0.2');
    expect(run.exitCode, run.stderr).toBe(3);
    expect(run.stdout.trim()).toBe('');
    expect(run.json).toMatchObject({ error: { code: 'IO_TIMEOUT' } });
  });

  test('--count N with fewer than N sent: prints those, then exits 3 once none came within the timeout', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-short');
    for (let i = 0; i < 2; i++) await q.send(dest, '--label', `s${i}`);
    const run = await file.svc.qk('receive', dest, '--follow', '--count', '3', '--timeout', '0.3');
    expect(run.exitCode, run.stderr).toBe(3);
    expect(printed(run.stdout).map((m) => m.label)).toEqual(['s0', 's1']);
    expect(run.json).toMatchObject({ error: { code: 'IO_TIMEOUT' } });
  });

  test('a message sent while the stream waits, within the timeout, is printed and the command ends well (exit 0)', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-idle');
    const streaming = file.svc.qk('receive', dest, '--follow', '--timeout', '3');
    await delay(1_000);
    await q.send(dest, '--label', 'in time');
    const run = await streaming;
    expect(run.exitCode, run.stderr).toBe(0);
    expect(printed(run.stdout).map((m) => m.label)).toEqual(['in time']);
  });

  test('R-D5 a transactional stream with --timeout 0 commits everything it printed before it ends: nothing put back or dead-lettered', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-tx-drain', '--transactional');
    for (let i = 0; i < 3; i++) await q.send(dest, '--transactional', '--label', `x${i}`);
    const run = await file.svc.qk('receive', dest, '--follow', '--transactional', '--timeout', '0');
    expect(run.exitCode, run.stderr).toBe(0);
    expect(printed(run.stdout).map((m) => m.label)).toEqual(['x0', 'x1', 'x2']);
    expect((await q.show(dest)).messageCount).toBe(0);
    expect((await q.messages(SYSTEM.xactDeadLetter)).filter((m) => m.label.startsWith('x'))).toHaveLength(0);
  });

  test('a negative --timeout is a wrong command line (exit 2, INVALID_PARAMETER), nothing taken', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-negative');
    await q.send(dest, '--label', 'stays');
    const run = await file.svc.qk('receive', dest, '--follow', '--timeout', '-1');
    expect(run.exitCode).toBe(2);
    expect(run.json).toMatchObject({ error: { code: 'INVALID_PARAMETER' } });
    expect((await q.show(dest)).messageCount).toBe(1);
  });
});

describe.concurrent('the client library: consume and messages() with timeoutMs', () => {
  test('R-O1 consume({timeoutMs: 0}) hands over what is ready in receive order and ends by itself; timedOut says why', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-lib-consume');
    for (const [label, priority] of [
      ['c1', 1],
      ['c6', 6],
    ] as const)
      await q.send(dest, '--label', label, '--priority', String(priority));
    const client = await QkClient.fromDataDir(file.svc.dataDir, { transport: 'ws' });
    try {
      const labels: string[] = [];
      const consumer = client.consume(dest, { timeoutMs: 0 }, (m) => void labels.push(m.label));
      await consumer.done;
      expect(labels).toEqual(['c6', 'c1']);
      expect(consumer.timedOut).toBe(true);
      expect(consumer.handled).toBe(2);
      // Closed by its owner instead, a consumer did not time out.
      const open = client.consume(dest, {}, () => undefined);
      await open.close();
      expect(open.timedOut).toBe(false);
    } finally {
      await client.close();
    }
    expect((await q.show(dest)).messageCount).toBe(0);
  });

  test('R-D5 a for-await loop over messages(path, {transactional, timeoutMs}) ends once the queue stays empty, every message committed', async () => {
    const { q } = file;
    const dest = await q.newQueue('s-lib-loop', '--transactional');
    for (let i = 0; i < 3; i++) await q.send(dest, '--transactional', '--label', `l${i}`);
    const client = await QkClient.fromDataDir(file.svc.dataDir, { transport: 'ws' });
    const labels: string[] = [];
    try {
      for await (const m of client.messages(dest, { transactional: true, timeoutMs: 200 })) labels.push(m.label);
    } finally {
      await client.close();
    }
    expect(labels).toEqual(['l0', 'l1', 'l2']);
    expect((await q.show(dest)).messageCount).toBe(0);
    expect((await q.messages(SYSTEM.xactDeadLetter)).filter((m) => m.label.startsWith('l'))).toHaveLength(0);
  });
});
