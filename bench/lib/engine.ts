/** Section `engine`: send and receive rates of the queue manager called directly, in this process. */
import { openQueueManager, type Clock, type QueueManagerApi } from '@qk/engine';
import { batchItems, message, type DeliveryName } from './body.js';
import { tempFolder, trackCloser } from './cleanup.js';
import type { Counts } from './config.js';
import type { Results, Target } from './results.js';
import { bestOf, inFlight, now, rate } from './stats.js';

const SECTION = 'engine';
const EXPRESS_TARGET: Target = { op: '>=', value: 100_000 };
/** Throughput runs are repeated and the best kept: the machine is shared, and noise only ever slows a run down. */
export const ROUNDS = 2;

/** Opens a queue manager on a data folder; close() is registered with the cleanup. */
export function openEngine(dataDir: string, clock?: Clock): QueueManagerApi & { dispose(): Promise<void> } {
  const qm = openQueueManager({ dataDir, name: 'BENCH', ...(clock ? { clock } : {}) });
  const untrack = trackCloser(() => qm.close());
  return Object.assign(qm, {
    async dispose() {
      untrack();
      await qm.close();
    },
  });
}

let queueNumber = 0;
/** A fresh private queue; every run starts on an empty one. */
export function freshQueue(
  qm: QueueManagerApi,
  tag: string,
  options: { journal?: boolean; retention?: boolean } = {},
): string {
  const path = `.\\private$\\bench-${tag}-${++queueNumber}`;
  qm.createQueue({ path, ...options });
  return path;
}

/** sendBatch of `batch` messages, `lanes` batches in flight. Returns milliseconds. */
export function sendBatches(
  qm: QueueManagerApi,
  path: string,
  delivery: DeliveryName,
  total: number,
  batch: number,
  lanes: number,
): Promise<number> {
  const items = batchItems(path, delivery, batch);
  const batches = Math.ceil(total / batch);
  return inFlight(batches, lanes, (i) =>
    qm.sendBatch(i === batches - 1 && total % batch !== 0 ? items.slice(0, total % batch) : items),
  );
}

/** Fills a queue (not timed) with sendBatch. */
export async function fill(
  qm: QueueManagerApi,
  path: string,
  delivery: DeliveryName,
  total: number,
  batch = 1_000,
): Promise<number> {
  return sendBatches(qm, path, delivery, total, batch, 4);
}

function expectCount(qm: QueueManagerApi, path: string, expected: number): void {
  const count = qm.showQueue(path).messageCount;
  if (count !== expected) throw new Error(`${path} holds ${count} messages, expected ${expected}`);
}

/** Drains with receiveBatch(max); returns messages and ms. */
export async function receiveBatches(
  qm: QueueManagerApi,
  path: string,
  max: number,
): Promise<{ count: number; ms: number }> {
  let count = 0;
  const started = now();
  for (;;) {
    const got = await qm.receiveBatch({ path, max, timeoutMs: 0 }).catch((e: { code?: string }) => {
      if (e.code === 'IO_TIMEOUT') return [];
      throw e;
    });
    if (got.length === 0) break;
    count += got.length;
  }
  return { count, ms: now() - started };
}

/** Drains with single receives, `lanes` in flight, for at most capMs. */
export async function receiveSingles(
  receive: () => Promise<unknown>,
  lanes: number,
  capMs: number,
): Promise<{ count: number; ms: number }> {
  let count = 0;
  let empty = false;
  const started = now();
  const deadline = started + capMs;
  const lane = async (): Promise<void> => {
    while (!empty && now() < deadline) {
      try {
        await receive();
        count++;
      } catch (error) {
        if ((error as { code?: string }).code === 'IO_TIMEOUT') empty = true;
        else throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return { count, ms: now() - started };
}

export async function runEngine(results: Results, counts: Counts): Promise<void> {
  const qm = openEngine(tempFolder('engine'));
  try {
    const n = counts.engineMessages;
    // Warm-up: JIT, statement caches, the store's first pages.
    const warm = freshQueue(qm, 'warm');
    for (const delivery of ['express', 'recoverable'] as const) {
      await sendBatches(qm, warm, delivery, 5_000, 1_000, 2);
      await inFlight(2_000, 200, () => qm.send(warm, message(delivery)));
      await receiveBatches(qm, warm, 1_000);
    }

    // Rounds end by deleting their queue. Its first 10,000 rows go with the deletion, the rest in the background
    // (reclaimer.ts) while the next round runs, in short units of work between its calls, as on a busy service.
    for (const delivery of ['express', 'recoverable'] as const) {
      const sends: { label: string; value: number }[] = [];
      const record = (label: string, value: number, method: string): void => {
        sends.push({ label: method, value });
        results.add(SECTION, `in-process ${delivery} send, ${label}`, value, 'msg/s', method);
      };
      const counted = `${n.toLocaleString('en-US')} msgs`;
      for (const lanes of [1, 4]) {
        const value = await bestOf(ROUNDS, async () => {
          const q = freshQueue(qm, `send-${delivery}`);
          const ms = await sendBatches(qm, q, delivery, n, 1_000, lanes);
          expectCount(qm, q, n);
          await qm.deleteQueue(q);
          return rate(n, ms);
        });
        record(
          `sendBatch ×${lanes}`,
          value,
          `${counted}, sendBatch of 1,000, ${lanes} batch${lanes > 1 ? 'es' : ''} in flight; best of ${ROUNDS}`,
        );
      }
      {
        const m = message(delivery);
        const value = await bestOf(ROUNDS, async () => {
          const q = freshQueue(qm, `send-${delivery}`);
          const ms = await inFlight(n, 1_000, () => qm.send(q, m));
          expectCount(qm, q, n);
          await qm.deleteQueue(q);
          return rate(n, ms);
        });
        record('concurrent send', value, `${counted}, single send(), 1,000 promises in flight; best of ${ROUNDS}`);
      }
      const best = sends.reduce((a, b) => (b.value > a.value ? b : a));
      results.add(
        SECTION,
        `in-process ${delivery} send — best`,
        best.value,
        'msg/s',
        best.label,
        delivery === 'express' ? EXPRESS_TARGET : null,
      );

      const receives: { label: string; value: number }[] = [];
      {
        const value = await bestOf(ROUNDS, async () => {
          const q = freshQueue(qm, `recv-${delivery}`);
          await fill(qm, q, delivery, n);
          const { count, ms } = await receiveBatches(qm, q, 1_000);
          if (count !== n) throw new Error(`received ${count} of ${n}`);
          return rate(count, ms);
        });
        const method = `${counted}, receiveBatch max 1,000, one at a time; best of ${ROUNDS}`;
        receives.push({ label: method, value });
        results.add(SECTION, `in-process ${delivery} receive, receiveBatch`, value, 'msg/s', method);
      }
      // Concurrent single receives: a modest window as an application would use, then a deep one (capped),
      // because every receive in flight makes the next one scan past it.
      for (const [lanes, capMs] of [
        [16, 10_000],
        [1_000, 5_000],
      ] as const) {
        const q = freshQueue(qm, `recv-${delivery}`);
        await fill(qm, q, delivery, n);
        const { count, ms } = await receiveSingles(() => qm.receive({ path: q, timeoutMs: 0 }), lanes, capMs);
        const method = `${count.toLocaleString('en-US')} of ${counted}, single receive(), ${lanes.toLocaleString('en-US')} in flight${count < n ? ` (stopped at the ${capMs / 1000} s cap)` : ''}`;
        receives.push({ label: method, value: rate(count, ms) });
        results.add(
          SECTION,
          `in-process ${delivery} receive, concurrent receive ×${lanes}`,
          rate(count, ms),
          'msg/s',
          method,
        );
        await qm.deleteQueue(q);
      }
      const bestReceive = receives.reduce((a, b) => (b.value > a.value ? b : a));
      results.add(
        SECTION,
        `in-process ${delivery} receive — best`,
        bestReceive.value,
        'msg/s',
        bestReceive.label,
        delivery === 'express' ? EXPRESS_TARGET : null,
      );
    }
  } finally {
    await qm.dispose();
  }
}
