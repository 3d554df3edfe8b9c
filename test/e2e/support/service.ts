/** Starts a real Queuekeeper service on a temp data folder, as `qk service start` does for a user. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { ApiClient, OperationInput, OperationName, OperationOutput } from '@qk/api';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A service started for one test. */
export interface RunningService {
  name: string;
  id: string;
  url: string;
  token: string;
  dataDir: string;
  /** From the ready line when started with --peer-listen (docs/network.md): what `qk peer add` takes. */
  peerAddress: string | null;
  peerFingerprint: string | null;
  /** A fresh one-time console link (`/#code=…`), as `qk console` prints it. */
  consoleUrl(): Promise<string>;
  /** Calls an operation over HTTP (the same contract the console uses). */
  call<N extends OperationName>(op: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  /** Fills a queue with `count` small messages through sendBatch (10,000 per call). */
  fill(path: string, count: number, make?: (i: number) => Parameters<ApiClient['send']>[0]['message']): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `node bin/qk.mjs service start --data TMP --listen 127.0.0.1:0 --json` and waits for its ready line. */
export async function startService(name = 'ALPHA', extraArgs: string[] = []): Promise<RunningService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qk-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
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
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = await new Promise<{
    name: string;
    id: string;
    url: string;
    peerAddress?: string;
    peerFingerprint?: string;
  }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in 20 s: ${stderr}`)), 20_000);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as {
          ready?: boolean;
          name: string;
          id: string;
          url: string;
          peerAddress?: string;
          peerFingerprint?: string;
        };
        if (parsed.ready) {
          clearTimeout(timer);
          resolve(parsed);
        }
      } catch {
        // not the ready line
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}: ${stderr}`));
    });
  });
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  const url = ready.url.replace(/\/+$/, '');

  async function call<N extends OperationName>(op: N, input: OperationInput<N>): Promise<OperationOutput<N>> {
    const response = await fetch(`${url}/api/v1/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(input),
    });
    const envelope = (await response.json()) as
      { ok: true; value: OperationOutput<N> } | { ok: false; error: { code: string; message: string } };
    if (!envelope.ok) throw new Error(`${op}: ${envelope.error.code} ${envelope.error.message}`);
    return envelope.value;
  }

  return {
    name: ready.name,
    id: ready.id,
    url,
    token,
    dataDir,
    peerAddress: ready.peerAddress ?? null,
    peerFingerprint: ready.peerFingerprint ?? null,
    async consoleUrl() {
      const response = await fetch(`${url}/console/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{}',
      });
      const envelope = (await response.json()) as { ok: boolean; value: { url: string } };
      if (!envelope.ok) throw new Error(`console/code: ${JSON.stringify(envelope)}`);
      return envelope.value.url;
    },
    call,
    async fill(
      path,
      count,
      make = (i) => ({ label: `message ${i + 1}`, body: `body of message ${i + 1}`, priority: 3 }),
    ) {
      for (let start = 0; start < count; start += 10_000) {
        const n = Math.min(10_000, count - start);
        await call('sendBatch', {
          messages: Array.from({ length: n }, (_, k) => ({ path, message: make(start + k) })),
        });
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
