import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass } from '@qk/model';
import { openHarness, settle, type Harness } from './helpers.js';

let h: Harness;
const Q = '.\\private$\\timed';
const ADMIN = '.\\private$\\admin';
const DLQ = '.\\DEADLETTER$';
const BETA = '11111111-2222-3333-4444-555555555555';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: Q });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

describe('§1.1 time-to-be-received reads as what remains', () => {
  test('peek, browse and receive return the remaining seconds; a dead-letter copy carries the original', async () => {
    await h.qm.send(Q, { body: 'r', timeToBeReceived: 60, journal: 1 });
    expect((await h.qm.peek({ path: Q })).timeToBeReceived).toBe(60);
    h.clock.advance(20_500);
    expect(h.qm.browse({ path: Q }).messages[0]?.timeToBeReceived).toBe(40);
    h.clock.advance(10_000);
    expect((await h.qm.receive({ path: Q })).timeToBeReceived).toBe(30);
    await h.qm.send(Q, { body: 'late', timeToBeReceived: 2, journal: 1 });
    h.clock.advance(2_100);
    expect(h.qm.browse({ path: DLQ }).messages[0]).toMatchObject({ classCode: 0xc002, timeToBeReceived: 2 });
  });

  test('unlimited stays null', async () => {
    await h.qm.send(Q, { body: 'u' });
    h.clock.advance(5_000);
    expect((await h.qm.receive({ path: Q })).timeToBeReceived).toBeNull();
  });
});

describe('R-X2 a message handed over by another computer counts its remaining timers from its arrival here', () => {
  test('the remaining TTBR runs from arrival, whatever the sender clock said', async () => {
    const sentLongAgo = new Date(h.clock.now() - 3_600_000).toISOString();
    const result = await h.qm.arrive(Q, {
      id: `{${BETA}}\\1`,
      sourceMachineId: BETA,
      sourceMachine: 'BETA',
      sentTime: sentLongAgo,
      body: 'r',
      timeToBeReceived: 10,
      timeToReachQueue: 5,
      journal: 1,
    });
    expect(result).toEqual({ accepted: true, reason: null });
    const [m] = h.qm.browse({ path: Q }).messages;
    expect(m).toMatchObject({ sentTime: sentLongAgo, timeToBeReceived: 10 });
    h.clock.advance(9_000);
    expect(h.qm.showQueue(Q).messageCount).toBe(1);
    h.clock.advance(1_200);
    expect(h.qm.showQueue(Q).messageCount).toBe(0);
    expect(h.qm.browse({ path: DLQ }).messages.map((d) => d.classCode)).toEqual([MessageClass.NACK_RECEIVE_TIMEOUT]);
  });

  test('R-X5 a message that arrives with no time-to-reach-queue left still arrives', async () => {
    const result = await h.qm.arrive(Q, {
      id: `{${BETA}}\\2`,
      sourceMachineId: BETA,
      sourceMachine: 'BETA',
      body: 'just in time',
      timeToReachQueue: 0,
    });
    expect(result.accepted).toBe(true);
  });
});

describe('resend restarts the timers (a new send from the administrator)', () => {
  test('a dead letter of an expired TTBR comes back with its full TTBR and does not expire at once', async () => {
    const id = await h.qm.send(Q, {
      body: 'again',
      label: 'L',
      timeToBeReceived: 2,
      journal: 1,
      acknowledge: 0x0c,
      adminQueue: ADMIN,
      appSpecific: 9,
    });
    h.clock.advance(2_200);
    expect(h.qm.showQueue(DLQ).messageCount).toBe(1);
    h.clock.advance(60_000);
    const result = await h.qm.resendDeadLetters(DLQ);
    expect(result).toEqual({ resent: 1, failed: [] });
    const [back] = h.qm.browse({ path: Q, includeBody: true }).messages;
    expect(back).toMatchObject({
      id,
      class: 'NORMAL',
      label: 'L',
      body: 'again',
      appSpecific: 9,
      acknowledge: 0x0c,
      timeToBeReceived: 2,
    });
    expect(Date.parse(back?.sentTime ?? '')).toBe(h.clock.now());
    h.clock.advance(1_500);
    expect(h.qm.showQueue(Q).messageCount).toBe(1);
    // One NACK for the first expiry; a second only when the new timer runs out.
    expect(h.qm.classCounts(ADMIN)).toEqual([{ class: 'NACK_RECEIVE_TIMEOUT', classCode: 0xc002, count: 1 }]);
    h.clock.advance(1_000);
    expect(h.qm.classCounts(ADMIN)[0]?.count).toBe(2);
  });

  test('a dead letter whose destination refuses it stays in the dead-letter queue and is reported', async () => {
    h.qm.setQueue({ path: Q, quotaKB: 0 });
    await h.qm.send(Q, { body: 'no room', journal: 1 });
    const [dead] = h.qm.browse({ path: DLQ }).messages;
    const result = await h.qm.resendDeadLetters(DLQ, [dead?.lookupId ?? 0, 999_999]);
    expect(result.resent).toBe(0);
    expect(result.failed.map((f) => [f.lookupId, f.error.code])).toEqual([
      [dead?.lookupId, 'QUOTA_EXCEEDED'],
      [999_999, 'MESSAGE_NOT_FOUND'],
    ]);
    expect(h.qm.showQueue(DLQ).messageCount).toBe(1);
  });

  test('only dead-letter queues resend', async () => {
    await expect(h.qm.resendDeadLetters('.\\JOURNAL$')).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
  });
});

describe('R-X4 the messages of one transaction take the first message’s timers', () => {
  const TXQ = '.\\private$\\timed-tx';

  test('later sends keep their own properties but take the first one’s TTRQ and TTBR, and expire with it', async () => {
    h.qm.createQueue({ path: TXQ, transactional: true });
    const tx = h.qm.beginTransaction();
    await h.qm.send(TXQ, { label: 'first', timeToBeReceived: 5, timeToReachQueue: 30 }, { transaction: tx });
    await h.qm.send(TXQ, { label: 'unlimited' }, { transaction: tx });
    await h.qm.send(TXQ, { label: 'longer', timeToBeReceived: 600, timeToReachQueue: 900 }, { transaction: tx });
    await h.qm.commitTransaction(tx);
    const sent = h.qm.browse({ path: TXQ }).messages;
    expect(sent.map((m) => [m.label, m.timeToBeReceived, m.timeToReachQueue])).toEqual([
      ['first', 5, 30],
      ['unlimited', 5, 30],
      ['longer', 5, 30],
    ]);
    h.clock.advance(4_900);
    await settle();
    expect(h.qm.showQueue(TXQ).messageCount).toBe(3);
    h.clock.advance(200);
    await settle();
    expect(h.qm.showQueue(TXQ).messageCount).toBe(0);
  });

  test('a single-message transaction keeps the message’s own timers', async () => {
    h.qm.createQueue({ path: TXQ, transactional: true });
    await h.qm.send(TXQ, { body: 'own', timeToBeReceived: 600 }, { transactional: true });
    expect(h.qm.browse({ path: TXQ }).messages[0]?.timeToBeReceived).toBe(600);
  });
});
