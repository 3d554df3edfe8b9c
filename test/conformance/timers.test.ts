/**
 * Delivery semantics: message timers (R-X*), seed 004. A message for an unreachable computer waits in an
 * outgoing queue, which is where time-to-reach-queue runs out on a single computer.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM, uniqueName } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';

const file = serviceForFile();

async function copyIn(path: string, id: string, timeoutMs = 6_000): Promise<QkMessage> {
  return waitFor(async () => (await file.q.copiesOf(path, id))[0], `${id} in ${path}`, timeoutMs);
}

async function ackFor(adminQueue: string, id: string, timeoutMs = 6_000): Promise<QkMessage> {
  return waitFor(async () => (await file.q.acksFor(adminQueue, id))[0], `an ack for ${id} in ${adminQueue}`, timeoutMs);
}

/**
 * Milliseconds from sending to dead-lettering, by the service's own clock: the dead-letter copy's
 * arrivedTime is when it entered the dead-letter queue (R-T6). Immune to how slowly `qk` polls.
 */
function lifetimeMs(copy: QkMessage): number {
  return Date.parse(copy.arrivedTime) - Date.parse(copy.sentTime);
}

/** A queue on a computer that does not exist: the message waits in an outgoing queue. */
function unreachable(prefix: string): string {
  return `NOSUCHHOST\\private$\\${uniqueName(prefix)}`;
}

describe.concurrent('time to be received', () => {
  test('R-X7 TTBR expiry in the destination queue: removed, DL copy class 0xC002, NACK 0xC002 with nack-receive', async () => {
    const { q } = file;
    const [dest, adm] = await Promise.all([q.newQueue('x7'), q.newQueue('x7-adm')]);
    const [expiring, later] = await Promise.all([
      q.send(
        dest,
        '--ttbr',
        '1',
        '--journal',
        'deadletter',
        '--ack',
        'nack-receive',
        '--admin-queue',
        adm,
        '--label',
        'x7',
        '--body',
        'gone',
      ),
      q.send(dest, '--ttbr', '60', '--label', 'later'),
    ]);
    const copy = await copyIn(SYSTEM.deadLetter, expiring);
    const nack = await ackFor(adm, expiring);
    expect(copy).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT', classCode: 0xc002, label: 'x7' });
    expect(nack).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT', classCode: 0xc002, body: 'gone' });
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([later]);
    // On time, within a timer tick or so: not before 1 s, not long after.
    expect(lifetimeMs(copy)).toBeGreaterThanOrEqual(750);
    expect(lifetimeMs(copy)).toBeLessThan(2_500);
  });

  test('R-X7 a message whose TTBR runs out while it waits in the outgoing queue is dead-lettered as 0xC003 (at sender)', async () => {
    const { q } = file;
    const adm = await q.newQueue('x7s-adm');
    const id = await q.send(
      unreachable('x7s'),
      '--ttbr',
      '1',
      '--ttrq',
      '30',
      '--journal',
      'deadletter',
      '--ack',
      'nack-receive',
      '--admin-queue',
      adm,
    );
    const copy = await copyIn(SYSTEM.deadLetter, id);
    const nack = await ackFor(adm, id);
    expect(copy).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT_AT_SENDER', classCode: 0xc003 });
    expect(lifetimeMs(copy)).toBeLessThan(2_500); // TTBR 1 s wins over TTRQ 30 s (R-X3)
    expect(nack).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT_AT_SENDER', classCode: 0xc003 });
  });

  test('§1.1 time-to-be-received reads as what remains: it goes down while the message waits', async () => {
    const { q } = file;
    const dest = await q.newQueue('remaining');
    await q.send(dest, '--ttbr', '30', '--label', 'counting down');
    const first = await q.peek(dest);
    expect(first.timeToBeReceived).toBeLessThanOrEqual(30);
    await delay(2_200);
    const later = await q.peek(dest);
    expect(later.timeToBeReceived).toBeLessThanOrEqual((first.timeToBeReceived ?? 0) - 2);
    const received = await q.receive(dest);
    expect(received.timeToBeReceived).toBeLessThanOrEqual(later.timeToBeReceived ?? 0);
    expect(received.timeToBeReceived).toBeGreaterThan(0);
  });

  test('R-X2 a message handed over by another computer counts what remained of its TTBR from its arrival here', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('x2');
    const source = randomUUID();
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    const id = `{${source}}\\1`;
    ok(
      await svc.qk(
        'arrive',
        dest,
        '--id',
        id,
        '--source-id',
        source,
        '--source-name',
        'BETA',
        '--sent-time',
        longAgo,
        '--ttbr',
        '8',
        '--journal',
        'deadletter',
      ),
    );
    const [m] = await q.messages(dest);
    expect(m).toMatchObject({ sentTime: longAgo });
    expect(m?.timeToBeReceived).toBeGreaterThan(0);
    const copy = await waitFor(async () => (await q.copiesOf(SYSTEM.deadLetter, id))[0], 'the expiry', 25_000);
    expect(copy.class).toBe('NACK_RECEIVE_TIMEOUT');
    expect(Date.parse(copy.arrivedTime) - Date.parse(m?.arrivedTime ?? '')).toBeGreaterThanOrEqual(7_900);
  });

  test('R-X3 when TTBR is smaller than TTRQ, TTBR wins: the message is gone after TTBR', async () => {
    const { q } = file;
    const dest = await q.newQueue('x3');
    const id = await q.send(dest, '--ttbr', '1', '--ttrq', '60', '--journal', 'deadletter');
    const copy = await copyIn(SYSTEM.deadLetter, id);
    expect(copy.classCode).toBe(0xc002);
    expect(lifetimeMs(copy)).toBeLessThan(2_500);
    expect(await q.messages(dest)).toHaveLength(0);
  });

  test('R-X5 TTRQ 0 to a local queue: the message always arrives', async () => {
    const { q } = file;
    const dest = await q.newQueue('x5');
    const id = await q.send(dest, '--ttrq', '0', '--label', 'instant');
    await delay(500);
    expect((await q.receive(dest, '--timeout', '1')).id).toBe(id);
  });
});

describe.concurrent('time to reach queue', () => {
  test('R-X6 TTRQ expiry in the outgoing queue: discarded, DL copy class 0x8002 in .\\DEADLETTER$, NACK 0x8002 with NEG_ARRIVAL', async () => {
    const { q } = file;
    const adm = await q.newQueue('x6-adm');
    const target = unreachable('x6');
    const [withDl, withoutDl] = await Promise.all([
      q.send(
        target,
        '--ttrq',
        '1',
        '--journal',
        'deadletter',
        '--ack',
        'nack-reach-queue',
        '--admin-queue',
        adm,
        '--label',
        'x6',
        '--body',
        'lost',
      ),
      q.send(target, '--ttrq', '1', '--label', 'x6-no-dl'),
    ]);
    const copy = await copyIn(SYSTEM.deadLetter, withDl);
    const nack = await ackFor(adm, withDl);
    expect(copy).toMatchObject({ class: 'NACK_REACH_QUEUE_TIMEOUT', classCode: 0x8002, label: 'x6' });
    expect(lifetimeMs(copy)).toBeGreaterThanOrEqual(750);
    expect(lifetimeMs(copy)).toBeLessThan(2_500);
    expect(nack).toMatchObject({ class: 'NACK_REACH_QUEUE_TIMEOUT', classCode: 0x8002, body: 'lost' });
    await delay(300);
    expect(await q.copiesOf(SYSTEM.deadLetter, withoutDl)).toHaveLength(0);
    // Neither message waits in an outgoing queue any more.
    const outgoing = (await q.list()).filter((queue) => queue.type === 'outgoing' && /NOSUCHHOST/i.test(queue.path));
    for (const queue of outgoing) {
      const ids = (await q.messages(queue.path)).map((m) => m.id);
      expect(ids).not.toContain(withDl);
      expect(ids).not.toContain(withoutDl);
    }
  });

  test('§3.1 a message for an unreachable computer waits in an outgoing queue (type "outgoing") until its TTRQ runs out', async () => {
    const { q } = file;
    const id = await q.send(unreachable('outq'), '--ttrq', '30', '--label', 'waiting');
    const outgoing = (await q.list()).filter((queue) => queue.type === 'outgoing' && /NOSUCHHOST/i.test(queue.path));
    expect(outgoing.length, 'an outgoing queue for NOSUCHHOST').toBeGreaterThan(0);
    const waiting = (await Promise.all(outgoing.map((queue) => q.messages(queue.path)))).flat();
    expect(waiting.map((m) => m.id)).toContain(id);
  });
});

describe('timers across a stop', () => {
  test('R-X7 an expiry that passed while the service was stopped is processed at start-up', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('xstop'), q.newQueue('xstop-adm')]);
    const kept = await q.send(dest, '--recoverable', '--label', 'kept');
    const id = await q.send(
      dest,
      '--recoverable',
      '--ttbr',
      '6',
      '--journal',
      'deadletter',
      '--ack',
      'nack-receive',
      '--admin-queue',
      adm,
      '--label',
      'stopped',
    );
    const sentAt = Date.now();
    await svc.stop();
    await delay(Math.max(0, sentAt + 7_000 - Date.now()));
    const startedAt = Date.now();
    await svc.start();
    // Processed at start-up: within a timer tick or two of the service being ready — and not before the stop.
    const copy = await copyIn(SYSTEM.deadLetter, id, 1_500);
    const nack = await ackFor(adm, id, 1_500);
    expect(copy.classCode).toBe(0xc002);
    expect(nack.classCode).toBe(0xc002);
    expect(Date.parse(copy.arrivedTime), 'dead-lettered by the new start').toBeGreaterThanOrEqual(startedAt - 250);
    expect((await q.messages(dest)).map((m) => m.id)).toEqual([kept]);
  });
});
