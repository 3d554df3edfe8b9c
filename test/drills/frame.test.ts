/**
 * The drills' own frame: a real service process can be crashed with SIGKILL, during recovery too, and started
 * again on the same folder; what it confirmed before the crash is read back through the HTTP API; its memory
 * is measured from /proc. Every other drill stands on these.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { DrillService } from './support/service-process.js';

const service = new DrillService();
afterAll(() => service.dispose());

describe('drill frame', () => {
  test('R-V1 a recoverable message confirmed before SIGKILL is read back after a restart, even after a crash during recovery', async () => {
    await service.start();
    const path = '.\\private$\\frame';
    await service.api().value('queueCreate', { path });
    const { id } = await service.api().value<{ id: string }>('send', {
      path,
      message: { label: 'kept', body: 'survives kill -9', delivery: 'recoverable' },
    });
    const rss = service.rss();
    expect(rss.currentKB).toBeGreaterThan(10_000);
    expect(rss.peakKB).toBeGreaterThanOrEqual(rss.currentKB);

    await service.kill9();
    expect(service.running).toBe(false);
    // Killed again while it opens the store (or just after): the lock and service.json it leaves are stale.
    await service.startAndKill(150);
    await service.start();

    const page = await service
      .api()
      .value<{ total: number; messages: { id: string; body: string | null }[] }>('browse', { path, includeBody: true });
    expect(page.messages.map((m) => [m.id, m.body])).toEqual([[id, 'survives kill -9']]);
    expect(service.kills).toBe(2);
  });

  test('a call to a killed service ends without a reply, not with an answer', async () => {
    const api = service.api();
    await service.kill9();
    const outcome = await api.call('serviceStatus', {});
    expect(outcome.kind).toBe('no-reply');
  });
});
