import { afterEach, describe, expect, it } from 'vitest';
import { ServiceHost } from '@qk/service';
import { CallMonitor, replyItemsOf } from '../../../core/service/src/host/call-monitor.js';
import { fakeEngineFactory } from './fake-engine.js';
import { tempDataDir } from './helpers.js';
import { recordingLogger } from './recording-logger.js';

/** A monitor on a clock the test moves by hand; tick() is called by the test, never by a timer. */
function manual(options: { slowCallMs?: number; stallMs?: number } = {}) {
  let now = 1_000;
  const logger = recordingLogger();
  const monitor = new CallMonitor({
    logger,
    sampleMs: 100,
    slowCallMs: 1_000,
    stallMs: 500,
    now: () => now,
    ...options,
  });
  return {
    monitor,
    logger,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('CallMonitor: slow calls and event-loop stalls in the service log (issue 7)', () => {
  it('logs a call slower than the threshold with its operation, duration and sizes — never its body', () => {
    const { monitor, logger, advance } = manual();
    const secret = 'body-that-must-not-be-logged';
    const end = monitor.begin(
      'sendBatch',
      { path: '.\\private$\\orders', messages: [{ body: secret }] },
      { inputBytes: 1234, connectionId: 'ws-7' },
    );
    advance(1_500);
    end({ ok: true, replyItems: 1 });
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        context: {
          op: 'sendBatch',
          durationMs: 1_500,
          target: '.\\private$\\orders',
          inputBytes: 1234,
          connectionId: 'ws-7',
          ok: true,
          replyItems: 1,
        },
        message: 'A call took 1500 ms: sendBatch',
      },
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain(secret);
    expect(monitor.totals.slowCalls).toBe(1);
  });

  it('does not count the wait a receive asked for, nor a fast call, nor a stream', () => {
    const { monitor, logger, advance } = manual();
    const waited = monitor.begin('receive', { path: '.\\private$\\q', timeoutMs: 30_000 });
    const fast = monitor.begin('queueList', {});
    advance(900);
    fast({ ok: true, replyItems: 3 });
    const stream = monitor.begin('consume', { path: '.\\private$\\q' });
    advance(29_500);
    waited({ ok: false, code: 'IO_TIMEOUT' });
    stream({ ok: true });
    expect(logger.lines).toEqual([]);
    // The same receive taking a second and a half more than its wait is slow.
    const late = monitor.begin('receive', { path: '.\\private$\\q', timeoutMs: 100 });
    advance(1_600);
    late({ ok: false, code: 'IO_TIMEOUT' });
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.context).toMatchObject({
      op: 'receive',
      durationMs: 1_600,
      waitMs: 100,
      code: 'IO_TIMEOUT',
    });
  });

  it('cuts a hostile path to a readable length', () => {
    const { monitor, logger, advance } = manual();
    const end = monitor.begin('queueShow', { path: `.\\private$\\${'q'.repeat(70_000)}` });
    advance(2_000);
    end({ ok: false, code: 'ILLEGAL_QUEUE_PATHNAME' });
    const target = String(logger.lines[0]?.context['target']);
    expect(target.length).toBeLessThan(260);
    expect(target).toMatch(/… \(70011 characters\)$/);
  });

  it('names the calls that ran during a stall: the ones in flight and the ones that ended since the previous tick', () => {
    const { monitor, logger, advance } = manual({ slowCallMs: 60_000 });
    monitor.start();
    monitor.stop();
    const before = monitor.begin('browse', { path: '.\\private$\\early' });
    advance(50);
    before({ ok: true });
    monitor.tick(); // on time: nothing to say, and the call above is forgotten
    expect(logger.lines).toEqual([]);

    const purge = monitor.begin('queuePurge', { path: '.\\private$\\huge' }, { inputBytes: 40 });
    const waiting = monitor.begin('receive', { path: '.\\private$\\q', timeoutMs: 60_000 });
    advance(3_000);
    purge({ ok: true });
    advance(100);
    monitor.tick();
    expect(logger.lines).toHaveLength(1);
    const [line] = logger.lines;
    expect(line?.message).toBe('The event loop was held for 3000 ms');
    expect(line?.context).toMatchObject({
      stallMs: 3_000,
      callsDuring: 2,
      calls: [
        { op: 'queuePurge', target: '.\\private$\\huge', inputBytes: 40, runningMs: 3_000, state: 'ended' },
        { op: 'receive', target: '.\\private$\\q', runningMs: 3_100, state: 'in flight' },
      ],
    });
    expect(monitor.totals).toMatchObject({ stalls: 1, longestStallMs: 3_000 });
    waiting({ ok: true });
  });

  it('a stall with no call running says so (background work or the machine)', () => {
    const { monitor, logger, advance } = manual();
    monitor.start();
    monitor.stop();
    advance(2_100);
    monitor.tick();
    expect(logger.lines[0]?.context).toEqual({ stallMs: 2_000, callsDuring: 0, calls: [] });
  });

  it('counts the items of a list reply', () => {
    expect(replyItemsOf([1, 2, 3])).toBe(3);
    expect(replyItemsOf({ total: 9, messages: [1, 2] })).toBe(2);
    expect(replyItemsOf({ messageCount: 2 })).toBeUndefined();
    expect(replyItemsOf(null)).toBeUndefined();
  });
});

describe('ServiceHost: a call that holds the event loop is logged twice, as slow and as a stall', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('names the operation and the queue, through the real drift timer', async () => {
    const { dir, cleanup } = tempDataDir();
    const logger = recordingLogger();
    const fake = fakeEngineFactory();
    const blockFor = (ms: number): void => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // Holding the loop on purpose: what a purge of a huge queue did before it was bounded.
      }
    };
    const host = ServiceHost.open({
      dataDir: dir,
      logger,
      monitor: { slowCallMs: 100, stallMs: 150 },
      openEngine: () =>
        Object.assign(fake.open(), {
          purgeQueue: () => {
            blockFor(400);
            return Promise.resolve(0);
          },
        }),
    });
    cleanups.push(cleanup, () => host.close());
    await host.call('queuePurge', { path: '.\\private$\\huge' }, { inputBytes: 33 });
    // The drift timer runs on the next timers phase.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const monitorLines = logger.lines.filter((l) => l.context['component'] === 'monitor');
    expect(monitorLines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/^A call took \d+ ms: queuePurge$/),
        context: expect.objectContaining({ op: 'queuePurge', target: '.\\private$\\huge', inputBytes: 33 }),
      }),
    );
    const stall = monitorLines.find((l) => /^The event loop was held/.test(l.message));
    expect(stall?.context['calls']).toContainEqual(
      expect.objectContaining({ op: 'queuePurge', target: '.\\private$\\huge', state: 'ended' }),
    );
  });
});
