/**
 * Issue 7, item 6 — listening beyond loopback is an explicit choice, only over TLS, and the token is never
 * printed. Against real `qk service start` processes.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { qkBin, repoRoot } from '../../helpers/service-harness.js';
import { DrillService } from '../support/service-process.js';

const certDir = mkdtempSync(join(tmpdir(), 'qk-tls-'));
const certFile = join(certDir, 'service.crt');
const keyFile = join(certDir, 'service.key');
let cert = '';

beforeAll(async () => {
  const pems = await selfsigned.generate([{ name: 'commonName', value: hostname() }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: hostname() },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  cert = pems.cert;
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
});
afterAll(() => rmSync(certDir, { recursive: true, force: true }));

/** A start that must be refused as a wrong command line, before anything is written to the data folder. */
async function refusedStart(args: string[]): Promise<{ stderr: string; files: string[] }> {
  const service = new DrillService({ extraArgs: args });
  try {
    const outcome = await service.startExpectingFailure(30_000);
    expect(outcome.becameReady, outcome.stdout).toBe(false);
    expect(outcome.exitCode).toBe(2);
    return { stderr: outcome.stderr, files: readdirSync(service.dataDir) };
  } finally {
    await service.dispose();
  }
}

describe('a non-loopback --listen', () => {
  test('is refused without --allow-remote, naming the flag, and leaves the data folder untouched', async () => {
    for (const listen of ['0.0.0.0:0', '[::]:0', '192.0.2.10:0']) {
      const { stderr, files } = await refusedStart(['--listen', listen]);
      expect(stderr).toContain('--allow-remote');
      expect(files).toEqual([]);
    }
  });

  test('with --allow-remote but no certificate is refused: the token would cross the network in clear', async () => {
    const { stderr, files } = await refusedStart(['--listen', '0.0.0.0:0', '--allow-remote']);
    expect(stderr).toContain('--tls-cert');
    expect(files).toEqual([]);
  });

  test('--allow-remote on loopback, half a key pair, or unreadable TLS files are command-line errors', async () => {
    expect((await refusedStart(['--allow-remote'])).stderr).toContain('--allow-remote');
    expect((await refusedStart(['--tls-cert', certFile])).stderr).toContain('--tls-key');
    const missing = await refusedStart([
      '--listen',
      '0.0.0.0:0',
      '--allow-remote',
      '--tls-cert',
      join(certDir, 'nope.crt'),
      '--tls-key',
      keyFile,
    ]);
    expect(missing.stderr).toContain('nope.crt');
  });

  test('with --allow-remote and TLS serves HTTPS; the ready line names the real address, never the token', async () => {
    const service = new DrillService({
      extraArgs: ['--listen', '0.0.0.0:0', '--allow-remote', '--tls-cert', certFile, '--tls-key', keyFile],
    });
    try {
      const ready = await service.start();
      const url = new URL(ready.url);
      expect(url.protocol).toBe('https:');
      expect(url.hostname).toBe(hostname().toLowerCase());
      expect(JSON.stringify(ready)).not.toContain(service.token);
      // Reached over TLS with the certificate trusted; plain HTTP on the same port gets no API.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: url.port,
            servername: url.hostname,
            ca: cert,
            method: 'POST',
            path: '/api/v1/serviceStatus',
            headers: {
              host: url.host,
              authorization: `Bearer ${service.token}`,
              'content-type': 'application/json',
            },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ ok: true, value: { name: service.name } });
      const plain = await fetch(`http://127.0.0.1:${url.port}/api/v1/serviceStatus`, { method: 'POST' }).then(
        (r) => r.status,
        () => 'refused',
      );
      expect(plain).not.toBe(200);
    } finally {
      await service.dispose();
    }
  });
});

describe('the token is never printed', () => {
  test('the human ready line names the data folder and where the token is, and prints a one-time console link', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qk-ready-'));
    const child = spawn(process.execPath, [qkBin, 'service', 'start', '--data', dataDir, '--listen', '127.0.0.1:0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line: ${stdout}`)), 60_000);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (stdout.includes('Ctrl+C')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const token = (await import('node:fs')).readFileSync(join(dataDir, 'token'), 'utf8').trim();
      expect(stdout).not.toContain(token);
      expect(stdout).toContain(join(dataDir, 'token'));
      expect(stdout).toMatch(/#code=[A-Za-z0-9_-]+/);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      expect(existsSync(join(dataDir, 'service.json'))).toBe(false);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
