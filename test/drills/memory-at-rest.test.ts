/**
 * Memory at rest drill: a burst of recoverable sends into one service process, then nothing. The burst grows the
 * V8 heap (messages in flight are promoted and scattered over the old space); once the service is quiet it must
 * give that memory back — its heap compacted (logged in logs/service.log) and its resident memory well under what
 * the burst left — rather than keep it for as long as it is left alone, as it did before the heap trimmer
 * (core/service/src/host/heap-trimmer.ts): 371 MB at rest after 1,000,000 sends, 286 MB with it. The rows the
 * engine kept for receives go with that compaction, so the first messages received afterwards are read back
 * from the store: they must come in order and whole.
 */
import { afterAll, expect, test } from 'vitest';
import { delay } from '../helpers/service-harness.js';
import { count, reportFigures } from './support/figures.js';
import { serviceLogLines } from './support/service-log.js';
import { DrillService } from './support/service-process.js';
import { sized } from './support/size.js';

const MESSAGES = sized(200_000, 1_000_000);
const BATCH = 1_000;
const IN_FLIGHT = 4;
/** How long the service may take to notice it is quiet and compact (it looks every 500 ms). */
const REST_WAIT_MS = 10_000;
const PATH = '.\\private$\\memory-burst';
const BODY = 'm'.repeat(200);

const service = new DrillService();
afterAll(() => service.dispose());

function compactionLines(): { msg: string }[] {
  return serviceLogLines(service.dataDir).filter((line) => line.msg.includes('The heap was compacted'));
}

test('after a burst of sends the service gives its heap back once it is quiet', { timeout: 300_000 }, async () => {
  await service.start();
  const api = service.api();
  await api.value('queueCreate', { path: PATH });
  const idleKB = service.rss().currentKB;

  const started = Date.now();
  let next = 0;
  const sender = async (): Promise<void> => {
    while (next < MESSAGES) {
      const first = next;
      next += BATCH;
      const messages = Array.from({ length: Math.min(BATCH, MESSAGES - first) }, (_, k) => ({
        path: PATH,
        message: { label: `burst-${first + k}`, body: BODY, delivery: 'recoverable' },
      }));
      await api.value('sendBatch', { messages });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  const burstMs = Date.now() - started;
  const afterBurstKB = service.rss().currentKB;
  const compactionsDuringBurst = compactionLines().length;

  let restKB = afterBurstKB;
  let waitedMs = 0;
  const restStarted = Date.now();
  while (Date.now() - restStarted < REST_WAIT_MS) {
    await delay(500);
    if (compactionLines().length > compactionsDuringBurst) {
      waitedMs = Date.now() - restStarted;
      // The pages are returned just after the collection: give the process a moment before reading RSS.
      await delay(1_000);
      restKB = service.rss().currentKB;
      break;
    }
  }
  const { peakKB } = service.rss();
  // The rows the service kept for receives went with the compaction: the first messages are read back whole.
  const head = await api.value<{ messages: { label: string; body: string | null }[] }>('receiveBatch', {
    path: PATH,
    max: BATCH,
  });
  // The senders' batches travel concurrently, so which batch was committed first is not fixed; each batch is
  // stored together and in order, so the queue's first BATCH messages are one whole batch, in its order.
  const firstOfHead = Number(head.messages[0]?.label.replace('burst-', '') ?? NaN);
  const headBatch = Array.from({ length: BATCH }, (_, i) => `burst-${firstOfHead + i}`);
  const headIntact =
    head.messages.length === BATCH &&
    firstOfHead % BATCH === 0 &&
    head.messages.every((m, i) => m.label === headBatch[i] && m.body === BODY);
  const shown = await api.value<{ messageCount: number }>('queueShow', { path: PATH });
  const lines = compactionLines();
  const lastLine = JSON.stringify(lines.at(-1) ?? null);
  const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MB`;
  const givenBackKB = afterBurstKB - restKB;
  const holds =
    lines.length > compactionsDuringBurst &&
    givenBackKB >= 24 * 1024 &&
    headIntact &&
    shown.messageCount === MESSAGES - BATCH;

  reportFigures({
    drill: 'memory-at-rest',
    title: 'Memory at rest',
    tried: `a burst of ${count(MESSAGES)} recoverable sends (sendBatch of ${count(BATCH)}, ${IN_FLIGHT} in flight), then nothing`,
    often: `1 burst, ${count(MESSAGES / BATCH)} calls in ${(burstMs / 1000).toFixed(1)} s`,
    lost: MESSAGES - BATCH - shown.messageCount + (headIntact ? 0 : BATCH),
    crashed: 0,
    holds,
    durationMs: Date.now() - started,
    figures: {
      'RSS idle / after the burst / at rest (high-water)': `${mb(idleKB)} / ${mb(afterBurstKB)} / ${mb(restKB)} (${mb(peakKB)})`,
      'compaction logged after the burst ended, within': waitedMs > 0 ? `${waitedMs} ms` : 'not within 10 s',
      'compactions during the burst': compactionsDuringBurst,
      'first 1,000 received at rest: one batch, in order and whole': headIntact ? 'yes' : 'no',
      'the log line': lastLine.slice(0, 300),
    },
  });

  expect(head.messages.map((m) => m.label)).toEqual(headBatch);
  expect(firstOfHead % BATCH).toBe(0);
  expect(head.messages.every((m) => m.body === BODY)).toBe(true);
  expect(shown.messageCount).toBe(MESSAGES - BATCH);
  expect(lines.length, 'no compaction was logged once the service was quiet').toBeGreaterThan(compactionsDuringBurst);
  expect(givenBackKB, `RSS after the burst ${mb(afterBurstKB)}, at rest ${mb(restKB)}`).toBeGreaterThanOrEqual(
    24 * 1024,
  );
});
