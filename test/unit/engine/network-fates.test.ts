/**
 * How a message's failure between computers is told (docs/network.md): one NACK and one dead letter per
 * failure (R-A5, R-A11, R-D1), TTRQ 0 across a link (R-X5, R-X6, R-X2), and the source's wait before it
 * dead-letters a transactional message after a negative final confirmation (R-X8, R-A9, R-D2).
 */
import { describe, expect, test } from 'vitest';
import { MessageClass } from '@qk/model';
import { settle } from './helpers.js';
import { classOf, labEachTest, type Computer } from './network-helpers.js';

const lab = labEachTest();

const ORDERS = 'DIRECT=OS:BETA\\private$\\orders';
const ADMIN = '.\\private$\\admin';
const ADMIN_BACK = 'DIRECT=OS:ALPHA\\private$\\admin';

/** Acknowledgments in ALPHA's administration queue: class and correlation ID. */
const acks = (c: Computer): (string | null)[][] =>
  c.qm.browse({ path: ADMIN, limit: 1000 }).messages.map((m) => [m.class, m.correlationId]);

describe('one NACK per failure', () => {
  test.each([
    ['nack-reach-queue', 4],
    ['full-receive', 14],
  ])(
    'R-A5 R-A11 a next hop that is not a routing server refuses a message (%s): one NACK_BAD_DST_Q, no NACK_PURGED, one dead letter on the sender (R-D1)',
    async (_name, level) => {
      const alpha = lab().open('ALPHA');
      lab().open('BETA'); // not a routing server
      alpha.qm.createQueue({ path: ADMIN });
      const id = await alpha.qm.send('RELAY2\\private$\\x', {
        body: 'x',
        delivery: 'recoverable',
        journal: 1,
        acknowledge: level,
        adminQueue: ADMIN,
      });
      expect(await lab().hop('ALPHA', 'BETA', 'DIRECT=OS:RELAY2\\private$\\x')).toEqual([
        { outcome: 'refused', classCode: MessageClass.NACK_BAD_DST_Q },
      ]);
      expect(acks(alpha)).toEqual([['NACK_BAD_DST_Q', id]]);
      expect(classOf(alpha.qm, '.\\DEADLETTER$')).toEqual(['NACK_BAD_DST_Q']);
      expect(alpha.qm.showQueue('DIRECT=OS:RELAY2\\private$\\x').messageCount).toBe(0);
      expect(classOf(lab().get('BETA').qm, '.\\DEADLETTER$')).toEqual([]);
    },
  );

  test('R-A5 R-D2 a transactional message a routing server fails: its NACK, and one dead letter on the source, nothing of a purge', async () => {
    const alpha = lab().open('ALPHA');
    const relay = lab().open('RELAY', { routing: true });
    alpha.qm.createQueue({ path: ADMIN });
    const id = await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'far', journal: 1, acknowledge: 4, adminQueue: ADMIN },
      { transactional: true },
    );
    const lease = alpha.qm.networkPort.lease(ORDERS, 1, 1 << 20);
    // One hop short of the limit: RELAY fails it (R-H1), stores nothing to forward, and tells the source.
    const message = { ...lease!.messages[0]!, hops: 14 };
    const outcomes = await relay.qm.networkPort.deliver({ name: 'ALPHA', id: alpha.qm.id }, [message], true);
    await alpha.qm.networkPort.settle(lease!, outcomes);
    await settle();
    expect(await lab().control('RELAY', 'ALPHA')).toBe(1);
    await lab().drain('RELAY', 'ALPHA', ADMIN_BACK);
    expect(acks(alpha)).toEqual([['NACK_HOP_COUNT_EXCEEDED', id]]);
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_HOP_COUNT_EXCEEDED']);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
    expect(classOf(relay.qm, '.\\XACTDEADLETTER$')).toEqual([]);
  });
});

describe('R-H1 a transactional message in a routing loop', () => {
  /** Hands the message back and forth until neither computer has anything to send (bounded). */
  async function goRound(between: [string, string]): Promise<number> {
    let hops = 0;
    for (let i = 0; i < 40; i++) {
      const [from, to] = i % 2 === 0 ? between : [between[1], between[0]];
      const outcomes = await lab().hop(from, to, ORDERS);
      if (outcomes) hops += outcomes.length;
      if (!outcomes && i > 0) break;
    }
    return hops;
  }

  test('R-H1 R-D2 two routing servers that route a destination to each other: it ends at 15 hops with one NACK_HOP_COUNT_EXCEEDED and one dead letter on its source; nothing goes round after', async () => {
    // ALPHA, the source, routes BETA through RELAY, and RELAY routes it back through ALPHA.
    const alpha = lab().open('ALPHA', { routing: true });
    const relay = lab().open('RELAY', { routing: true });
    alpha.qm.createQueue({ path: ADMIN });
    const id = await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'round and round', journal: 1, acknowledge: 4, adminQueue: ADMIN },
      { transactional: true },
    );
    expect(await goRound(['ALPHA', 'RELAY'])).toBe(15);
    // RELAY, where the sixteenth hop would begin, fails it and tells the source (R-D2), NACK included.
    await lab().control('RELAY', 'ALPHA');
    await lab().drain('RELAY', 'ALPHA', ADMIN_BACK);
    expect(acks(alpha)).toEqual([['NACK_HOP_COUNT_EXCEEDED', id]]);
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_HOP_COUNT_EXCEEDED']);
    expect(classOf(relay.qm, '.\\XACTDEADLETTER$')).toEqual([]);
    // Nothing is left to go round: not now, not at the next resend.
    lab().clock.advance(31_000);
    await settle();
    for (const c of [alpha, relay]) expect(c.qm.showQueue(ORDERS).messageCount, c.name).toBe(0);
    expect(await goRound(['ALPHA', 'RELAY'])).toBe(0);
    expect(acks(alpha)).toHaveLength(1);
  });

  test('R-H1 a copy that comes back while the call that sent it is still open goes again as soon as that call ends', async () => {
    const alpha = lab().open('ALPHA', { routing: true });
    const relay = lab().open('RELAY', { routing: true });
    await alpha.qm.send('BETA\\private$\\orders', { body: 'quick loop' }, { transactional: true });
    // One round in order: ALPHA now keeps it to send again (on the resend schedule, until it came back).
    expect(await lab().hop('ALPHA', 'RELAY', ORDERS)).toEqual([{ outcome: 'stored' }]);
    expect(await lab().hop('RELAY', 'ALPHA', ORDERS)).toEqual([{ outcome: 'stored' }]);
    const sending = alpha.qm.networkPort.lease(ORDERS, 1, 1 << 20);
    expect(sending?.messages.map((m) => m.hops)).toEqual([2]);
    const from = (c: Computer) => ({ name: c.name, id: c.qm.id });
    const outcomes = await relay.qm.networkPort.deliver(from(alpha), sending!.messages, true);
    // RELAY passes it back before ALPHA has heard RELAY's reply.
    expect(await lab().hop('RELAY', 'ALPHA', ORDERS)).toEqual([{ outcome: 'stored' }]);
    await alpha.qm.networkPort.settle(sending!, outcomes);
    await settle();
    const again = alpha.qm.networkPort.lease(ORDERS, 1, 1 << 20);
    expect(again?.messages.map((m) => m.hops)).toEqual([4]);
    alpha.qm.networkPort.release(again!);
  });

  test('R-H1 when the limit is reached on the source itself, it dead-letters the copy it keeps and sends it no more', async () => {
    const alpha = lab().open('ALPHA', { routing: true });
    const relay = lab().open('RELAY', { routing: true });
    alpha.qm.createQueue({ path: ADMIN });
    const id = await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'far', journal: 1, acknowledge: 4, adminQueue: ADMIN },
      { transactional: true },
    );
    expect(await lab().hop('ALPHA', 'RELAY', ORDERS)).toEqual([{ outcome: 'stored' }]);
    // RELAY's copy comes back to ALPHA one hop short of the limit.
    const lease = relay.qm.networkPort.lease(ORDERS, 1, 1 << 20);
    const back = { ...lease!.messages[0]!, hops: 14 };
    expect(await alpha.qm.networkPort.deliver({ name: 'RELAY', id: relay.qm.id }, [back], true)).toEqual([
      { outcome: 'stored' },
    ]);
    await relay.qm.networkPort.settle(lease!, [{ outcome: 'stored' }]);
    await settle();
    expect(acks(alpha)).toEqual([['NACK_HOP_COUNT_EXCEEDED', id]]);
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_HOP_COUNT_EXCEEDED']);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
    expect(relay.qm.showQueue(ORDERS).messageCount).toBe(0);
  });
});

describe('R-X5 a time-to-reach-queue of 0 between computers', () => {
  test('R-X5 a message sent with TTRQ 0 whose one attempt reaches the destination arrives there: no NACK, no dead letter', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    alpha.qm.createQueue({ path: ADMIN });
    const id = await alpha.qm.send('BETA\\private$\\orders', {
      body: 'now or never',
      delivery: 'recoverable',
      journal: 1,
      acknowledge: 5,
      adminQueue: ADMIN,
      timeToReachQueue: 0,
    });
    expect(await lab().hop('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'stored' }]);
    expect(beta.qm.browse({ path: '.\\private$\\orders' }).messages.map((m) => m.id)).toEqual([id]);
    expect(classOf(beta.qm, '.\\DEADLETTER$')).toEqual([]);
    await lab().drain('BETA', 'ALPHA', ADMIN_BACK);
    expect(acks(alpha)).toEqual([['ACK_REACH_QUEUE', id]]);
    // It has arrived: its time-to-reach-queue is over, and it stays until received (R-X1).
    lab().clock.advance(5_000);
    await settle();
    expect(beta.qm.showQueue('.\\private$\\orders').messageCount).toBe(1);
  });

  test('R-X5 a transactional message sent with TTRQ 0 is accepted on its one attempt', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    await alpha.qm.send('BETA\\private$\\orders', { body: 'tx', timeToReachQueue: 0 }, { transactional: true });
    expect(await lab().hop('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    expect(beta.qm.showQueue('.\\private$\\orders').messageCount).toBe(1);
  });

  test('R-X5 R-X6 a TTRQ-0 message whose one attempt fails (the call was cut) expires on the source at once; it is not sent again', async () => {
    const alpha = lab().open('ALPHA');
    lab().open('BETA');
    alpha.qm.createQueue({ path: ADMIN });
    const id = await alpha.qm.send('BETA\\private$\\orders', {
      body: 'once',
      delivery: 'recoverable',
      journal: 1,
      acknowledge: 4,
      adminQueue: ADMIN,
      timeToReachQueue: 0,
    });
    const lease = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20);
    expect(lease?.messages).toHaveLength(1);
    alpha.qm.networkPort.release(lease!); // the connection broke before an answer
    await settle();
    expect(alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20)).toBeNull();
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
    expect(acks(alpha)).toEqual([['NACK_REACH_QUEUE_TIMEOUT', id]]);
    expect(classOf(alpha.qm, '.\\DEADLETTER$')).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
  });

  test('R-X5 R-X6 a TTRQ-0 message that the next hop cannot take now (retry) expires on the source at once', async () => {
    const alpha = lab().open('ALPHA');
    lab().open('BETA');
    alpha.qm.createQueue({ path: ADMIN });
    await alpha.qm.send('BETA\\private$\\orders', {
      body: 'once',
      journal: 1,
      acknowledge: 4,
      adminQueue: ADMIN,
      timeToReachQueue: 0,
    });
    const lease = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20);
    await alpha.qm.networkPort.settle(lease!, [{ outcome: 'retry', reason: 'offline' }]);
    await settle();
    expect(alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20)).toBeNull();
    expect(classOf(alpha.qm, ADMIN)).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
    expect(classOf(alpha.qm, '.\\DEADLETTER$')).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
  });

  test('R-X5 R-X6 a TTRQ-0 message that cannot leave at once (outgoing queue on hold, or no session) expires on the source', async () => {
    const alpha = lab().open('ALPHA');
    alpha.qm.createQueue({ path: ADMIN });
    const id = await alpha.qm.send('BETA\\private$\\orders', {
      body: 'held',
      journal: 1,
      acknowledge: 4,
      adminQueue: ADMIN,
      timeToReachQueue: 0,
    });
    // Nothing leased it: the next timer tick expires it where it waits.
    lab().clock.advance(200);
    await settle();
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
    expect(acks(alpha)).toEqual([['NACK_REACH_QUEUE_TIMEOUT', id]]);
    expect(classOf(alpha.qm, '.\\DEADLETTER$')).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
  });

  test('R-X2 R-X6 a message that ran out of TTRQ on the way (none left when handed over, not TTRQ 0 from its source) fails at the destination', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    await alpha.qm.send('BETA\\private$\\orders', { body: 'late', journal: 1, timeToReachQueue: 5 });
    const lease = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20);
    const from = { name: 'ALPHA', id: alpha.qm.id };
    const base = lease!.messages[0]!;
    // Handed over with nothing left of 5 s: it ran out waiting on the computer before.
    expect(await beta.qm.networkPort.deliver(from, [{ ...base, reachQueueWithinMs: 0 }], false)).toEqual([
      { outcome: 'stored' },
    ]);
    // TTRQ 0, but after a routing server: its one attempt reached the routing server, not here.
    const relayed = { ...base, msgId: `${base.msgId.slice(0, -1)}9`, ttrq: 0, reachQueueWithinMs: 0, hops: 1 };
    expect(await beta.qm.networkPort.deliver(from, [relayed], false)).toEqual([{ outcome: 'stored' }]);
    expect(beta.qm.showQueue('.\\private$\\orders').messageCount).toBe(0);
    expect(classOf(beta.qm, '.\\DEADLETTER$')).toEqual(['NACK_REACH_QUEUE_TIMEOUT', 'NACK_REACH_QUEUE_TIMEOUT']);
    alpha.qm.networkPort.release(lease!);
  });

  test('R-X5 R-X6 through a routing server a TTRQ-0 message ends at the routing server (its one attempt), dead-lettered there (R-D1)', async () => {
    const alpha = lab().open('ALPHA');
    const relay = lab().open('RELAY', { routing: true });
    alpha.qm.createQueue({ path: ADMIN });
    const id = await alpha.qm.send('BETA\\private$\\orders', {
      body: 'zero',
      journal: 1,
      acknowledge: 4,
      adminQueue: ADMIN,
      timeToReachQueue: 0,
    });
    expect(await lab().hop('ALPHA', 'RELAY', ORDERS)).toEqual([{ outcome: 'stored' }]);
    expect(relay.qm.networkPort.lease(ORDERS, 10, 1 << 20)).toBeNull(); // nothing to pass on
    expect(classOf(relay.qm, '.\\DEADLETTER$')).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
    await lab().drain('RELAY', 'ALPHA', ADMIN_BACK);
    expect(acks(alpha)).toEqual([['NACK_REACH_QUEUE_TIMEOUT', id]]);
  });
});

describe('R-X8 the source waits XactDelayReceiveNack after a negative final confirmation', () => {
  test('R-X8 R-D2 time-to-be-received ran out at the destination: the source dead-letters only after XactDelayReceiveNack (default: the smaller timer)', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'late', journal: 1, timeToBeReceived: 5 },
      { transactional: true },
    );
    await lab().drain('ALPHA', 'BETA', ORDERS);
    lab().clock.advance(6_000);
    await settle();
    expect(beta.qm.showQueue('.\\private$\\orders').messageCount).toBe(0);
    expect(await lab().control('BETA', 'ALPHA')).toBe(1); // NACK_RECEIVE_TIMEOUT reaches ALPHA at 6 s
    lab().clock.advance(200);
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual([]);
    // TTBR (5 s) + the delay (5 s, the smaller timer): 10 s after it was sent.
    lab().clock.advance(3_500);
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual([]);
    lab().clock.advance(500);
    await settle();
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_RECEIVE_TIMEOUT']);
    expect(classOf(beta.qm, '.\\XACTDEADLETTER$')).toEqual([]);
  });

  test('R-X8 R-A9 a positive final confirmation within the delay cancels the dead letter a negative one scheduled', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    const id = await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'late', journal: 1, timeToBeReceived: 5 },
      { transactional: true },
    );
    await lab().drain('ALPHA', 'BETA', ORDERS);
    lab().clock.advance(6_000);
    await settle();
    expect(await lab().control('BETA', 'ALPHA')).toBe(1);
    await lab().final('BETA', 'ALPHA', id, MessageClass.ACK_RECEIVE);
    lab().clock.advance(30_000);
    await settle();
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual([]);
  });

  test('R-X8 R-D2 a purge at the destination: the source dead-letters with its class XactDelayReceiveNack after the confirmation came', async () => {
    const alpha = lab().open('ALPHA');
    alpha.qm.setSetting('XactDelayReceiveNack', 30);
    await lab().reopen('ALPHA'); // the setting applies at the next start
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    const a = lab().get('ALPHA');
    await a.qm.send('BETA\\private$\\orders', { body: 'purged', journal: 1 }, { transactional: true });
    await lab().drain('ALPHA', 'BETA', ORDERS);
    lab().clock.advance(1_000);
    await beta.qm.purgeQueue('.\\private$\\orders');
    await settle();
    expect(await lab().control('BETA', 'ALPHA')).toBe(1);
    lab().clock.advance(29_000);
    await settle();
    expect(classOf(a.qm, '.\\XACTDEADLETTER$')).toEqual([]);
    lab().clock.advance(1_200);
    await settle();
    await settle();
    expect(classOf(a.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_Q_PURGED']);
  });

  test('R-D2 a negative final confirmation of an arrival class (never reached its queue) dead-letters on the source at once', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    const id = await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'x', journal: 1, timeToBeReceived: 60 },
      { transactional: true },
    );
    await lab().drain('ALPHA', 'BETA', ORDERS);
    await lab().final('BETA', 'ALPHA', id, MessageClass.NACK_NOT_TRANSACTIONAL_Q);
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_NOT_TRANSACTIONAL_Q']);
  });

  /** ALPHA sends one transactional message to BETA; BETA's final confirmation reaches ALPHA before the call's reply. */
  async function finalBeforeReply(betaQueue: { transactional: boolean }, receiveFirst: boolean): Promise<Computer> {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', ...betaQueue });
    alpha.qm.createQueue({ path: ADMIN });
    await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'x', journal: 1, acknowledge: 4, adminQueue: ADMIN, timeToBeReceived: 60 },
      { transactional: true },
    );
    const lease = alpha.qm.networkPort.lease(ORDERS, 256, 1 << 20);
    if (!lease) throw new Error('nothing to send');
    const outcomes = await beta.qm.networkPort.deliver({ name: 'ALPHA', id: alpha.qm.id }, lease.messages, false);
    if (receiveFirst) await beta.qm.receive({ path: '.\\private$\\orders', transactional: true });
    await settle();
    // The destination's control items (its final confirmation) arrive first, then the reply of the call.
    expect(await lab().control('BETA', 'ALPHA')).toBeGreaterThan(0);
    await alpha.qm.networkPort.settle(lease, outcomes);
    await settle();
    return alpha;
  }

  test("R-D2 a negative final confirmation that overtakes the call's reply still dead-letters on the source, once", async () => {
    const alpha = await finalBeforeReply({ transactional: false }, false);
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_NOT_TRANSACTIONAL_Q']);
    // Nothing else comes of it: no second dead letter as in doubt once its time-to-be-received is over.
    lab().clock.advance(200_000);
    await settle();
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_NOT_TRANSACTIONAL_Q']);
  });

  test("R-A9 a positive final confirmation that overtakes the call's reply cancels the dead letter as in doubt", async () => {
    const alpha = await finalBeforeReply({ transactional: true }, true);
    lab().clock.advance(200_000);
    await settle();
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual([]);
  });
});
