import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@qk/api';
import { QkClient } from '@qk/client';
import { runService, type RunningService } from '@qk/service';
import { tempDataDir } from '../service/helpers.js';
import { qk } from './helpers.js';

describe('qk command line (no service needed)', () => {
  it('prints help with exit 0, and exits 2 without a command', async () => {
    const help = await qk(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'Exit codes: 0 success, 1 the operation failed, 2 the command line is wrong, 3 nothing arrived',
    );
    for (const command of [
      'service',
      'queue',
      'send',
      'receive',
      'peek',
      'messages',
      'message',
      'conversation',
      'settings',
      'arrive',
      'acks',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect((await qk([])).code).toBe(2);
  });

  it('prints its version, as one JSON document with --json, wherever -V stands', async () => {
    const plain = await qk(['--version']);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [
      ['--json', '--version'],
      ['--json', 'queue', 'set', '-V?Kd=Q*q%'],
    ]) {
      const run = await qk(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.json).toEqual({ version: plain.stdout.trim() });
    }
  });

  it('reports command-line errors with exit 2 and one INVALID_PARAMETER document on stderr', async () => {
    for (const args of [
      ['--json', 'frobnicate'],
      ['--json', 'queue', 'list', '--bogus'],
      ['--json', 'send'],
      ['--json', 'send', '.\\private$\\q', '--priority', 'high'],
      ['--json', 'send', '.\\private$\\q', '--ack', 'sometimes'],
      ['--json', 'send', '.\\private$\\q', '--journal', 'all'],
      ['--json', 'receive', '.\\private$\\q', '--timeout', 'soon'],
      ['--json', 'queue', 'set', '.\\private$\\q', '--journal', 'maybe'],
      ['--json', 'queue', 'create', '.\\private$\\q', '--quota', 'lots'],
      ['--json', 'messages', '.\\private$\\q', '--limit', 'ten'],
      ['--json', 'settings', 'set', 'MachineQuota', 'big'],
      ['--json', 'message', 'delete', '.\\private$\\q', 'first'],
      // Numbers outside what the option itself takes (CLI.md: the command line is wrong).
      ['--json', 'receive', '.\\private$\\q', '--timeout', '-1'],
      ['--json', 'peek', '.\\private$\\q', '--timeout', '-0.5'],
      ['--json', 'messages', '.\\private$\\q', '--limit', '0'],
      ['--json', 'messages', '.\\private$\\q', '--limit', '1001'],
      ['--json', 'messages', '.\\private$\\q', '--offset', '-1'],
      ['--json', 'messages', '.\\private$\\q', '--offset', '2.5'],
      ['--json', 'peek', '.\\private$\\q', '--lookup-id', '-1'],
      ['--json', 'peek', '.\\private$\\q', '--lookup-id', '1.5'],
      ['--json', 'message', 'delete', '.\\private$\\q', '0'],
      ['--json', 'message', 'delete', '.\\private$\\q', '-5'],
      ['--json', 'receive', '.\\private$\\q', '--follow', '--count', '0'],
      ['--json', '--service', 'http://127.0.0.1:1', 'queue', 'list'],
      ['--json', 'service', 'start', '--listen', 'nowhere'],
      ['--json', 'queue'],
    ]) {
      const run = await qk(args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stdout).toBe('');
      expect(run.json).toEqual({ error: { code: 'INVALID_PARAMETER', message: expect.any(String) } });
    }
  });

  it('says no service is running on DIR with exit 1', async () => {
    const { dir, cleanup } = tempDataDir('qk-cli-');
    try {
      const run = await qk(['--data', dir, '--json', 'queue', 'list']);
      expect(run.code).toBe(1);
      expect(run.json).toEqual({
        error: { code: 'SERVICE_NOT_AVAILABLE', message: expect.stringContaining(`No service is running on ${dir}`) },
      });
      const human = await qk(['--data', dir, 'queue', 'list']);
      expect(human.stderr).toMatch(/^qk: SERVICE_NOT_AVAILABLE: No service is running on/);
    } finally {
      cleanup();
    }
  });
});

describe('qk against a running service', () => {
  let service: RunningService;
  let cleanup: () => void;
  let remote: string[];

  beforeAll(async () => {
    const temp = tempDataDir('qk-cli-');
    cleanup = temp.cleanup;
    service = await runService({ dataDir: temp.dir, name: 'CLITEST', consoleDir: null });
    remote = ['--service', service.url, '--token', service.token];
  });
  afterAll(async () => {
    await service.stop();
    cleanup();
  });

  it('creates, lists and shows queues with --data, --service and the environment', async () => {
    const created = await qk([
      '--data',
      service.dataDir,
      '--json',
      'queue',
      'create',
      '.\\private$\\cli-a',
      '--label',
      'A',
      '--journal',
      '--quota',
      '100',
    ]);
    expect(created).toMatchObject({
      code: 0,
      json: { path: '.\\private$\\cli-a', label: 'A', journal: true, quotaKB: 100 },
    });
    const listed = await qk(['queue', 'list', '--json'], { QK_SERVICE: service.url, QK_TOKEN: service.token });
    // --json prints the contract's own output: it parses with the operation's schema.
    expect(operations.queueList.output.parse(listed.json).map((q) => q.path)).toContain('.\\private$\\cli-a');
    const shown = await qk(['--json', 'queue', 'show', '.\\private$\\cli-a'], { QK_DATA: service.dataDir });
    expect(shown.json).toMatchObject({ path: '.\\private$\\cli-a', type: 'private' });
    const set = await qk([
      ...remote,
      '--json',
      'queue',
      'set',
      '.\\private$\\cli-a',
      '--quota',
      'unlimited',
      '--journal',
      'off',
    ]);
    expect(set.json).toMatchObject({ quotaKB: null, journal: false });
  });

  it('prints aligned human tables with thousands separators', async () => {
    const run = await qk([...remote, 'settings']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+VALUE\s+DEFAULT\s+UNIT/);
    const quota = lines.find((l) => l.startsWith('MachineQuota '));
    expect(quota).toContain('1,048,576');
    const valueEnd = lines[0]!.indexOf('VALUE') + 'VALUE'.length;
    expect(quota!.slice(0, valueEnd).endsWith('1,048,576')).toBe(true);
  });

  it('sends, peeks, browses and receives, with classes by name and hex in human output', async () => {
    const path = '.\\private$\\cli-msg';
    await qk([...remote, 'queue', 'create', path]);
    const sent = await qk([
      ...remote,
      '--json',
      'send',
      path,
      '--body',
      'hello',
      '--label',
      'greeting',
      '--priority',
      '6',
      '--recoverable',
    ]);
    expect(sent).toMatchObject({ code: 0, json: { id: expect.stringMatching(/^\{[0-9a-f-]{36}\}\\\d+$/) } });
    const sentId = operations.send.output.parse(sent.json).id;
    const peeked = await qk([...remote, 'peek', path]);
    expect(peeked.stdout).toMatch(/Class\s+NORMAL 0x0000/);
    expect(peeked.stdout).toMatch(/Body\s+hello/);
    const page = await qk([...remote, '--json', 'messages', path, '--limit', '10']);
    expect(page.json).toMatchObject({
      total: 1,
      messages: [{ id: sentId, body: 'hello', priority: 6, delivery: 'recoverable' }],
    });
    const received = await qk([...remote, '--json', 'receive', path, '--timeout', '0.5']);
    expect(received.json).toMatchObject({ id: sentId, label: 'greeting', class: 'NORMAL', classCode: 0 });
  });

  it('sends a file body as bytes', async () => {
    const path = '.\\private$\\cli-file';
    await qk([...remote, 'queue', 'create', path]);
    const file = join(service.dataDir, 'body.bin');
    writeFileSync(file, Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    expect((await qk([...remote, 'send', path, '--body-file', file])).code).toBe(0);
    const received = await qk([...remote, '--json', 'receive', path]);
    expect(received.json).toMatchObject({
      body: null,
      bodyBase64: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64'),
      bodySize: 4,
    });
  });

  it('exits 3 with an IO_TIMEOUT document when nothing arrives within --timeout', async () => {
    const path = '.\\private$\\cli-empty';
    await qk([...remote, 'queue', 'create', path]);
    const started = Date.now();
    const run = await qk([...remote, '--json', 'receive', path, '--timeout', '0.3']);
    expect(run.code).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(run.json).toEqual({ error: { code: 'IO_TIMEOUT', message: expect.any(String) } });
    expect((await qk([...remote, '--json', 'peek', path])).code).toBe(3);
  });

  it('passes numbers outside MSMQ ranges to the service, which refuses them (exit 1)', async () => {
    const path = '.\\private$\\cli-range';
    await qk([...remote, 'queue', 'create', path]);
    const run = await qk([...remote, '--json', 'send', path, '--priority', '9']);
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ error: { code: 'ILLEGAL_PROPERTY_VALUE' } });
  });

  it('reports operation failures with exit 1 and the service code', async () => {
    const run = await qk([...remote, '--json', 'queue', 'delete', '.\\private$\\cli-never-created']);
    expect(run).toMatchObject({ code: 1, json: { error: { code: 'QUEUE_NOT_FOUND' } }, stdout: '' });
  });

  it('hands messages to the arrival path and shows the duplicate refused', async () => {
    const path = '.\\private$\\cli-arrive';
    await qk([...remote, 'queue', 'create', path]);
    const args = [
      ...remote,
      '--json',
      'arrive',
      path,
      '--id',
      '{0a0a0a0a-1111-2222-3333-444444444444}\\9',
      '--source-id',
      '0a0a0a0a-1111-2222-3333-444444444444',
      '--source-name',
      'REMOTE',
      '--body',
      'x',
    ];
    expect((await qk(args)).json).toEqual({ accepted: true, reason: null });
    const again = await qk(args);
    expect(again.json).toMatchObject({ accepted: false });
    const found = await qk([...remote, '--json', 'message', 'find', '{0a0a0a0a-1111-2222-3333-444444444444}\\9']);
    expect(found.json).toMatchObject([{ path, message: { sourceMachine: 'REMOTE' } }]);
  });

  it('shows and changes settings, and reports status', async () => {
    const set = await qk([...remote, '--json', 'settings', 'set', 'LongLiveTime', '7776000']);
    expect(set.json).toMatchObject({ name: 'LongLiveTime', value: 7_776_000 });
    const status = await qk([...remote, '--json', 'service', 'status']);
    expect(status.json).toMatchObject({
      name: 'CLITEST',
      id: service.host.id,
      duplicateCache: { capacity: expect.any(Number) },
    });
  });
});

describe('qk service start', () => {
  it('prints one ready line with --json and returns 0 after serviceStop', async () => {
    const { dir, cleanup } = tempDataDir('qk-cli-');
    let stdout = '';
    const { runCli } = await import('../../../core/cli/src/run-cli.js');
    const { serviceStarter } = await import('../../../bin/service-starter.js');
    try {
      const finished = runCli(['service', 'start', '--data', dir, '--name', 'STARTER', '--json'], {
        stdout: (t) => void (stdout += t),
        stderr: () => undefined,
        env: {},
        serviceStarter,
      });
      await expect.poll(() => stdout.includes('\n'), { timeout: 10_000 }).toBe(true);
      const ready = JSON.parse(stdout);
      expect(ready).toEqual({
        ready: true,
        name: 'STARTER',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      });
      const client = await QkClient.fromDataDir(dir);
      await client.serviceStop({});
      await client.close();
      expect(await finished).toBe(0);
      expect(stdout.trim().split('\n')).toHaveLength(1);
    } finally {
      cleanup();
    }
  });
  it('--routing without --peer-listen starts, says on stderr that nothing can be relayed, and reports routing', async () => {
    const { dir, cleanup } = tempDataDir('qk-cli-');
    let stdout = '';
    let stderr = '';
    const { runCli } = await import('../../../core/cli/src/run-cli.js');
    const { serviceStarter } = await import('../../../bin/service-starter.js');
    try {
      const finished = runCli(['service', 'start', '--data', dir, '--name', 'LONELY', '--routing', '--json'], {
        stdout: (t) => void (stdout += t),
        stderr: (t) => void (stderr += t),
        env: {},
        serviceStarter,
      });
      await expect.poll(() => stdout.includes('\n'), { timeout: 10_000 }).toBe(true);
      expect(stderr).toMatch(/warning: --routing without --peer-listen/);
      expect(JSON.parse(stdout)).toMatchObject({ ready: true, name: 'LONELY' });
      const client = await QkClient.fromDataDir(dir);
      expect(await client.serviceStatus({})).toMatchObject({ peerAddress: null, routing: true });
      await client.serviceStop({});
      await client.close();
      expect(await finished).toBe(0);
    } finally {
      cleanup();
    }
  });
  it('--peer-listen on every interface shows an address others can dial: the host name, with the port', async () => {
    const { dir, cleanup } = tempDataDir('qk-cli-');
    let stdout = '';
    const { runCli } = await import('../../../core/cli/src/run-cli.js');
    const { serviceStarter } = await import('../../../bin/service-starter.js');
    try {
      const finished = runCli(
        ['service', 'start', '--data', dir, '--name', 'WILDCARD', '--peer-listen', '0.0.0.0:0', '--routing', '--json'],
        { stdout: (t) => void (stdout += t), stderr: () => undefined, env: {}, serviceStarter },
      );
      await expect.poll(() => stdout.includes('\n'), { timeout: 10_000 }).toBe(true);
      const ready = JSON.parse(stdout) as { peerAddress: string };
      const host = hostname().toLowerCase();
      expect(ready.peerAddress).toMatch(new RegExp(`^${host.replace(/[.]/g, '\\.')}:[1-9]\\d*$`));
      const client = await QkClient.fromDataDir(dir);
      expect(await client.serviceStatus({})).toMatchObject({ peerAddress: ready.peerAddress, routing: true });
      await client.serviceStop({});
      await client.close();
      expect(await finished).toBe(0);
    } finally {
      cleanup();
    }
  });
});
