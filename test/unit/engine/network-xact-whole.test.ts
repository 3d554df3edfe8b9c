/**
 * R-E2 across computers: the messages one transaction sends to a queue on another computer travel in one
 * delivery and are placed together — whatever else the outgoing queue holds, and even when the destination's
 * computer quota fills up halfway through them. A transaction may send only as many to one remote queue as one
 * delivery carries.
 */
import { expect, test } from 'vitest';
import { Limits, type QkError } from '@qk/model';
import type { DeliveryOutcome } from '@qk/engine';
import { labEachTest, type Lab } from './network-helpers.js';

const lab = labEachTest();

const ORDERS = 'DIRECT=OS:BETA\\private$\\orders';
const stored = (): DeliveryOutcome => ({ outcome: 'stored' });
const send = (body: string) => ({ path: 'BETA\\private$\\orders', message: { body } });

/** Sizes of the leases ALPHA makes of BETA's outgoing queue, each settled as stored by a routing server. */
async function leaseSizes(alpha: ReturnType<Lab['open']>['qm']): Promise<number[]> {
  const sizes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const lease = alpha.networkPort.lease(ORDERS, 1_000, 4 << 20);
    if (!lease) break;
    sizes.push(lease.messages.length);
    await alpha.networkPort.settle(lease, lease.messages.map(stored));
  }
  return sizes;
}

test('R-E2 a transaction goes in one lease however many messages wait for their confirmation before it', async () => {
  const alpha = lab().open('ALPHA').qm;
  // 9,200 single-message transactions stored by a routing server, waiting 30 s for BETA's confirmation: a
  // lease reads past them, and they used to count against the room a transaction may take.
  for (let at = 0; at < 9_200; at += 4_600)
    await alpha.sendBatch(Array.from({ length: 4_600 }, (_, i) => ({ ...send(`s${at + i}`), transactional: true })));
  expect((await leaseSizes(alpha)).reduce((a, b) => a + b, 0)).toBe(9_200);
  const tx = alpha.beginTransaction();
  await alpha.sendBatch(
    Array.from({ length: 1_500 }, (_, i) => send(`t${i}`)),
    tx,
  );
  await alpha.commitTransaction(tx);
  expect(await leaseSizes(alpha)).toEqual([1_500]);
}, 120_000);

test('R-E2 the largest transaction one remote queue takes goes in one lease; one message more is refused', async () => {
  const alpha = lab().open('ALPHA').qm;
  const max = Limits.REMOTE_TRANSACTION_MESSAGES;
  const tx = alpha.beginTransaction();
  await alpha.sendBatch(
    Array.from({ length: max }, (_, i) => send(`t${i}`)),
    tx,
  );
  // The send past the limit is refused, and the transaction keeps what it had.
  await expect(alpha.send('BETA\\private$\\orders', { body: 'one more' }, { transaction: tx })).rejects.toMatchObject({
    code: 'INSUFFICIENT_RESOURCES',
  } satisfies Partial<QkError>);
  // Another queue on that computer counts apart.
  await alpha.send('BETA\\private$\\other', { body: 'elsewhere' }, { transaction: tx });
  await alpha.commitTransaction(tx);
  expect(await leaseSizes(alpha)).toEqual([max]);
}, 120_000);

test('R-E2 a destination whose computer quota fills halfway through a transaction places none of it, then all', async () => {
  const alpha = lab().open('ALPHA').qm;
  const beta = lab().open('BETA').qm;
  beta.createQueue({ path: '.\\private$\\orders', transactional: true });
  beta.setSetting('MachineQuota', 2); // KB: two of the five fit
  const tx = alpha.beginTransaction();
  for (let i = 0; i < 5; i++)
    await alpha.send('BETA\\private$\\orders', { body: `m${i}`.padEnd(500, '.') }, { transaction: tx });
  await alpha.commitTransaction(tx);
  const from = { name: 'ALPHA', id: alpha.id };
  const lease = alpha.networkPort.lease(ORDERS, 1_000, 4 << 20);
  expect(lease?.messages).toHaveLength(5);
  const first = await beta.networkPort.deliver(from, lease!.messages, false);
  expect(first.map((o) => o.outcome)).toEqual(['retry', 'retry', 'retry', 'retry', 'retry']);
  expect(beta.showQueue('.\\private$\\orders').messageCount).toBe(0);
  alpha.networkPort.release(lease!);
  beta.setSetting('MachineQuota', 1024);
  const again = alpha.networkPort.lease(ORDERS, 1_000, 4 << 20);
  const second = await beta.networkPort.deliver(from, again!.messages, false);
  expect(second.map((o) => o.outcome)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'accepted']);
  expect(beta.showQueue('.\\private$\\orders').messageCount).toBe(5);
});
