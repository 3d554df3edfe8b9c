/**
 * `qk receive|peek PATH --json --properties NAME,…` (MSMQ's MQMSGPROPS): the JSON output has the named message
 * fields and `id` and `lookupId`, nothing else; the service refuses a name a message does not have. The human
 * format shows every property, so --properties without --json is a usage error.
 */
import { describe, expect, it } from 'vitest';
import { qk } from './helpers.js';
import { serviceForFile } from './service-for-file.js';

const cli = serviceForFile('PROPSTEST');

/** A new queue holding one message; returns its path and the message's ID. */
async function oneMessage(path: string): Promise<{ path: string; id: string }> {
  await cli.client.queueCreate({ path });
  const { id } = await cli.client.send({ path, message: { body: 'hello', label: 'greeting', priority: 6 } });
  return { path, id };
}

function keysOf(json: unknown): string[] {
  return Object.keys(json as object).sort();
}

const USAGE = 'qk: --properties chooses the fields of the JSON output: use it with --json.\n';

describe('qk --properties', () => {
  it('receive --json --properties body,label prints exactly id, lookupId, body, label, and takes the message', async () => {
    const { path, id } = await oneMessage('.\\private$\\props-receive');
    const run = await qk([...cli.remote, '--json', 'receive', path, '--properties', 'body,label']);
    expect(run.code).toBe(0);
    expect(keysOf(run.json)).toEqual(['body', 'id', 'label', 'lookupId']);
    expect(run.json).toEqual({ id, lookupId: expect.any(Number), body: 'hello', label: 'greeting' });
    expect((await cli.client.queueShow({ path })).messageCount).toBe(0);
  });

  it('peek --json --properties body prints exactly id, lookupId, body, and leaves the message', async () => {
    const { path, id } = await oneMessage('.\\private$\\props-peek');
    const run = await qk([...cli.remote, '--json', 'peek', path, '--properties', 'body']);
    expect(run.code).toBe(0);
    expect(keysOf(run.json)).toEqual(['body', 'id', 'lookupId']);
    expect(run.json).toMatchObject({ id, body: 'hello' });
    expect((await cli.client.queueShow({ path })).messageCount).toBe(1);
  });

  it('receive --follow --count 1 --json --properties priority prints one line with exactly id, lookupId, priority', async () => {
    const { path, id } = await oneMessage('.\\private$\\props-follow');
    await cli.client.send({ path, message: { body: 'second', priority: 1 } });
    const run = await qk([
      ...cli.remote,
      '--json',
      'receive',
      path,
      '--follow',
      '--count',
      '1',
      '--properties',
      'priority',
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0] ?? '') as unknown;
    expect(keysOf(printed)).toEqual(['id', 'lookupId', 'priority']);
    expect(printed).toMatchObject({ id, priority: 6 });
    expect((await cli.client.queueShow({ path })).messageCount).toBe(1);
  });

  it('--properties without --json is a usage error (exit 2) for receive, peek and receive --follow; nothing is taken', async () => {
    const { path } = await oneMessage('.\\private$\\props-usage');
    for (const args of [
      ['receive', path, '--properties', 'body'],
      ['peek', path, '--properties', 'body'],
      ['receive', path, '--follow', '--count', '1', '--properties', 'body'],
    ]) {
      const run = await qk([...cli.remote, ...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr, args.join(' ')).toBe(USAGE);
    }
    expect((await cli.client.queueShow({ path })).messageCount).toBe(1);
  });

  it('an unknown name is the service INVALID_PARAMETER (exit 1), and nothing is taken', async () => {
    const { path } = await oneMessage('.\\private$\\props-unknown');
    for (const args of [
      ['receive', path, '--properties', 'body,bodyy'],
      ['peek', path, '--properties', 'bodyy'],
      ['receive', path, '--follow', '--count', '1', '--properties', 'bodyy'],
    ]) {
      const run = await qk([...cli.remote, '--json', ...args]);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.json, args.join(' ')).toMatchObject({ error: { code: 'INVALID_PARAMETER' } });
    }
    expect((await cli.client.queueShow({ path })).messageCount).toBe(1);
  });
});
