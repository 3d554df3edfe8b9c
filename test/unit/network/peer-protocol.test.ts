/**
 * Peer-link protocol versions (docs/network.md "Protocol versions"): the hello agrees the lower of the two
 * sides' protocols; a session that agreed 2 delivers packed, one that agreed 1 delivers as protocol 1 did, and
 * a caller whose hello a protocol-1 listener refused says hello again with 1. Packed deliveries the schema does
 * not take are refused before anything is delivered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { PEER_DELIVERY_MAX, PEER_PROTOCOL_MIN, PEER_PROTOCOL_VERSION, type Envelope } from '@qk/api';
import {
  openQueueManager,
  type NetworkPort,
  type QueueManagerApi,
  type StoredPeer,
  type TransitMessage,
} from '@qk/engine';
import { NetworkNode } from '@qk/network';
import type { ChannelFactory, PeerCallHandler } from '../../../core/network/src/channel.js';
import { inboundHandler } from '../../../core/network/src/inbound-session.js';
import type { NetworkLog } from '../../../core/network/src/log.js';
import { rpcChannels } from '../../../core/network/src/rpc-link.js';
import { packDelivery, toWire } from '../../../core/network/src/wire.js';

const ID = '{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}';
const ALPHA: StoredPeer = { name: 'ALPHA', address: '127.0.0.1:1', fingerprint: 'sha256:00', lastConnectedMs: null };

const message = (n: number, body = 'hello'): TransitMessage => ({
  msgId: `${ID}\\${n}`,
  classCode: 0,
  label: 'label',
  body: Buffer.from(body),
  priority: 3,
  recoverable: true,
  journal: 0,
  ack: 0,
  adminQueue: null,
  responseQueue: null,
  destQueue: 'BETA\\private$\\orders',
  correlationId: null,
  appSpecific: 0,
  sourceMachine: 'ALPHA',
  sourceMachineId: ID,
  sentMs: Date.UTC(2026, 10, 30),
  reachQueueWithinMs: null,
  receiveWithinMs: null,
  ttrq: 345_600,
  ttbr: null,
  hops: 0,
  transactional: false,
  sequence: null,
  conversation: null,
});

/** A log that keeps what was warned. */
function recordingLog(): NetworkLog & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (_fields, text) => void warnings.push(text), error: () => undefined };
}

/** BETA's end of a session from ALPHA, on a port that stores every message it is handed. */
function listener() {
  const delivered: TransitMessage[] = [];
  const log = recordingLog();
  const port = {
    deliver: (_from: unknown, messages: readonly TransitMessage[]) => {
      delivered.push(...messages);
      return Promise.resolve(messages.map(() => ({ outcome: 'stored' })));
    },
  } as unknown as NetworkPort;
  const handler = inboundHandler(ALPHA, {
    self: { name: 'BETA', id: ID },
    routing: false,
    log,
    port: () => port,
    offline: () => false,
    opened: () => undefined,
    closed: () => undefined,
  });
  const call = (op: string, input: unknown): Promise<Envelope<unknown>> =>
    handler.call(op, input, new AbortController().signal);
  const hello = (protocol: number) => call('peerHello', { protocol, name: 'ALPHA', id: ID });
  return { call, hello, delivered, log };
}

describe('the listener agrees a protocol', () => {
  test.each([
    [PEER_PROTOCOL_MIN, PEER_PROTOCOL_MIN],
    [PEER_PROTOCOL_VERSION, PEER_PROTOCOL_VERSION],
    [PEER_PROTOCOL_VERSION + 1, PEER_PROTOCOL_VERSION],
  ])('a hello with protocol %i is answered with %i', async (asked, agreed) => {
    const beta = listener();
    expect(await beta.hello(asked)).toMatchObject({ ok: true, value: { protocol: agreed, name: 'BETA' } });
  });

  test('a hello below the oldest protocol spoken is refused (and logged); the caller has no session', async () => {
    const beta = listener();
    const answer = await beta.hello(PEER_PROTOCOL_MIN - 1);
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
    expect(beta.log.warnings).toEqual(['peer refused: its protocol is too old']);
    expect(await beta.call('peerDeliverPacked', packDelivery([message(1)]))).toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
    expect(beta.delivered).toEqual([]);
  });

  test('a session that agreed protocol 1 refuses a packed delivery and takes peerDeliver', async () => {
    const beta = listener();
    await beta.hello(1);
    expect(await beta.call('peerDeliverPacked', packDelivery([message(1)]))).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMETER' },
    });
    expect(beta.delivered).toEqual([]);
    expect(await beta.call('peerDeliver', { messages: [toWire(message(1))] })).toEqual({
      ok: true,
      value: { outcomes: [{ outcome: 'stored' }] },
    });
    expect(beta.delivered.map((m) => m.msgId)).toEqual([`${ID}\\1`]);
  });

  test('a packed delivery is delivered as the messages it carries and answered once for all', async () => {
    const beta = listener();
    await beta.hello(2);
    const messages = [message(1), message(2, ''), message(3, 'é')];
    expect(await beta.call('peerDeliverPacked', packDelivery(messages))).toEqual({
      ok: true,
      value: { every: { outcome: 'stored' } },
    });
    expect(beta.delivered.map((m) => [m.msgId, m.body.toString()])).toEqual(
      messages.map((m) => [m.msgId, m.body.toString()]),
    );
  });

  const packed = () => packDelivery([message(1), message(2, 'other')]) as unknown as Record<string, unknown>;
  const fieldsOf = (d: Record<string, unknown>) => d['fields'] as Record<string, unknown>;
  test.each([
    ['count 0', (d: Record<string, unknown>) => (d['count'] = 0)],
    ['count past PEER_DELIVERY_MAX', (d: Record<string, unknown>) => (d['count'] = PEER_DELIVERY_MAX + 1)],
    ['a column of another length than count', (d: Record<string, unknown>) => (fieldsOf(d)['id'] = ['a', 'b', 'c'])],
    ['bodySizes not summing to the decoded length', (d: Record<string, unknown>) => (d['bodySizes'] = [5, 6])],
    ['a missing field key', (d: Record<string, unknown>) => delete fieldsOf(d)['label']],
    ['an extra field key', (d: Record<string, unknown>) => (fieldsOf(d)['bodyBase64'] = '')],
    ['bodies outside the base64 alphabet', (d: Record<string, unknown>) => (d['bodies'] = '!'.repeat(16))],
  ])('refused as INVALID_PARAMETER with nothing delivered: %s', async (_, change) => {
    const beta = listener();
    await beta.hello(2);
    const delivery = packed();
    change(delivery);
    expect(await beta.call('peerDeliverPacked', delivery)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMETER' },
    });
    expect(beta.delivered).toEqual([]);
  });
});

// ── Two computers over TLS ────────────────────────────────────────────────────────────────────────────────

interface Computer {
  qm: QueueManagerApi;
  node: NetworkNode;
  dir: string;
}

const computers: Computer[] = [];
afterEach(async () => {
  for (const c of computers.splice(0)) {
    await c.node.close();
    await c.qm.close();
    rmSync(c.dir, { recursive: true, force: true });
  }
});

const quiet: NetworkLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function computer(name: string, channels: ChannelFactory): Promise<Computer> {
  const dir = mkdtempSync(join(tmpdir(), `qk-protocol-${name.toLowerCase()}-`));
  const qm = openQueueManager({ dataDir: dir, name });
  const node = await NetworkNode.start({
    dataDir: dir,
    engine: () => qm,
    peerListen: { host: '127.0.0.1', port: 0 },
    log: quiet,
    channels,
  });
  const c = { qm, node, dir };
  computers.push(c);
  return c;
}

/** rpcChannels, with the calls this computer makes written down (hellos with their protocol). */
function recordingCalls(calls: string[]): ChannelFactory {
  return {
    client(socket, log) {
      const channel = rpcChannels.client(socket, log);
      return {
        call: (op, input, signal) => {
          calls.push(op === 'peerHello' ? `peerHello ${(input as { protocol: number }).protocol}` : op);
          return channel.call(op, input, signal);
        },
        close: (reason) => channel.close(reason),
        closed: channel.closed,
      };
    },
    serve: rpcChannels.serve,
  };
}

/** A listener as Queuekeeper's protocol 1 was: any other hello refused by name, no packed delivery. */
function protocol1Listener(handler: PeerCallHandler): PeerCallHandler {
  return {
    call(op, input, signal) {
      const protocol = (input as { protocol?: unknown } | null)?.protocol;
      if (op === 'peerHello' && protocol !== 1)
        return Promise.resolve({
          ok: false,
          error: {
            code: 'INVALID_PARAMETER',
            message: `Peer protocol ${String(protocol)} is not 1; update Queuekeeper on both computers.`,
          },
        });
      if (op === 'peerDeliverPacked')
        return Promise.resolve({
          ok: false,
          error: { code: 'INVALID_PARAMETER', message: `'${op}' is not a peer-link operation.` },
        });
      return handler.call(op, input, signal);
    },
    closed: (reason) => handler.closed(reason),
  };
}

/** ALPHA sends one message to BETA's queue and waits until BETA has it; returns the calls ALPHA made. */
async function sendOne(beta: ChannelFactory): Promise<string[]> {
  const calls: string[] = [];
  const a = await computer('ALPHA', recordingCalls(calls));
  const b = await computer('BETA', beta);
  const address = (c: Computer) => c.node.status().peerAddress as string;
  a.node.addPeer({ name: 'BETA', address: address(b), fingerprint: b.node.fingerprint });
  b.node.addPeer({ name: 'ALPHA', address: address(a), fingerprint: a.node.fingerprint });
  b.qm.createQueue({ path: '.\\private$\\orders' });
  await a.qm.send('BETA\\private$\\orders', { body: 'over the link', delivery: 'recoverable' });
  await expect.poll(() => b.qm.showQueue('.\\private$\\orders').messageCount, { timeout: 15_000 }).toBe(1);
  expect(b.qm.browse({ path: '.\\private$\\orders', includeBody: true }).messages[0]?.body).toBe('over the link');
  return calls;
}

describe('the caller uses the protocol its hello agreed', () => {
  test('with a listener that speaks 2, deliveries are packed', async () => {
    const calls = await sendOne(rpcChannels);
    expect(calls.filter((c) => c.startsWith('peerHello'))).toEqual(['peerHello 2']);
    expect(calls.filter((c) => c.startsWith('peerDeliver'))).toEqual(['peerDeliverPacked']);
  });

  test('with a listener that speaks only 1, the caller says hello again with 1 and delivers as protocol 1', async () => {
    const old: ChannelFactory = {
      client: rpcChannels.client,
      serve: (socket, handler, log) => rpcChannels.serve(socket, protocol1Listener(handler), log),
    };
    const calls = await sendOne(old);
    expect(calls.filter((c) => c.startsWith('peerHello'))).toEqual(['peerHello 2', 'peerHello 1']);
    expect(calls.filter((c) => c.startsWith('peerDeliver'))).toEqual(['peerDeliver']);
  });
});
