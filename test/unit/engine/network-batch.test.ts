/**
 * The batch paths of store-and-forward (docs/network.md "Throughput"): a delivery's messages take one unit of
 * work on the next hop, and leases of a queue of nontransactional messages seek past what other leases hold.
 * Each message must still meet every rule on its own.
 */
import { describe, expect, test } from 'vitest';
import type { TransitMessage } from '@qk/engine';
import { labEachTest, type Lab } from './network-helpers.js';

const lab = labEachTest();

const ORDERS = 'DIRECT=OS:BETA\\private$\\orders';
const bodiesIn = (lab: Lab, computer: string, path: string): (string | null)[] =>
  lab
    .get(computer)
    .qm.browse({ path, includeBody: true, limit: 1000 })
    .messages.map((m) => m.body);

async function sendMany(lab: Lab, path: string, n: number, extra: Record<string, unknown> = {}): Promise<void> {
  const alpha = lab.get('ALPHA').qm;
  await alpha.sendBatch(
    Array.from({ length: n }, (_, i) => ({
      path,
      message: { body: `m${i}`, delivery: 'recoverable' as const, ...extra },
    })),
  );
}

describe('one delivery, one unit of work', () => {
  test('R-U2 a copy twice in one delivery: the second is a duplicate; R-U3 with RemoveDuplicateSize 0 both arrive', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    await sendMany(lab(), 'BETA\\private$\\orders', 2);
    const lease = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20);
    const [first, second] = lease!.messages as [TransitMessage, TransitMessage];
    const from = { name: 'ALPHA', id: alpha.qm.id };
    const twice = [first, second, first];
    expect(await beta.qm.networkPort.deliver(from, twice, false)).toEqual([
      { outcome: 'stored' },
      { outcome: 'stored' },
      { outcome: 'duplicate' },
    ]);
    expect(bodiesIn(lab(), 'BETA', '.\\private$\\orders')).toEqual(['m0', 'm1']);
    expect(beta.qm.status().duplicateCache.duplicatesRemoved).toBe(1);
    // A later delivery of both (a resend after a lost confirmation) is dropped whole.
    expect(await beta.qm.networkPort.deliver(from, [first, second], false)).toEqual([
      { outcome: 'duplicate' },
      { outcome: 'duplicate' },
    ]);

    beta.qm.setSetting('RemoveDuplicateSize', 0);
    await lab().reopen('BETA');
    expect(await lab().get('BETA').qm.networkPort.deliver(from, [first, first], false)).toEqual([
      { outcome: 'stored' },
      { outcome: 'stored' },
    ]);
    expect(bodiesIn(lab(), 'BETA', '.\\private$\\orders')).toEqual(['m0', 'm1', 'm0', 'm0']);
    alpha.qm.networkPort.release(lease!);
  });

  test('R-Q2 and NACK_BAD_DST_Q inside one delivery: each message gets its own outcome, in order', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders', quotaKB: 1 });
    await sendMany(lab(), 'BETA\\private$\\orders', 3, { body: 'x'.repeat(400), journal: 1 });
    await alpha.qm.send('BETA\\private$\\nowhere', { body: 'lost', delivery: 'recoverable', journal: 1 });
    const orders = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20)!;
    const nowhere = alpha.qm.networkPort.lease('DIRECT=OS:BETA\\private$\\nowhere', 10, 1 << 20)!;
    const from = { name: 'ALPHA', id: alpha.qm.id };
    const outcomes = await beta.qm.networkPort.deliver(from, [...orders.messages, ...nowhere.messages], false);
    // Every message is answered 'stored': placed, or failed here with its NACK and dead letter (R-D1).
    expect(outcomes).toHaveLength(4);
    expect(outcomes.every((o) => o.outcome === 'stored')).toBe(true);
    // The first fits the 1 KB quota, the others do not (R-Q2): each is refused on its own, in order.
    expect(bodiesIn(lab(), 'BETA', '.\\private$\\orders')).toEqual(['x'.repeat(400)]);
    const dead = beta.qm.browse({ path: '.\\DEADLETTER$', limit: 10 }).messages.map((m) => m.class);
    expect(dead.sort()).toEqual(['NACK_BAD_DST_Q', 'NACK_Q_EXCEED_QUOTA', 'NACK_Q_EXCEED_QUOTA']);
    alpha.qm.networkPort.release(orders);
    alpha.qm.networkPort.release(nowhere);
  });
});

describe('leases seek past what other leases hold', () => {
  test('leases in flight take what follows; a released lease is taken again first, in queue order', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    await sendMany(lab(), 'BETA\\private$\\orders', 10);
    const port = alpha.qm.networkPort;
    const bodies = (lease: { messages: readonly TransitMessage[] } | null): string[] =>
      (lease?.messages ?? []).map((m) => m.body.toString());
    const a = port.lease(ORDERS, 3, 1 << 20);
    const b = port.lease(ORDERS, 3, 1 << 20);
    expect(bodies(a)).toEqual(['m0', 'm1', 'm2']);
    expect(bodies(b)).toEqual(['m3', 'm4', 'm5']);
    port.release(a!);
    const c = port.lease(ORDERS, 5, 1 << 20);
    expect(bodies(c)).toEqual(['m0', 'm1', 'm2', 'm6', 'm7']);
    // A message of a higher priority sent meanwhile comes before those still waiting (R-O1).
    await alpha.qm.send('BETA\\private$\\orders', { body: 'urgent', delivery: 'recoverable', priority: 7 });
    expect(bodies(port.lease(ORDERS, 5, 1 << 20))).toEqual(['urgent', 'm8', 'm9']);
    expect(port.lease(ORDERS, 5, 1 << 20)).toBeNull();
    port.release(b!);
    port.release(c!);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toHaveLength(8);
  });

  test('R-P6 a purge of the outgoing queue between send and lease: nothing purged leaves (leases take rows as placed only if still there)', async () => {
    const alpha = lab().open('ALPHA');
    lab().open('BETA').qm.createQueue({ path: '.\\private$\\orders' });
    await sendMany(lab(), 'BETA\\private$\\orders', 5);
    expect(await alpha.qm.purgeQueue(ORDERS)).toBe(5);
    expect(alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20)).toBeNull();
    await alpha.qm.send('BETA\\private$\\orders', { body: 'after', delivery: 'recoverable' });
    const lease = alpha.qm.networkPort.lease(ORDERS, 10, 1 << 20);
    expect(lease?.messages.map((m) => m.body.toString())).toEqual(['after']);
    alpha.qm.networkPort.release(lease!);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toHaveLength(1);
    expect(bodiesIn(lab(), 'BETA', '.\\private$\\orders')).toEqual(['after']);
  });

  test('a lease stops at its byte budget; what it leaves is the next lease', async () => {
    const alpha = lab().open('ALPHA');
    lab().open('BETA').qm.createQueue({ path: '.\\private$\\orders' });
    await sendMany(lab(), 'BETA\\private$\\orders', 4, { body: 'y'.repeat(3000) });
    const port = alpha.qm.networkPort;
    const first = port.lease(ORDERS, 10, 7000);
    expect(first?.messages).toHaveLength(2);
    const second = port.lease(ORDERS, 10, 7000);
    expect(second?.messages).toHaveLength(2);
    expect(new Set([...first!.messages, ...second!.messages].map((m) => m.msgId)).size).toBe(4);
    port.release(first!);
    port.release(second!);
    expect(await lab().drain('ALPHA', 'BETA', ORDERS)).toHaveLength(4);
  });

  test('R-E2 an outgoing queue that also holds a transaction: leases keep the transaction whole', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    await sendMany(lab(), 'BETA\\private$\\orders', 2);
    const tx = alpha.qm.beginTransaction();
    for (let i = 0; i < 4; i++) await alpha.qm.send('BETA\\private$\\orders', { body: `t${i}` }, { transaction: tx });
    await alpha.qm.commitTransaction(tx);
    const port = alpha.qm.networkPort;
    const plain = port.lease(ORDERS, 2, 1 << 20);
    expect(plain?.messages.map((m) => m.transactional)).toEqual([false, false]);
    const group = port.lease(ORDERS, 2, 1 << 20); // asks for 2, gets the whole transaction
    expect(group?.messages.map((m) => m.body.toString())).toEqual(['t0', 't1', 't2', 't3']);
    port.release(plain!);
    port.release(group!);
    const outcomes = await lab().drain('ALPHA', 'BETA', ORDERS);
    // The transactional ones are refused by the nontransactional queue (R-M1): dead letters on the source.
    expect(outcomes).toHaveLength(6);
    expect(bodiesIn(lab(), 'BETA', '.\\private$\\orders')).toEqual(['m0', 'm1']);
  });
});
