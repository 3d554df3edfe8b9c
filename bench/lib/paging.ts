/**
 * Section `paging`: a queue of a million recoverable messages — first, middle and last page of `browse`,
 * in-process and through the service, then purge of the whole queue: what the caller waits for, how long the
 * deletion of its rows then runs in the background, and the slowest call meanwhile.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { QkClient } from '@qk/client';
import { STORE_FILE } from '@qk/store';
import { tempFolder } from './cleanup.js';
import type { Counts } from './config.js';
import { fill, openEngine } from './engine.js';
import type { Results, Target } from './results.js';
import { startService } from './service.js';
import { median, now, rate } from './stats.js';

const SECTION = 'paging';
const PAGE_TARGET: Target = { op: '<=', value: 50 };
const PURGE_TARGET: Target = { op: '<=', value: 3_000 };
const PAGE = 100;
const WARM_REPEATS = 5;
export const BIG_QUEUE = '.\\private$\\big';

type Browse = (offset: number) => Promise<{ total: number; messages: unknown[] }>;

/** Times the first call of each page (cold) and the median of WARM_REPEATS more (warm). */
async function timePages(results: Results, where: string, total: number, browse: Browse): Promise<void> {
  const middle = Math.floor(total / 2 / PAGE) * PAGE;
  const pages: [string, number][] = [
    ['first', 0],
    ['middle', middle],
    ['last', total - PAGE],
  ];
  for (const [name, offset] of pages) {
    const t0 = now();
    const page = await browse(offset);
    const cold = now() - t0;
    if (page.total !== total || page.messages.length !== PAGE)
      throw new Error(
        `browse at ${offset} gave ${page.messages.length} of total ${page.total}, expected ${PAGE} of ${total}`,
      );
    const warm: number[] = [];
    for (let i = 0; i < WARM_REPEATS; i++) {
      const t1 = now();
      await browse(offset);
      warm.push(now() - t1);
    }
    const method = `browse offset ${offset.toLocaleString('en-US')}, limit ${PAGE}, queue of ${total.toLocaleString('en-US')}`;
    results.add(SECTION, `${where} ${name} page (first call)`, cold, 'ms', method, PAGE_TARGET);
    results.add(
      SECTION,
      `${where} ${name} page (warm, median of ${WARM_REPEATS})`,
      median(warm),
      'ms',
      method,
      PAGE_TARGET,
    );
  }
}

export async function runPaging(root: string, results: Results, counts: Counts): Promise<void> {
  const total = counts.bigQueue;
  const dir = tempFolder('paging');
  {
    const qm = openEngine(dir);
    try {
      qm.createQueue({ path: BIG_QUEUE });
      const ms = await fill(qm, BIG_QUEUE, 'recoverable', total, 1_000);
      results.add(
        SECTION,
        `in-process fill of the ${total.toLocaleString('en-US')} queue`,
        rate(total, ms),
        'msg/s',
        'recoverable, sendBatch of 1,000, 4 in flight',
      );
      if (qm.showQueue(BIG_QUEUE).messageCount !== total) throw new Error('the big queue was not filled');
      await timePages(results, 'in-process', total, async (offset) =>
        qm.browse({ path: BIG_QUEUE, offset, limit: PAGE }),
      );
    } finally {
      await qm.dispose();
    }
  }

  const svc = await startService(root, dir);
  try {
    results.add(
      SECTION,
      `service start with ${total.toLocaleString('en-US')} messages to ready`,
      svc.startMs,
      'ms',
      'spawn of `qk service start` to its ready line',
    );
    const client: QkClient = await svc.client();
    await timePages(results, 'service', total, (offset) => client.browse({ path: BIG_QUEUE, offset, limit: PAGE }));
    const t0 = now();
    const { purged } = await client.queuePurge({ path: BIG_QUEUE });
    const ms = now() - t0;
    if (purged !== total) throw new Error(`purge removed ${purged} of ${total}`);
    results.add(
      SECTION,
      `purge of the ${total.toLocaleString('en-US')} queue`,
      ms,
      'ms',
      'queuePurge through the service (WebSocket), recoverable messages',
      PURGE_TARGET,
    );
    await timeReclaim(results, client, path.join(dir, STORE_FILE), total);
  } finally {
    await svc.stop();
  }
}

/**
 * After a purge: how long its rows take to be deleted in the background (core/engine/src/reclaimer.ts), told
 * by a read-only connection to the store (no purged bucket left), and the slowest of small calls to the
 * service meanwhile — the longest the deletion held the service's event loop, plus the call's own cost.
 */
async function timeReclaim(results: Results, client: QkClient, storeFile: string, total: number): Promise<void> {
  const reader = new Database(storeFile, { readonly: true, fileMustExist: true });
  try {
    const pending = reader.prepare(`SELECT EXISTS (SELECT 1 FROM dead_buckets) AS pending`);
    const t0 = now();
    const calls: number[] = [];
    while ((pending.get() as { pending: number }).pending === 1) {
      if (now() - t0 > 300_000) throw new Error('the purged rows were not deleted within 300 s');
      const t1 = now();
      await client.queueShow({ path: BIG_QUEUE });
      calls.push(now() - t1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ms = now() - t0;
    const counted = `${total.toLocaleString('en-US')} purged rows`;
    results.add(
      SECTION,
      `purge: rows deleted in the background`,
      ms,
      'ms',
      `${counted}, from the purge's answer until the store has no purged bucket (read-only connection)`,
    );
    results.add(
      SECTION,
      `purge: slowest call during the background deletion`,
      calls.length > 0 ? Math.max(...calls) : 0,
      'ms',
      `queueShow through the service every 20 ms while ${counted} were deleted (${calls.length} calls, median ${calls.length > 0 ? median(calls).toFixed(1) : '-'} ms)`,
    );
  } finally {
    reader.close();
  }
}
