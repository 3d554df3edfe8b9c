/**
 * The service an administrator meets on a Monday morning (issue 12's trial): ten queues with about 3,000
 * messages, express and recoverable, journals with copies, dead letters with their NACKs in an
 * administration queue, a queue near its quota. Built only through the API, as applications would.
 */
import type { RunningService } from './service.js';

export const ORDERS = '.\\private$\\orders';
export const BILLING = '.\\private$\\billing';
export const ADMIN = '.\\private$\\order-acks';
export const SHIPPING = '.\\private$\\shipping';
export const AUDIT = '.\\private$\\audit';

const queues: Array<{
  name: string;
  transactional?: boolean;
  journal?: boolean;
  quotaKB?: number;
  journalQuotaKB?: number;
  label?: string;
}> = [
  { name: 'orders', journal: true, journalQuotaKB: 4, label: 'Orders from the web shop' },
  { name: 'billing', transactional: true, label: 'Invoices to post' },
  { name: 'order-acks', label: 'Acknowledgments of orders' },
  { name: 'shipping', quotaKB: 64, label: 'Parcels to ship' },
  { name: 'audit', journal: true },
  { name: 'returns' },
  { name: 'inventory' },
  { name: 'notifications' },
  { name: 'reports', transactional: true },
  { name: 'archive' },
];

let seq = 0;
const foreignId = () => `{5c1e0b7a-2f44-4c3b-9d0e-00000000a11c}\\${(seq += 1)}`;

/** Fills `service` with the morning's messages; returns how many it sent. */
export async function mondayMorning(service: RunningService): Promise<void> {
  for (const q of queues) {
    await service.call('queueCreate', {
      path: `.\\private$\\${q.name}`,
      ...(q.transactional ? { transactional: true } : {}),
      ...(q.journal ? { journal: true } : {}),
      ...(q.quotaKB ? { quotaKB: q.quotaKB } : {}),
      ...(q.journalQuotaKB ? { journalQuotaKB: q.journalQuotaKB } : {}),
      ...(q.label ? { label: q.label } : {}),
    });
  }
  const body = (i: number) => JSON.stringify({ order: 10_000 + i, lines: [{ sku: `A-${i % 97}`, qty: (i % 5) + 1 }] });
  await service.fill(ORDERS, 1_200, (i) => ({
    label: `order-${10_000 + i}`,
    body: body(i),
    priority: i % 10 === 0 ? 5 : 3,
    ...(i % 3 === 0 ? { delivery: 'recoverable' as const } : {}),
    acknowledge: 0x04,
    adminQueue: ADMIN,
  }));
  await service.fill(SHIPPING, 300, (i) => ({
    label: `parcel-${i + 1}`,
    body: 'x'.repeat(180),
    delivery: 'recoverable',
  }));
  await service.fill(AUDIT, 600, (i) => ({ label: `audit-${i + 1}`, body: `user ${i % 7} signed in` }));
  for (const [name, count] of [
    ['returns', 120],
    ['inventory', 250],
    ['notifications', 400],
    ['archive', 90],
  ] as const)
    await service.fill(`.\\private$\\${name}`, count, (i) => ({ label: `${name}-${i + 1}`, body: `${name} ${i + 1}` }));
  for (let i = 0; i < 30; i += 1)
    await service.call('send', {
      path: BILLING,
      message: { label: `invoice-${i + 1}`, body: `<invoice n="${i + 1}"/>`, delivery: 'recoverable' },
      transactional: true,
    });
  // Journals: receiving copies the messages into the queue's journal until its 16 KB quota is full.
  await service.call('receiveBatch', { path: ORDERS, max: 150 });
  await service.call('receiveBatch', { path: AUDIT, max: 40 });
  // Dead letters: messages from BETA for queues this computer does not have (NACK_BAD_DST_Q), and for a
  // full queue; each with its NACK in the administration queue.
  for (let i = 0; i < 14; i += 1)
    await service.call('messageArrive', {
      path: i % 2 ? '.\\private$\\old-orders' : '.\\private$\\legacy-billing',
      message: {
        id: foreignId(),
        sourceMachine: 'BETA',
        sourceMachineId: '5c1e0b7a-2f44-4c3b-9d0e-00000000a11c',
        label: `from BETA ${i + 1}`,
        body: `lost ${i + 1}`,
        journal: 1,
        acknowledge: 0x04,
        adminQueue: ADMIN,
      },
    });
  await service.fill(SHIPPING, 20, (i) => ({
    label: `late parcel ${i + 1}`,
    body: 'y'.repeat(4_000),
    journal: 1,
    acknowledge: 0x04,
    adminQueue: ADMIN,
  }));
}
