/** The network-namespace lab of test/helpers/netns.ts: hosts reach each other, and a partition cuts them off. */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NetnsLab, netnsUnavailable } from '../../helpers/netns.js';

const why = await netnsUnavailable();
if (why) console.warn(`skipping the network-namespace lab tests: ${why}`);

/** Runs a small node script inside a namespace and returns its stdout. */
function inNetns(netns: string, script: string, timeoutMs = 5_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('ip', ['netns', 'exec', netns, process.execPath, '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.skipIf(why !== null)('network-namespace lab', () => {
  let lab: NetnsLab;
  beforeAll(async () => {
    lab = await NetnsLab.create(['A', 'B']);
  });
  afterAll(async () => {
    await lab?.dispose();
  });

  test('hosts reach each other on their lab addresses; a partition stops it and ends', async () => {
    const a = lab.host('A');
    const b = lab.host('B');
    expect(a.address).not.toBe(b.address);
    const server = spawn(
      'ip',
      [
        'netns',
        'exec',
        b.netns,
        process.execPath,
        '-e',
        `require('net').createServer(s=>s.end('hi')).listen(7000,'${b.address}',()=>console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await new Promise<void>((resolve) => server.stdout.once('data', () => resolve()));
      const dial = `const s=require('net').connect(7000,'${b.address}');s.setTimeout(1500,()=>{console.log('timeout');process.exit(2)});s.on('data',d=>{console.log(String(d));process.exit(0)});s.on('error',e=>{console.log(e.code);process.exit(1)})`;
      expect((await inNetns(a.netns, dial)).out.trim()).toBe('hi');
      await lab.linkDown('B');
      expect((await inNetns(a.netns, dial)).out.trim()).toMatch(/timeout|EHOSTUNREACH/);
      await lab.linkUp('B');
      await expect.poll(async () => (await inNetns(a.netns, dial)).out.trim(), { timeout: 10_000 }).toBe('hi');
    } finally {
      server.kill('SIGKILL');
    }
  });
});
