/**
 * Trust is both ways (docs/network.md "Sessions"): a listener that does not trust the caller's certificate
 * refuses it, and says so — under TLS 1.3 the caller's handshake ends before the listener sees its
 * certificate, so without an answer the caller would only see a connection that closed (`unreachable`).
 * Two real computers over TLS on loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openQueueManager, type QueueManagerApi } from '@qk/engine';
import { NetworkNode } from '@qk/network';
import type { NetworkLog } from '../../../core/network/src/log.js';

interface Computer {
  qm: QueueManagerApi;
  node: NetworkNode;
  dir: string;
  warnings: string[];
}

const computers: Computer[] = [];
afterEach(async () => {
  for (const c of computers.splice(0)) {
    await c.node.close();
    await c.qm.close();
    rmSync(c.dir, { recursive: true, force: true });
  }
});

async function computer(name: string): Promise<Computer> {
  const dir = mkdtempSync(join(tmpdir(), `qk-trust-${name.toLowerCase()}-`));
  const qm = openQueueManager({ dataDir: dir, name });
  const warnings: string[] = [];
  const log: NetworkLog = {
    info: () => undefined,
    warn: (_fields, text) => void warnings.push(text),
    error: () => undefined,
  };
  const node = await NetworkNode.start({
    dataDir: dir,
    engine: () => qm,
    peerListen: { host: '127.0.0.1', port: 0 },
    log,
  });
  const c = { qm, node, dir, warnings };
  computers.push(c);
  return c;
}

const address = (c: Computer): string => c.node.status().peerAddress as string;

describe('a peer that does not trust this computer', () => {
  test('shows as refused, with a last error saying it refused this computer, and a warning in both logs', async () => {
    const relay = await computer('RELAY2');
    const beta = await computer('BETA');
    // RELAY2 trusts BETA; BETA does not trust RELAY2.
    relay.node.addPeer({ name: 'BETA', address: address(beta), fingerprint: beta.node.fingerprint });
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    await relay.qm.send('BETA\\private$\\orders', { body: 'wait', delivery: 'recoverable' });

    await expect
      .poll(() => relay.node.listPeers().find((p) => p.name === 'BETA')?.state, { timeout: 10_000 })
      .toBe('refused');
    const outgoing = relay.node.listOutgoing().find((o) => o.formatName === 'DIRECT=OS:BETA\\private$\\orders');
    expect(outgoing).toMatchObject({ state: 'waiting', messageCount: 1 });
    expect(outgoing?.lastError).toContain('BETA refused this computer');
    expect(outgoing?.lastError).toContain(relay.node.fingerprint);
    expect(relay.warnings).toContain('peer refused this computer');
    expect(beta.warnings).toContain('peer connection refused: certificate fingerprint not trusted');
    expect(beta.qm.showQueue('.\\private$\\orders').messageCount).toBe(0);

    // Once BETA trusts RELAY2, the next attempt goes through.
    beta.node.addPeer({ name: 'RELAY2', address: address(relay), fingerprint: relay.node.fingerprint });
    await expect.poll(() => beta.qm.showQueue('.\\private$\\orders').messageCount, { timeout: 15_000 }).toBe(1);
    expect(relay.node.listPeers().find((p) => p.name === 'BETA')?.state).toMatch(/^(connected|idle)$/);
  });
});
