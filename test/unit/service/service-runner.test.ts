import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceFileSchema } from '@qk/api';
import { QkClient } from '@qk/client';
import { LOCK_FILE, runService } from '@qk/service';
import { post, tempDataDir } from './helpers.js';

describe('runService', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it('writes service.json once listening and a 0600 token kept across restarts; a clean stop removes service.json and the lock', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const first = await runService({ dataDir: dir, name: 'RUNNER', consoleDir: null });
    const file = serviceFileSchema.parse(JSON.parse(readFileSync(join(dir, 'service.json'), 'utf8')));
    expect(file).toMatchObject({ url: first.url, pid: process.pid, name: 'RUNNER', id: first.host.id });
    expect(statSync(join(dir, 'token')).mode & 0o777).toBe(0o600);
    expect(first.token).toMatch(/^[0-9a-f]{64}$/);
    expect((await post(first.url, 'serviceStatus', {}, first.token)).body).toMatchObject({ value: { name: 'RUNNER' } });
    await first.stop();
    await first.stopped;
    expect(existsSync(join(dir, 'service.json'))).toBe(false);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    const second = await runService({ dataDir: dir, consoleDir: null });
    expect(second.token).toBe(first.token);
    expect(second.host.id).toBe(first.host.id);
    await second.stop();
  });

  it('stops when a client calls serviceStop', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const running = await runService({ dataDir: dir, consoleDir: null });
    expect((await post(running.url, 'serviceStop', {}, running.token)).body).toEqual({ ok: true, value: {} });
    await running.stopped;
    expect(existsSync(join(dir, 'service.json'))).toBe(false);
    await expect(fetch(`${running.url}/`)).rejects.toThrow();
  });

  it('stops when a WebSocket client calls serviceStop, after delivering the reply', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const running = await runService({ dataDir: dir, consoleDir: null });
    const client = await QkClient.connect({ url: running.url, token: running.token, transport: 'ws' });
    expect(await client.serviceStop({})).toEqual({});
    await running.stopped;
    await client.close();
    expect(existsSync(join(dir, 'service.json'))).toBe(false);
  });

  it('stops on SIGTERM when asked to handle signals, and leaves the handlers as they were', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const before = process.listenerCount('SIGTERM');
    const running = await runService({ dataDir: dir, consoleDir: null, handleSignals: true });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    process.emit('SIGTERM');
    await running.stopped;
    expect(existsSync(join(dir, 'service.json'))).toBe(false);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });

  it('refuses a second service on the same folder and leaves the first one running', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const running = await runService({ dataDir: dir, consoleDir: null });
    await expect(runService({ dataDir: dir, consoleDir: null })).rejects.toMatchObject({
      code: 'SERVICE_ALREADY_RUNNING',
    });
    expect((await post(running.url, 'serviceStatus', {}, running.token)).status).toBe(200);
    await running.stop();
  });

  it('reports a port in use as SERVICE_NOT_AVAILABLE and releases the folder', async () => {
    const a = tempDataDir();
    const b = tempDataDir();
    cleanups.push(a.cleanup, b.cleanup);
    const running = await runService({ dataDir: a.dir, consoleDir: null });
    const port = Number(new URL(running.url).port);
    await expect(
      runService({ dataDir: b.dir, consoleDir: null, listen: { host: '127.0.0.1', port } }),
    ).rejects.toMatchObject({
      code: 'SERVICE_NOT_AVAILABLE',
      message: expect.stringContaining('already in use'),
    });
    expect(existsSync(join(b.dir, LOCK_FILE))).toBe(false);
    await running.stop();
  });
});
