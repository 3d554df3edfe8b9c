import { afterEach, describe, expect, it } from 'vitest';
import type { QueueManagerApi } from '@qk/engine';
import { QkError } from '@qk/model';
import { ServiceHost } from '@qk/service';
import { fakeEngineFactory } from './fake-engine.js';
import { tempDataDir } from './helpers.js';
import { recordingLogger } from './recording-logger.js';

const QUIET_MONITOR = { slowCallMs: Number.POSITIVE_INFINITY, stallMs: Number.POSITIVE_INFINITY };

/** The fake engine with one method replaced. */
function engineWith(patch: Partial<QueueManagerApi>): () => QueueManagerApi {
  const fake = fakeEngineFactory();
  return () => Object.assign(fake.open(), patch);
}

describe('ServiceHost logging (issue 7, item 9)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function open(patch: Partial<QueueManagerApi>) {
    const { dir, cleanup } = tempDataDir();
    const logger = recordingLogger();
    // No slow-call or stall lines in these exact comparisons: a loaded test machine may stall (see call-monitor tests).
    const host = ServiceHost.open({ dataDir: dir, openEngine: engineWith(patch), logger, monitor: QUIET_MONITOR });
    cleanups.push(cleanup, () => host.close());
    return { host, logger };
  }

  it('logs an unexpected failure with its operation, the queue it named and the error, and answers INTERNAL', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'lookupId')");
    const { host, logger } = open({
      showQueue: () => {
        throw bug;
      },
    });
    const reply = await host.call('queueShow', { path: '.\\private$\\orders' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(logger.lines).toEqual([
      {
        level: 'error',
        context: { err: bug, op: 'queueShow', target: '.\\private$\\orders' },
        message: 'The operation queueShow failed unexpectedly',
      },
    ]);
  });

  it('does not log refusals the contract describes (bad input, MSMQ errors): they are answers, not failures', async () => {
    const { host, logger } = open({
      showQueue: () => {
        throw new QkError('QUEUE_NOT_FOUND', 'no such queue');
      },
    });
    await host.call('queueShow', { path: '.\\private$\\missing' });
    await host.call('queueShow', { path: 42 });
    expect(logger.lines).toEqual([]);
  });

  it('tells its runner when the store is broken, after logging it', async () => {
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    const { host, logger } = open({
      listQueues: () => {
        throw corrupt;
      },
    });
    const fatal: unknown[] = [];
    host.onFatalError((error) => fatal.push(error));
    await host.call('queueList', {});
    expect(fatal).toEqual([corrupt]);
    expect(logger.lines.map((line) => line.level)).toEqual(['error']);
  });

  it('logs a subscriber that throws and still delivers to the others', async () => {
    const { host, logger } = open({});
    const seen: string[] = [];
    host.subscribe(() => {
      throw new Error('broken subscriber');
    });
    host.subscribe((event) => seen.push(event.type));
    await host.call('queueCreate', { path: '.\\private$\\evented' });
    expect(seen).toContain('queueCreated');
    expect(logger.lines.some((line) => line.message === 'An event subscriber failed')).toBe(true);
  });
});
