/**
 * Faults between two computers (docs/network.md "What happens when things go wrong"): the peer link runs
 * through test/helpers/fault-proxy.ts, which cuts the connection after the data but before the confirmation,
 * corrupts the stream (duplicated or reordered bytes) or swallows it. Whatever happens, a message the next hop
 * stored is never lost, and it is delivered once where duplicate removal or exactly-once applies.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Computers, type Computer } from '../helpers/computers.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';
import type { QkMessage, QkStatus } from '../helpers/qk-types.js';

const env = { QK_PEER_BACKOFF_MAX_MS: '500', QK_PEER_CALL_TIMEOUT_MS: '3000' };
/** Bodies large enough that the delivery is well past the TLS handshake when the reply is cut. */
const BODY = 'x'.repeat(20_000);

let net: Computers;
let alpha: Computer;
let beta: Computer;
let gamma: Computer;
/** ALPHA reaches BETA and GAMMA only through these proxies. */
let toBeta: FaultProxy;
let toGamma: FaultProxy;

beforeAll(async () => {
  net = await Computers.start([
    { name: 'FTALPHA', env },
    { name: 'FTBETA', env },
    { name: 'FTGAMMA', env },
  ]);
  alpha = net.get('FTALPHA');
  beta = net.get('FTBETA');
  gamma = net.get('FTGAMMA');
  // GAMMA removes no duplicates (R-U3: RemoveDuplicateSize 0, a restart applies it).
  ok(await gamma.svc.qk('settings', 'set', 'RemoveDuplicateSize', '0'));
  await gamma.svc.restart();
  toBeta = await FaultProxy.start(beta.peerAddress);
  toGamma = await FaultProxy.start(gamma.peerAddress);
  await net.trust('FTALPHA', 'FTBETA', { addressOfB: toBeta.address });
  await net.trust('FTALPHA', 'FTGAMMA', { addressOfB: toGamma.address });
});
afterAll(async () => {
  await toBeta?.close();
  await toGamma?.close();
  await net?.dispose();
});

async function queueOn(c: Computer, ...flags: string[]): Promise<{ local: string; remote: string }> {
  const name = uniqueName('faults');
  await c.q.createQueue(`.\\private$\\${name}`, ...flags);
  return { local: `.\\private$\\${name}`, remote: `${c.name}\\private$\\${name}` };
}

async function settled(c: Computer, path: string, count: number, what: string): Promise<QkMessage[]> {
  const list = await waitFor(
    async () => {
      const got = await c.q.messages(path);
      return got.length >= count ? got : undefined;
    },
    what,
    20_000,
  );
  // Whatever else was going to arrive has had time to.
  await new Promise((r) => setTimeout(r, 2_000));
  return (await c.q.messages(path)).length === list.length ? list : c.q.messages(path);
}

async function outgoingEmpty(formatName: string): Promise<void> {
  await waitFor(
    async () => ((await net.outgoing('FTALPHA', formatName))?.messageCount === 0 ? true : undefined),
    `ALPHA's outgoing queue ${formatName} empty`,
    20_000,
  );
}

describe('many computers: faults on the link', () => {
  test("R-U2 a resend after a lost confirmation is dropped by the receiver's duplicate cache (seed 003)", async () => {
    const q = await queueOn(beta);
    const before = ok(await beta.svc.qk<QkStatus>('service', 'status')).duplicateCache.duplicatesRemoved;
    toBeta.mode = { kind: 'cutReply', afterBytesUp: 10_000, times: 1 };
    const id = await alpha.q.send(q.remote, '--body', BODY, '--recoverable');
    const got = await settled(beta, q.local, 1, 'the message at BETA');
    expect(got.map((m) => m.id)).toEqual([id]);
    expect(toBeta.stats.cuts).toBeGreaterThanOrEqual(1);
    await outgoingEmpty(`DIRECT=OS:${q.remote}`);
    const after = ok(await beta.svc.qk<QkStatus>('service', 'status')).duplicateCache.duplicatesRemoved;
    expect(after).toBe(before + 1);
  });

  test('R-U3 with RemoveDuplicateSize 0 the same resend is delivered twice, as MSMQ does', async () => {
    const q = await queueOn(gamma);
    toGamma.mode = { kind: 'cutReply', afterBytesUp: 10_000, times: 1 };
    const id = await alpha.q.send(q.remote, '--body', BODY, '--recoverable');
    const got = await settled(gamma, q.local, 2, 'both copies at GAMMA');
    expect(got.map((m) => m.id)).toEqual([id, id]);
    await outgoingEmpty(`DIRECT=OS:${q.remote}`);
  });

  test('R-E3 a transactional resend after a lost confirmation is dropped by its sequence number, duplicate cache or not', async () => {
    const q = await queueOn(gamma, '--transactional');
    toGamma.mode = { kind: 'cutReply', afterBytesUp: 10_000, times: 1 };
    const id = await alpha.q.send(q.remote, '--body', BODY, '--transactional');
    const got = await settled(gamma, q.local, 1, 'the transactional message at GAMMA');
    expect(got.map((m) => m.id)).toEqual([id]);
    await outgoingEmpty(`DIRECT=OS:${q.remote}`);
  });

  test('duplicated and reordered bytes break the TLS session; nothing stored is lost and nothing is delivered twice', async () => {
    const q = await queueOn(beta);
    const ids: string[] = [];
    for (const kind of ['duplicate', 'reorder'] as const) {
      toBeta.cut();
      toBeta.mode = { kind };
      for (let i = 0; i < 5; i++) ids.push(await alpha.q.send(q.remote, '--body', `${kind}${i}`, '--recoverable'));
      await new Promise((r) => setTimeout(r, 1_500));
    }
    toBeta.mode = { kind: 'pass' };
    const got = await settled(beta, q.local, ids.length, 'every message once the link is clean');
    expect(got.map((m) => m.id).sort()).toEqual([...ids].sort());
    await outgoingEmpty(`DIRECT=OS:${q.remote}`);
  });

  test('a black hole (bytes swallowed, connection open): calls time out, the link is cut, everything goes once it heals', async () => {
    const q = await queueOn(beta, '--transactional');
    toBeta.cut();
    toBeta.mode = { kind: 'drop' };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await alpha.q.send(q.remote, '--body', `hole${i}`, '--transactional'));
    await new Promise((r) => setTimeout(r, 4_000));
    expect(await beta.q.messages(q.local)).toEqual([]);
    toBeta.mode = { kind: 'pass' };
    const got = await settled(beta, q.local, 5, 'the transactional messages after the black hole');
    expect(got.map((m) => m.id)).toEqual(ids);
    await outgoingEmpty(`DIRECT=OS:${q.remote}`);
  });
});
