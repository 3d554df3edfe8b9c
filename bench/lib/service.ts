/** Starts the real service as a child process (`qk service start`) and connects clients to it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { QkClient } from '@qk/client';
import { trackChild, trackCloser } from './cleanup.js';
import { now } from './stats.js';

export interface BenchService {
  readonly pid: number;
  readonly url: string;
  readonly token: string;
  readonly dataDir: string;
  /** Milliseconds from spawn to the ready line. */
  readonly startMs: number;
  /** From the ready line when started with --peer-listen (docs/network.md). */
  readonly peerAddress: string | null;
  readonly peerFingerprint: string | null;
  /** A new WebSocket client (closed by stop() if the caller does not). */
  client(): Promise<QkClient>;
  /** VmRSS and VmHWM of the service process, in MB. */
  memory(): { rssMB: number; peakMB: number };
  stop(): Promise<void>;
}

export async function startService(
  root: string,
  dataDir: string,
  name = 'BENCH',
  extraArgs: string[] = [],
): Promise<BenchService> {
  const started = now();
  // QK_BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the service process.
  const nodeArgs = (process.env['QK_BENCH_SERVICE_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      join(root, 'bin/qk.mjs'),
      'service',
      'start',
      '--data',
      dataDir,
      '--name',
      name,
      '--listen',
      '127.0.0.1:0',
      '--json',
      ...extraArgs,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  trackChild(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.length > 20_000) stderr = stderr.slice(-20_000);
  });
  const ready = await waitReady(child, () => stderr);
  const startMs = now() - started;
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  const clients = new Set<QkClient>();
  const pid = child.pid!;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await Promise.all([...clients].map((c) => c.close().catch(() => undefined)));
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };
  const untrack = trackCloser(stop);

  return {
    pid,
    url: ready.url,
    token,
    dataDir,
    startMs,
    peerAddress: ready.peerAddress ?? null,
    peerFingerprint: ready.peerFingerprint ?? null,
    async client() {
      const client = await QkClient.connect({ url: ready.url, token, transport: 'ws' });
      clients.add(client);
      return client;
    },
    memory() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 };
    },
    async stop() {
      await stop();
      untrack();
    },
  };
}

interface ReadyLine {
  url: string;
  peerAddress?: string;
  peerFingerprint?: string;
}

function waitReady(child: ChildProcess, stderr: () => string): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => fail(new Error('the service did not say it was ready within 120 s')), 120_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      lines.close();
      reject(new Error(`${error.message}\n${stderr()}`));
    };
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as Partial<ReadyLine> & { ready?: boolean };
        if (parsed.ready && parsed.url) {
          clearTimeout(timer);
          // Keep draining stdout so the service never blocks on a full pipe.
          lines.removeAllListeners('line');
          lines.on('line', () => undefined);
          resolve({ ...parsed, url: parsed.url });
        }
      } catch {
        // Not JSON: ignore.
      }
    });
    child.once('exit', (code, signal) =>
      fail(new Error(`the service exited before it was ready (code ${code}, signal ${signal})`)),
    );
    child.once('error', (error) => fail(error));
  });
}
