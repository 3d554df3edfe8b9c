import { describe, expect, test } from 'vitest';
import { settle } from './helpers.js';
import { classOf, labEachTest } from './network-helpers.js';

const lab = labEachTest();

const ORDERS = 'DIRECT=OS:BETA\\private$\\orders';

describe('store-and-forward between two queue managers', () => {
  test('R-J1 a nontransactional message leaves its outgoing queue once the next hop stored it; the source journals it then', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    alpha.qm.createQueue({ path: '.\\private$\\admin' });
    const id = await alpha.qm.send('BETA\\private$\\orders', {
      body: 'hello',
      delivery: 'recoverable',
      journal: 2,
      acknowledge: 5,
      adminQueue: '.\\private$\\admin',
    });
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(1);
    expect(classOf(alpha.qm, '.\\JOURNAL$')).toEqual([]); // R-J1: not before the hop confirmed
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'stored' }]);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
    const arrived = beta.qm.browse({ path: '.\\private$\\orders', includeBody: true }).messages;
    expect(arrived).toMatchObject([{ id, body: 'hello', sourceMachine: 'ALPHA', sourceMachineId: alpha.qm.id }]);
    // `.` in the administration queue named the sending computer when it left.
    expect(arrived[0]?.adminQueue).toBe('ALPHA\\private$\\admin');
    expect(alpha.qm.browse({ path: '.\\JOURNAL$' }).messages.map((m) => m.id)).toEqual([id]);
    // R-A2: BETA's positive arrival acknowledgment waits in BETA's outgoing queue for ALPHA's admin queue.
    const back = 'DIRECT=OS:ALPHA\\private$\\admin';
    expect(classOf(beta.qm, back)).toEqual(['ACK_REACH_QUEUE']);
    await lab().drain('BETA', 'ALPHA', back);
    expect(alpha.qm.browse({ path: '.\\private$\\admin' }).messages).toMatchObject([
      { class: 'ACK_REACH_QUEUE', correlationId: id },
    ]);
  });

  test('R-U2 over the network: a resend after a lost confirmation is dropped by the receiver; R-U3 with RemoveDuplicateSize 0 it arrives twice', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    await alpha.qm.send('BETA\\private$\\orders', { body: 'once', delivery: 'recoverable' });
    expect(await lab().hop('ALPHA', 'BETA', ORDERS, { lose: true })).toEqual([{ outcome: 'stored' }]);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(1); // still here: no confirmation came
    expect(await lab().hop('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'duplicate' }]);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
    expect(beta.qm.showQueue('.\\private$\\orders').messageCount).toBe(1);
    expect(beta.qm.status().duplicateCache.duplicatesRemoved).toBe(1);

    beta.qm.setSetting('RemoveDuplicateSize', 0);
    await lab().reopen('BETA');
    await alpha.qm.send('BETA\\private$\\orders', { body: 'twice', delivery: 'recoverable' });
    await lab().hop('ALPHA', 'BETA', ORDERS, { lose: true });
    expect(await lab().hop('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'stored' }]);
    const bodies = lab()
      .get('BETA')
      .qm.browse({ path: '.\\private$\\orders', includeBody: true })
      .messages.map((m) => m.body);
    expect(bodies).toEqual(['once', 'twice', 'twice']);
  });

  test('R-D1 a next hop that is not a routing server refuses a message for another computer: the sender dead-letters it', async () => {
    const alpha = lab().open('ALPHA');
    lab().open('BETA');
    await alpha.qm.send('GAMMA\\private$\\q', { body: 'x', journal: 1, delivery: 'recoverable' });
    expect(await lab().hop('ALPHA', 'BETA', 'DIRECT=OS:GAMMA\\private$\\q')).toEqual([
      { outcome: 'refused', classCode: 0x8000 },
    ]);
    expect(classOf(alpha.qm, '.\\DEADLETTER$')).toEqual(['NACK_BAD_DST_Q']);
  });

  test('NACK_BAD_DST_Q an unknown destination queue: the NACK goes back and the nontransactional dead letter stays on the destination', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    alpha.qm.createQueue({ path: '.\\private$\\admin' });
    await alpha.qm.send('BETA\\private$\\missing', {
      body: 'x',
      journal: 1,
      acknowledge: 4,
      adminQueue: '.\\private$\\admin',
    });
    expect(await lab().hop('ALPHA', 'BETA', 'DIRECT=OS:BETA\\private$\\missing')).toEqual([{ outcome: 'stored' }]);
    expect(classOf(beta.qm, '.\\DEADLETTER$')).toEqual(['NACK_BAD_DST_Q']);
    expect(classOf(alpha.qm, '.\\DEADLETTER$')).toEqual([]);
    await lab().drain('BETA', 'ALPHA', 'DIRECT=OS:ALPHA\\private$\\admin');
    expect(classOf(alpha.qm, '.\\private$\\admin')).toEqual(['NACK_BAD_DST_Q']);
  });
});

describe('transactional messages between computers', () => {
  test('R-J4 the destination accepts in sequence; the source journals and keeps a record until the final confirmation', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    const id = await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'tx', journal: 3, timeToBeReceived: 5 },
      { transactional: true },
    );
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    expect(alpha.qm.browse({ path: '.\\JOURNAL$' }).messages.map((m) => m.id)).toEqual([id]);
    // Received at BETA: its final confirmation reaches ALPHA, which keeps no dead letter.
    await beta.qm.receive({ path: '.\\private$\\orders', transactional: true });
    expect(await lab().control('BETA', 'ALPHA')).toBe(1);
    // Past TTBR + XactDelayReceiveNack: the positive confirmation cancelled the dead letter (R-A9).
    lab().clock.advance(20_000);
    await settle();
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual([]);
  });

  test('R-D2 a transactional message whose time-to-be-received runs out at the destination is dead-lettered on the source', async () => {
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
    expect(classOf(beta.qm, '.\\XACTDEADLETTER$')).toEqual([]); // never on the destination
    expect(await lab().control('BETA', 'ALPHA')).toBe(1);
    // R-X8: after XactDelayReceiveNack (network-fates.test.ts times it).
    lab().clock.advance(5_000);
    await settle();
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_RECEIVE_TIMEOUT']);
  });

  test('R-A9 without a final confirmation the source dead-letters after TTBR plus XactDelayReceiveNack (default: the smaller timer)', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    await alpha.qm.send(
      'BETA\\private$\\orders',
      { body: 'lost', journal: 1, timeToBeReceived: 10 },
      { transactional: true },
    );
    await lab().drain('ALPHA', 'BETA', ORDERS);
    // The confirmation never comes (BETA's control items are never handed over).
    lab().clock.advance(15_000);
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual([]); // TTBR (10 s) + delay (10 s) not reached
    lab().clock.advance(6_000);
    await settle();
    await settle();
    expect(classOf(alpha.qm, '.\\XACTDEADLETTER$')).toEqual(['NACK_RECEIVE_TIMEOUT']);
  });

  test('R-E3 numbers already accepted are duplicates, a gap is refused for later, and the counter survives a restart', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    for (const body of ['1', '2', '3'])
      await alpha.qm.send('BETA\\private$\\orders', { body }, { transactional: true });
    const lease = alpha.qm.networkPort.lease(ORDERS, 256, 1 << 20);
    expect(lease?.messages.map((m) => m.sequence?.number)).toEqual([1, 2, 3]);
    const [one, two, three] = lease!.messages;
    const from = { name: 'ALPHA', id: alpha.qm.id };
    expect(await beta.qm.networkPort.deliver(from, [two!], false)).toEqual([
      { outcome: 'retry', reason: expect.stringContaining('out of sequence') },
    ]);
    expect(await beta.qm.networkPort.deliver(from, [one!, two!], false)).toEqual([
      { outcome: 'accepted' },
      { outcome: 'accepted' },
    ]);
    await lab().reopen('BETA');
    expect(await lab().get('BETA').qm.networkPort.deliver(from, [one!, two!, three!], false)).toEqual([
      { outcome: 'duplicate' },
      { outcome: 'duplicate' },
      { outcome: 'accepted' },
    ]);
    const bodies = lab()
      .get('BETA')
      .qm.browse({ path: '.\\private$\\orders', includeBody: true })
      .messages.map((m) => m.body);
    expect(bodies).toEqual(['1', '2', '3']);
    alpha.qm.networkPort.release(lease!);
  });

  test('R-E2 the messages of one transaction travel as one group and are never split across calls', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    const tx = alpha.qm.beginTransaction();
    for (let i = 0; i < 5; i++) await alpha.qm.send('BETA\\private$\\orders', { body: `m${i}` }, { transaction: tx });
    await alpha.qm.commitTransaction(tx);
    const lease = alpha.qm.networkPort.lease(ORDERS, 2, 1 << 20); // asks for 2, gets the whole transaction
    expect(lease?.messages).toHaveLength(5);
    const groups = new Set(lease?.messages.map((m) => m.sequence?.group));
    expect(groups.size).toBe(1);
    expect([...groups][0]).not.toBeNull();
    alpha.qm.networkPort.release(lease!);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toHaveLength(5);
  });
});

describe('routing servers', () => {
  test('a routing server stores and forwards; the destination acknowledges the sequence to the source as a control item', async () => {
    const alpha = lab().open('ALPHA');
    lab().open('RELAY', { routing: true });
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', transactional: true });
    await alpha.qm.send('BETA\\private$\\orders', { body: 'via', journal: 2 }, { transactional: true });
    expect(await lab().drain('ALPHA', 'RELAY', ORDERS)).toEqual([{ outcome: 'stored' }]);
    // Stored at RELAY, not yet confirmed by BETA: it stays in ALPHA's outgoing queue, unconfirmed.
    expect(alpha.qm.networkPort.outgoing()).toEqual([
      expect.objectContaining({ formatName: ORDERS, ready: 0, unconfirmed: 1 }),
    ]);
    expect(classOf(alpha.qm, '.\\JOURNAL$')).toEqual([]);
    expect(await lab().drain('RELAY', 'BETA', ORDERS)).toEqual([{ outcome: 'accepted' }]);
    expect(classOf(lab().get('RELAY').qm, '.\\JOURNAL$')).toEqual([]); // routing servers journal nothing
    expect(await lab().control('BETA', 'ALPHA')).toBe(1);
    expect(alpha.qm.showQueue(ORDERS).messageCount).toBe(0);
    expect(classOf(alpha.qm, '.\\JOURNAL$')).toEqual(['NORMAL']); // R-J4 on the destination's confirmation
  });

  test('R-E4 a message stored by a routing server and not confirmed is sent again at once when a session comes back, then every 30 s (SeqResend13Time)', async () => {
    const alpha = lab().open('ALPHA');
    lab().open('RELAY', { routing: true });
    await alpha.qm.send('BETA\\private$\\orders', { body: 'again' }, { transactional: true });
    expect(await lab().drain('ALPHA', 'RELAY', ORDERS)).toEqual([{ outcome: 'stored' }]);
    expect(alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20)).toBeNull(); // unconfirmed: not due yet
    lab().clock.advance(29_000);
    expect(alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20)).toBeNull();
    lab().clock.advance(1_000);
    const resend = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20);
    expect(resend?.messages.map((m) => [m.body.toString(), m.sequence?.number])).toEqual([['again', 1]]);
    await alpha.qm.networkPort.settle(resend!, [{ outcome: 'stored' }]);
    expect(alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20)).toBeNull();
    // A session to the next hop came back: what was not confirmed goes again now.
    alpha.qm.networkPort.resendNow([ORDERS]);
    const now = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20);
    expect(now?.messages).toHaveLength(1);
    alpha.qm.networkPort.release(now!);
  });

  test('R-H1 a message that would need a sixteenth hop is failed where it is, with NACK_HOP_COUNT_EXCEEDED', async () => {
    const alpha = lab().open('ALPHA');
    const relay = lab().open('RELAY', { routing: true });
    await alpha.qm.send('BETA\\private$\\orders', { body: 'loop', journal: 1, delivery: 'recoverable' });
    const lease = alpha.qm.networkPort.lease(ORDERS, 1, 1 << 20);
    const message = { ...lease!.messages[0]!, hops: 14 };
    expect(await relay.qm.networkPort.deliver({ name: 'ALPHA', id: alpha.qm.id }, [message], true)).toEqual([
      { outcome: 'stored' },
    ]);
    expect(classOf(relay.qm, '.\\DEADLETTER$')).toEqual(['NACK_HOP_COUNT_EXCEEDED']);
    const fine = { ...lease!.messages[0]!, hops: 13 };
    await relay.qm.networkPort.deliver({ name: 'ALPHA', id: alpha.qm.id }, [fine], true);
    expect(relay.qm.showQueue(ORDERS).messageCount).toBe(1);
    const onward = relay.qm.networkPort.lease(ORDERS, 1, 1 << 20);
    expect(onward?.messages[0]?.hops).toBe(14);
    alpha.qm.networkPort.release(lease!);
  });
});
