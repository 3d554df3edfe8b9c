/**
 * Purge kill drill (issue 11, logical purge): a purge of a large queue answers before its rows are deleted
 * (core/engine/src/reclaimer.ts); the service is killed with SIGKILL while that deletion runs in the
 * background, and started again. Nothing purged comes back, nothing sent after the purge is lost, and every
 * NACK the purged messages asked for (R-P3) is there exactly once in the end.
 */
import { afterAll, expect, test } from 'vitest';
import { DrillService } from './support/service-process.js';
import { Random } from './support/random.js';
import { sized } from './support/size.js';

const TRIALS = sized(1, 4);
/** Well over what a purge deletes before it answers (10,000). */
const FILL = sized(30_000, 100_000);
const NACK_EVERY = 1_000;
const AFTER = 10;
const NACK_Q_PURGED = 0xc001;

const service = new DrillService();
afterAll(() => service.dispose());

interface Page {
  total: number;
  messages: { label: string; classCode: number }[];
}

async function labelsOf(path: string): Promise<Page['messages']> {
  const found: Page['messages'] = [];
  for (let offset = 0; ; offset += 1_000) {
    const page = await service.api().value<Page>('browse', { path, offset, limit: 1_000 });
    found.push(...page.messages);
    if (page.messages.length === 0 || offset + page.messages.length >= page.total) return found;
  }
}

test('purge kill drill: SIGKILL while a purge is deleted in the background revives nothing and loses nothing', async () => {
  const random = Random.fromEnv();
  await service.start();
  for (let trial = 0; trial < TRIALS; trial++) {
    const queue = `.\\private$\\purge-kill-${trial}`;
    const admin = `.\\private$\\purge-kill-admin-${trial}`;
    await service.api().value('queueCreate', { path: queue });
    await service.api().value('queueCreate', { path: admin });
    for (let start = 0; start < FILL; start += 5_000) {
      const messages = Array.from({ length: 5_000 }, (_, k) => {
        const i = start + k;
        const nack = i % NACK_EVERY === 0;
        return {
          path: queue,
          message: {
            label: `before-${i}`,
            body: 'x'.repeat(200),
            delivery: 'recoverable',
            ...(nack ? { acknowledge: 0x08, adminQueue: admin } : {}),
          },
        };
      });
      await service.api().value('sendBatch', { messages });
    }
    const { purged } = await service.api().value<{ purged: number }>('queuePurge', { path: queue });
    expect(purged).toBe(FILL);
    for (let i = 0; i < AFTER; i++)
      await service.api().value('send', { path: queue, message: { label: `after-${i}`, delivery: 'recoverable' } });
    // A random moment of the background deletion (a few seconds for the whole of it on this machine).
    await new Promise((resolve) => setTimeout(resolve, random.int(0, 150)));
    await service.kill9();
    await service.start();

    const left = await labelsOf(queue);
    expect(left.map((m) => m.label).sort()).toEqual(Array.from({ length: AFTER }, (_, i) => `after-${i}`).sort());
    const expected = FILL / NACK_EVERY;
    let nacks: Page['messages'] = [];
    for (let i = 0; i < 600 && nacks.length < expected; i++) {
      nacks = (await labelsOf(admin)).filter((m) => m.classCode === NACK_Q_PURGED);
      if (nacks.length < expected) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Exactly once each: a chunk's NACKs commit with the deletion of its rows.
    expect(nacks.map((m) => m.label).sort()).toEqual(
      Array.from({ length: expected }, (_, k) => `before-${k * NACK_EVERY}`).sort(),
    );
    const shown = await service.api().value<{ messageCount: number }>('queueShow', { path: queue });
    expect(shown.messageCount).toBe(AFTER);
  }
}, 600_000);
