import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QkEvent } from '@qk/api';
import { AUDIT_FILE, LOCK_FILE, ServiceHost } from '@qk/service';
import { fakeEngineFactory } from './fake-engine.js';
import { tempDataDir } from './helpers.js';

describe('ServiceHost', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function openHost(): { host: ServiceHost; log: ReturnType<typeof fakeEngineFactory>['log']; dir: string } {
    const { dir, cleanup } = tempDataDir();
    const fake = fakeEngineFactory();
    const host = ServiceHost.open({ dataDir: dir, openEngine: fake.open });
    cleanups.push(cleanup, () => host.close());
    return { host, log: fake.log, dir };
  }

  it('refuses an unknown operation and invalid input with INVALID_PARAMETER', async () => {
    const { host } = openHost();
    expect(await host.call('noSuchThing', {})).toEqual({
      ok: false,
      error: { code: 'INVALID_PARAMETER', message: "Unknown operation 'noSuchThing'." },
    });
    const bad = await host.call('queueShow', { path: 42 });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMETER', message: expect.stringContaining('path') },
    });
  });

  it('dispatches to the engine and maps engine errors through toErrorBody', async () => {
    const { host } = openHost();
    expect(await host.call('queueCreate', { path: '.\\private$\\a' })).toMatchObject({
      ok: true,
      value: { path: '.\\private$\\a' },
    });
    expect(await host.call('queueShow', { path: '.\\private$\\zz' })).toMatchObject({
      ok: false,
      error: { code: 'QUEUE_NOT_FOUND' },
    });
    expect((await host.handlers.queueList({})).map((q) => q.path)).toEqual(['.\\private$\\a']);
  });

  it('forwards engine events and restarts in place with a serviceRestarted event', async () => {
    const { host, log } = openHost();
    const events: QkEvent[] = [];
    host.subscribe((e) => events.push(e));
    await host.call('queueCreate', { path: '.\\private$\\a' });
    const status = await host.call('serviceRestart', {});
    expect(status).toMatchObject({ ok: true, value: { name: 'FAKE' } });
    expect(log).toMatchObject({ opened: 2, closed: 1 });
    await host.call('queueCreate', { path: '.\\private$\\b' });
    expect(events.map((e) => e.type)).toEqual(['queueCreated', 'serviceRestarted', 'queueCreated']);
  });

  it('makes calls that arrive during a restart wait for the new engine', async () => {
    const { host } = openHost();
    const restarting = host.restart();
    const during = host.call('queueList', {});
    await restarting;
    expect(await during).toEqual({ ok: true, value: [] });
  });

  it('refuses a second host on the same folder and allows one after close', async () => {
    const { host, dir } = openHost();
    expect(() => ServiceHost.open({ dataDir: dir, openEngine: fakeEngineFactory().open })).toThrow(
      expect.objectContaining({ code: 'SERVICE_ALREADY_RUNNING' }),
    );
    await host.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const again = ServiceHost.open({ dataDir: dir, openEngine: fakeEngineFactory().open });
    await again.close();
  });

  it('asks its host to stop only after answering serviceStop', async () => {
    const { host } = openHost();
    const order: string[] = [];
    host.onStopRequested(() => order.push('stop requested'));
    const reply = await host.call('serviceStop', {});
    order.push('replied');
    expect(reply).toEqual({ ok: true, value: {} });
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['replied', 'stop requested']);
  });

  it('answers SERVICE_NOT_AVAILABLE after close', async () => {
    const { host } = openHost();
    await host.close();
    expect(await host.call('queueList', {})).toMatchObject({ ok: false, error: { code: 'SERVICE_NOT_AVAILABLE' } });
  });

  it('releases the lock when the engine cannot open', () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const broken = () => {
      throw Object.assign(new Error('corrupt'), { code: 'STORE_CORRUPT' });
    };
    expect(() => ServiceHost.open({ dataDir: dir, openEngine: broken })).toThrow('corrupt');
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('audits admin actions but not reads', async () => {
    const { host, dir } = openHost();
    await host.call('queueCreate', { path: '.\\private$\\audited' });
    await host.call('queueList', {});
    await host.call('queueDelete', { path: '.\\private$\\nope' });
    await host.close();
    const lines = readFileSync(join(dir, AUDIT_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((l): unknown => JSON.parse(l));
    expect(lines).toMatchObject([
      { op: 'queueCreate', target: '.\\private$\\audited', ok: true },
      { op: 'queueDelete', target: '.\\private$\\nope', ok: false, code: 'QUEUE_NOT_FOUND' },
    ]);
  });

  it('ties transactions to the connection that began them', async () => {
    const { host, log } = openHost();
    const begun = (await host.call('transactionBegin', {}, { connectionId: 'ws-7' })) as {
      ok: true;
      value: { transaction: string };
    };
    const other = (await host.call('transactionBegin', {}, { connectionId: 'ws-8' })) as {
      ok: true;
      value: { transaction: string };
    };
    host.transactions.connectionClosed('ws-7');
    expect(log.abortedTransactions).toEqual([begun.value.transaction]);
    expect(await host.call('transactionCommit', { transaction: other.value.transaction })).toEqual({
      ok: true,
      value: {},
    });
    expect(host.transactions.size).toBe(0);
  });
  it('R-S1 a subqueue a refused call opened is gone before the next call of the same turn reads the queues; one a waiting receive holds stays', async () => {
    const { dir, cleanup } = tempDataDir();
    const host = ServiceHost.open({ dataDir: dir });
    cleanups.push(cleanup, () => host.close());
    await host.call('queueCreate', { path: '.\\private$\\orders' });
    const paths = (envelope: { ok: boolean; value?: unknown }): string[] =>
      (envelope.value as { path: string }[]).map((q) => q.path);
    // Two frames of one chunk: the second call starts before the first has answered.
    const [refused, listed] = await Promise.all([
      host.call('messageDelete', { path: '.\\private$\\orders;poison', lookupId: 49 }),
      host.call('queueList', {}),
    ]);
    expect(refused).toMatchObject({ ok: false, error: { code: 'MESSAGE_NOT_FOUND' } });
    expect(paths(listed)).not.toContain('.\\private$\\orders;poison');

    const waiting = host.call('receive', { path: '.\\private$\\orders;held', timeoutMs: 60_000 });
    expect(paths(await host.call('queueList', {}))).toContain('.\\private$\\orders;held');
    await host.call('send', { path: '.\\private$\\orders', message: { label: 'moved' } });
    const browsed = await host.call('browse', { path: '.\\private$\\orders' });
    const lookupId = browsed.ok ? (browsed.value as { messages: { lookupId: number }[] }).messages[0]?.lookupId : 0;
    expect(
      await host.call('messageMove', { path: '.\\private$\\orders', lookupId, target: '.\\private$\\orders;held' }),
    ).toMatchObject({ ok: true });
    expect(await waiting).toMatchObject({ ok: true, value: { label: 'moved' } });
  });
});
