/**
 * `qk receive PATH --follow [--count N] [--timeout S]` (issue 11): a streaming receive that prints messages as they
 * arrive, one JSON line each with --json, never takes a message it does not print, and with --timeout stops once
 * the queue has had none for that long.
 */
import { describe, expect, it } from 'vitest';
import { qk } from './helpers.js';
import { serviceForFile } from './service-for-file.js';

const cli = serviceForFile('FOLLOWTEST');

describe('qk receive --follow', () => {
  it('--json --count N prints N JSON lines in receive order, those waiting and those that arrive, and takes no more', async () => {
    const path = '.\\private$\\follow-json';
    await cli.client.queueCreate({ path });
    await cli.client.sendBatch({ messages: [0, 1].map((i) => ({ path, message: { body: `m${i}` } })) });
    const run = qk([...cli.remote, '--json', 'receive', path, '--follow', '--count', '4']);
    await new Promise((r) => setTimeout(r, 300));
    await cli.client.sendBatch({ messages: [2, 3, 4, 5].map((i) => ({ path, message: { body: `m${i}` } })) });
    const done = await run;
    expect(done.code).toBe(0);
    const lines = done.stdout.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { body: string }).body)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect((await cli.client.queueShow({ path })).messageCount).toBe(2);
  });

  it('prints each message as a property sheet without --json, and says how many it received', async () => {
    const path = '.\\private$\\follow-human';
    await cli.client.queueCreate({ path });
    await cli.client.send({ path, message: { body: 'hello', label: 'greeting' } });
    const run = await qk([...cli.remote, 'receive', path, '--follow', '--count', '1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('greeting');
    expect(run.stdout).toContain('hello');
    expect(run.stderr).toContain('1 message received');
  });

  it('--transactional commits each message once printed', async () => {
    const path = '.\\private$\\follow-tx';
    await cli.client.queueCreate({ path, transactional: true });
    await cli.client.sendBatch({
      messages: [0, 1, 2].map((i) => ({ path, message: { body: `m${i}` }, transactional: true })),
    });
    const run = await qk([...cli.remote, '--json', 'receive', path, '--follow', '--count', '2', '--transactional']);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(2);
    const left = (await cli.client.browse({ path, includeBody: true })).messages.map((m) => m.body);
    expect(left).toEqual(['m2']);
  });

  it('refuses --count without --follow, and --follow with --lookup-id (usage, exit 2)', async () => {
    const path = '.\\private$\\follow-usage';
    for (const args of [
      ['receive', path, '--count', '3'],
      ['receive', path, '--follow', '--lookup-id', '5'],
      ['receive', path, '--follow', '--count', '0'],
    ]) {
      const run = await qk([...cli.remote, ...args]);
      expect(run.code, args.join(' ')).toBe(2);
    }
  });

  it('--timeout 0 prints what is there and stops (exit 0); an empty queue exits 3 with IO_TIMEOUT', async () => {
    const path = '.\\private$\\follow-drain';
    await cli.client.queueCreate({ path });
    await cli.client.sendBatch({ messages: [0, 1, 2].map((i) => ({ path, message: { body: `m${i}` } })) });
    const drained = await qk([...cli.remote, '--json', 'receive', path, '--follow', '--timeout', '0']);
    expect(drained.code).toBe(0);
    expect(
      drained.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { body: string }).body),
    ).toEqual(['m0', 'm1', 'm2']);
    const empty = await qk([...cli.remote, '--json', 'receive', path, '--follow', '--timeout', '0']);
    expect(empty.code).toBe(3);
    expect(empty.json).toMatchObject({ error: { code: 'IO_TIMEOUT' } });
  });

  it('--timeout with --count: fewer than --count within it exits 3, naming how many came', async () => {
    const path = '.\\private$\\follow-short';
    await cli.client.queueCreate({ path });
    await cli.client.send({ path, message: { body: 'one' } });
    const run = await qk([...cli.remote, 'receive', path, '--follow', '--count', '2', '--timeout', '0.1']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('one');
    expect(run.stderr).toContain('1 of 2 messages');
  });

  it('a queue that does not exist fails clearly (QUEUE_NOT_FOUND, exit 1)', async () => {
    const run = await qk([...cli.remote, '--json', 'receive', '.\\private$\\no-such-queue', '--follow']);
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ error: { code: 'QUEUE_NOT_FOUND' } });
  });
});
