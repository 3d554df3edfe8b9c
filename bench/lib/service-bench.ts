/** Section `service`: send and receive rates and send latency through the real service, over WebSocket. */
import type { QkClient } from '@qk/client';
import { batchItems, message, type DeliveryName } from './body.js';
import { tempFolder } from './cleanup.js';
import type { Counts } from './config.js';
import { receiveSingles, ROUNDS } from './engine.js';
import type { Results, Target } from './results.js';
import { startService, type BenchService } from './service.js';
import { bestOf, forDuration, inFlight, now, percentile, rate } from './stats.js';

const SECTION = 'service';
const RECOVERABLE_TARGET: Target = { op: '>=', value: 20_000 };

/** In flight per sender: single sends, and sendBatch calls of SEND_BATCH messages. */
const SEND_WINDOW = 32;
const SEND_BATCH = 500;
const BATCH_WINDOW = 2;
const RECEIVE_WINDOW = 64;

let queueNumber = 0;
async function freshQueue(client: QkClient, tag: string): Promise<string> {
  const path = `.\\private$\\svc-${tag}-${++queueNumber}`;
  await client.queueCreate({ path });
  return path;
}

/** Fills a queue through the service with sendBatch (not timed), 4 batches of 1,000 in flight. */
export async function fillThroughService(
  client: QkClient,
  path: string,
  delivery: DeliveryName,
  total: number,
  batch = 1_000,
  lanes = 4,
): Promise<number> {
  const items = batchItems(path, delivery, batch);
  const batches = Math.ceil(total / batch);
  return inFlight(batches, lanes, (i) =>
    client.sendBatch({ messages: i === batches - 1 && total % batch !== 0 ? items.slice(0, total % batch) : items }),
  );
}

async function clients(svc: BenchService, n: number): Promise<QkClient[]> {
  return Promise.all(Array.from({ length: n }, () => svc.client()));
}

export async function runService(root: string, results: Results, counts: Counts): Promise<void> {
  const svc = await startService(root, tempFolder('service'));
  try {
    results.add(
      SECTION,
      'service start (empty data folder) to ready',
      svc.startMs,
      'ms',
      'spawn of `qk service start` to its ready line',
    );
    const admin = await svc.client();
    const senders = await clients(svc, 16);
    const seconds = counts.serviceSendSeconds;

    // Warm-up of both processes.
    const warm = await freshQueue(admin, 'warm');
    for (const delivery of ['express', 'recoverable'] as const) {
      await fillThroughService(admin, warm, delivery, 5_000);
      await inFlight(2_000, 64, () => admin.send({ path: warm, message: message(delivery) }));
    }
    await admin.queuePurge({ path: warm });

    for (const delivery of ['express', 'recoverable'] as const) {
      const runs: { method: string; value: number }[] = [];
      for (const senderCount of [1, 16]) {
        const active = senders.slice(0, senderCount);
        {
          const value = await bestOf(ROUNDS, async () => {
            const q = await freshQueue(admin, `send-${delivery}`);
            const m = { path: q, message: message(delivery) };
            const perSender = await Promise.all(
              active.map((c) => forDuration(seconds * 1000, SEND_WINDOW, async () => (await c.send(m), 1))),
            );
            await admin.queuePurge({ path: q });
            return aggregate(perSender);
          });
          const method = `${senderCount} sender${senderCount > 1 ? 's' : ''} (one WebSocket each), single send, ${SEND_WINDOW} in flight per sender, ${seconds} s; best of ${ROUNDS}`;
          runs.push({ method, value });
          results.add(
            SECTION,
            `service ${delivery} send, ${senderCount} sender${senderCount > 1 ? 's' : ''}, single sends`,
            value,
            'msg/s',
            method,
          );
        }
        {
          const value = await bestOf(ROUNDS, async () => {
            const q = await freshQueue(admin, `send-${delivery}`);
            const batch = { messages: batchItems(q, delivery, SEND_BATCH) };
            const perSender = await Promise.all(
              active.map((c) =>
                forDuration(seconds * 1000, BATCH_WINDOW, async () => (await c.sendBatch(batch), SEND_BATCH)),
              ),
            );
            await admin.queuePurge({ path: q });
            return aggregate(perSender);
          });
          const method = `${senderCount} sender${senderCount > 1 ? 's' : ''} (one WebSocket each), sendBatch of ${SEND_BATCH}, ${BATCH_WINDOW} in flight per sender, ${seconds} s; best of ${ROUNDS}`;
          runs.push({ method, value });
          results.add(
            SECTION,
            `service ${delivery} send, ${senderCount} sender${senderCount > 1 ? 's' : ''}, sendBatch`,
            value,
            'msg/s',
            method,
          );
        }
      }
      const best = runs.reduce((a, b) => (b.value > a.value ? b : a));
      results.add(
        SECTION,
        `service ${delivery} send — best`,
        best.value,
        'msg/s',
        best.method,
        delivery === 'recoverable' ? RECOVERABLE_TARGET : null,
      );

      const n = counts.serviceReceiveMessages;
      const receives: { method: string; value: number }[] = [];
      {
        const value = await bestOf(ROUNDS, async () => {
          const q = await freshQueue(admin, `recv-${delivery}`);
          await fillThroughService(admin, q, delivery, n);
          let count = 0;
          const started = now();
          for (;;) {
            const { messages } = await admin
              .receiveBatch({ path: q, max: 1_000, timeoutMs: 0 })
              .catch((e: { code?: string }) => {
                if (e.code === 'IO_TIMEOUT') return { messages: [] };
                throw e;
              });
            if (messages.length === 0) break;
            count += messages.length;
          }
          const elapsed = now() - started;
          if (count !== n) throw new Error(`received ${count} of ${n}`);
          return rate(count, elapsed);
        });
        const method = `${n.toLocaleString('en-US')} msgs, 1 receiver, receiveBatch max 1,000, one at a time; best of ${ROUNDS}`;
        receives.push({ method, value });
        results.add(SECTION, `service ${delivery} receive, receiveBatch`, value, 'msg/s', method);
      }
      {
        const q = await freshQueue(admin, `recv-${delivery}`);
        await fillThroughService(admin, q, delivery, n);
        const { count, ms } = await receiveSingles(
          () => admin.receive({ path: q, timeoutMs: 0 }),
          RECEIVE_WINDOW,
          20_000,
        );
        const value = rate(count, ms);
        const method = `${count.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} msgs, 1 receiver, single receive, ${RECEIVE_WINDOW} in flight${count < n ? ' (stopped at the 20 s cap)' : ''}`;
        receives.push({ method, value });
        results.add(SECTION, `service ${delivery} receive, single receives`, value, 'msg/s', method);
        await admin.queuePurge({ path: q });
      }
      const bestReceive = receives.reduce((a, b) => (b.value > a.value ? b : a));
      results.add(
        SECTION,
        `service ${delivery} receive — best`,
        bestReceive.value,
        'msg/s',
        bestReceive.method,
        delivery === 'recoverable' ? RECOVERABLE_TARGET : null,
      );
    }

    // Latency of one send at a time: what a simple application that awaits every send sees.
    for (const delivery of ['recoverable', 'express'] as const) {
      const q = await freshQueue(admin, `lat-${delivery}`);
      const m = { path: q, message: message(delivery) };
      for (let i = 0; i < 100; i++) await admin.send(m);
      const samples: number[] = [];
      for (let i = 0; i < counts.latencySamples; i++) {
        const t0 = now();
        await admin.send(m);
        samples.push(now() - t0);
      }
      const method = `1 sender, one send at a time, ${counts.latencySamples.toLocaleString('en-US')} samples after 100 warm-up`;
      results.add(SECTION, `service ${delivery} send latency p50`, percentile(samples, 50), 'ms', method);
      results.add(SECTION, `service ${delivery} send latency p99`, percentile(samples, 99), 'ms', method);
      await admin.queuePurge({ path: q });
    }
  } finally {
    await svc.stop();
  }
}

/** Total rate of senders that ran side by side: all messages over the longest elapsed time. */
function aggregate(runs: { count: number; ms: number }[]): number {
  const count = runs.reduce((s, r) => s + r.count, 0);
  const ms = Math.max(...runs.map((r) => r.ms));
  return rate(count, ms);
}
