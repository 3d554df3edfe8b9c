/**
 * Peer-link protocol versions (docs/network.md "Protocol versions"): the hello agrees the lower of the two
 * sides' protocols; a session that agreed 3 delivers packed with the bodies as an attachment (a binary frame),
 * one that agreed 2 packed with base64 bodies, one that agreed 1 as protocol 1 did, and a caller whose hello a
 * protocol-1 listener refused says hello again with 1. Packed deliveries the schema does not take, and
 * attachments that are missing or of the wrong length, are refused before anything is delivered; attachments
 * past the listener's bounds cut the connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, test } from 'vitest';
import { PEER_DELIVERY_MAX, PEER_PROTOCOL_MIN, PEER_PROTOCOL_VERSION, type Envelope } from '@qk/api';
import {
  openQueueManager,
  type NetworkPort,
  type QueueManagerApi,
  type StoredPeer,
  type TransitMessage,
} from '@qk/engine';
import { frameSocket, NetworkNode } from '@qk/network';
import { Attachments } from '../../../core/network/src/attachments.js';
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

/**
 * BETA's end of a session from ALPHA, on a port that stores every message it is handed (once `hold` lets it,
 * when given).
 */
function listener(attachments = new Attachments(), hold?: Promise<void>) {
  const delivered: TransitMessage[] = [];
  const log = recordingLog();
  const port = {
    deliver: async (_from: unknown, messages: readonly TransitMessage[]) => {
      await hold;
      delivered.push(...messages);
      return messages.map(() => ({ outcome: 'stored' }));
    },
  } as unknown as NetworkPort;
  const handler = inboundHandler(
    ALPHA,
    {
      self: { name: 'BETA', id: ID },
      routing: false,
      log,
      port: () => port,
      offline: () => false,
      opened: () => undefined,
      closed: () => undefined,
    },
    attachments,
  );
  const call = (op: string, input: unknown): Promise<Envelope<unknown>> =>
    handler.call(op, input, new AbortController().signal);
  const hello = (protocol: number) => call('peerHello', { protocol, name: 'ALPHA', id: ID });
  /** A binary frame arrives: attachment `number` with `bytes`; the protocol violation it is, if any. */
  const attachment = (number: number, bytes: Buffer) => handler.binary?.(attachmentFrame(number, bytes));
  return { call, hello, attachment, handler, attachments, delivered, log };
}

/** What a protocol-3 sender puts in a binary frame: the attachment's number, then its bytes. */
function attachmentFrame(number: number, bytes: Buffer): Buffer {
  const frame = Buffer.alloc(4 + bytes.length);
  frame.writeUInt32BE(number, 0);
  bytes.copy(frame, 4);
  return frame;
}

/** A delivery packed as protocol 3 sends it: its bodies the attachment of that number. */
function packedWith(number: number, messages: TransitMessage[]) {
  let bodies: Buffer = Buffer.alloc(0);
  const delivery = packDelivery(messages, (joined) => {
    bodies = joined;
    return number;
  });
  return { delivery, bodies };
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

describe('the listener pairs attachments with their calls (protocol 3)', () => {
  const three = [message(1), message(2, ''), message(3, 'é')];

  test('a delivery takes the attachment it names; each body is a view of it, not a copy', async () => {
    const beta = listener();
    await beta.hello(3);
    const { delivery, bodies } = packedWith(1, three);
    expect(delivery.bodies).toEqual({ attachment: 1 });
    expect(beta.attachment(1, bodies)).toBeNull();
    expect(beta.attachments.waiting).toBe(1);
    expect(await beta.call('peerDeliverPacked', JSON.parse(JSON.stringify(delivery)))).toEqual({
      ok: true,
      value: { every: { outcome: 'stored' } },
    });
    expect(beta.delivered.map((m) => [m.msgId, m.body.toString()])).toEqual(
      three.map((m) => [m.msgId, m.body.toString()]),
    );
    expect(new Set(beta.delivered.map((m) => m.body.buffer)).size).toBe(1);
    expect(beta.attachments.waiting).toBe(0);
  });

  test('attachments wait by number: calls may name them in another order than they came', async () => {
    const beta = listener();
    await beta.hello(3);
    const first = packedWith(1, [message(1, 'one')]);
    const second = packedWith(2, [message(2, 'two')]);
    beta.attachment(1, first.bodies);
    beta.attachment(2, second.bodies);
    await beta.call('peerDeliverPacked', second.delivery);
    await beta.call('peerDeliverPacked', first.delivery);
    expect(beta.delivered.map((m) => m.body.toString())).toEqual(['two', 'one']);
  });

  test('a call naming an attachment that never came is refused; nothing is delivered', async () => {
    const beta = listener();
    await beta.hello(3);
    const answer = await beta.call('peerDeliverPacked', packedWith(4, three).delivery);
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMETER', message: /attachment 4 did not arrive/ },
    });
    expect(beta.delivered).toEqual([]);
  });

  test.each([
    ['shorter', (b: Buffer) => b.subarray(1)],
    ['longer', (b: Buffer) => Buffer.concat([b, Buffer.from('!')])],
  ])('an attachment %s than its bodySizes is refused; it is used up all the same', async (_, change) => {
    const beta = listener();
    await beta.hello(3);
    const { delivery, bodies } = packedWith(1, three);
    beta.attachment(1, change(bodies));
    expect(await beta.call('peerDeliverPacked', delivery)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMETER', message: /attachment 1 has \d+ bytes, not the 7 of bodySizes/ },
    });
    expect(beta.delivered).toEqual([]);
    expect(beta.attachments.waiting).toBe(0);
    // A second call naming it finds nothing: each attachment serves one call.
    expect(await beta.call('peerDeliverPacked', delivery)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMETER' },
    });
  });

  test('a call refused for any reason (here: before its hello) uses up the attachment it names', async () => {
    const beta = listener();
    const { delivery, bodies } = packedWith(1, three);
    beta.attachment(1, bodies);
    expect(await beta.call('peerDeliverPacked', delivery)).toMatchObject({
      ok: false,
      error: { code: 'ACCESS_DENIED' },
    });
    expect(beta.attachments.waiting).toBe(0);
  });

  test('a session that agreed 2 refuses a delivery whose bodies are an attachment; one that agreed 3 takes base64', async () => {
    const two = listener();
    await two.hello(2);
    const { delivery, bodies } = packedWith(1, three);
    two.attachment(1, bodies);
    expect(await two.call('peerDeliverPacked', delivery)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMETER', message: /protocol 3; this session agreed protocol 2/ },
    });
    expect(two.delivered).toEqual([]);

    const beta = listener();
    await beta.hello(3);
    expect(await beta.call('peerDeliverPacked', packDelivery(three))).toEqual({
      ok: true,
      value: { every: { outcome: 'stored' } },
    });
    expect(beta.delivered.map((m) => m.body.toString())).toEqual(['hello', '', 'é']);
  });

  test('an attachment number used again, or lower than one before, is a protocol violation (logged)', () => {
    const beta = listener();
    expect(beta.attachment(1, Buffer.from('a'))).toBeNull();
    expect(beta.attachment(3, Buffer.from('b'))).toBeNull();
    expect(beta.attachment(3, Buffer.from('c'))).toMatch(/attachment 3 came after attachment 3/);
    expect(beta.attachment(2, Buffer.from('c'))).toMatch(/attachment 2 came after attachment 3/);
    expect(beta.handler.binary?.(Buffer.from([0, 0, 9]))).toMatch(/no attachment number/);
    expect(beta.log.warnings).toEqual(Array(3).fill('peer connection cut: it broke the peer-link protocol'));
  });

  test('more attachments waiting than allowed, or more bytes, is a protocol violation', () => {
    const many = listener(new Attachments(3, 1_000));
    for (let n = 1; n <= 3; n++) expect(many.attachment(n, Buffer.alloc(10))).toBeNull();
    expect(many.attachment(4, Buffer.alloc(10))).toMatch(/would make 4 waiting for their calls \(at most 3\)/);

    const large = listener(new Attachments(16, 1_000));
    expect(large.attachment(1, Buffer.alloc(600))).toBeNull();
    expect(large.attachment(2, Buffer.alloc(400))).toBeNull();
    expect(large.attachment(3, Buffer.alloc(1))).toMatch(/past 1000 bytes/);
  });

  test("an attachment's bytes count until its call has ended, then make room", async () => {
    let letGo!: () => void;
    const beta = listener(new Attachments(16, 10), new Promise<void>((resolve) => (letGo = resolve)));
    await beta.hello(3);
    const { delivery, bodies } = packedWith(1, [message(1, 'abcdefgh')]);
    beta.attachment(1, bodies);
    const answer = beta.call('peerDeliverPacked', delivery);
    expect(beta.attachments.waiting).toBe(0);
    expect(beta.attachment(2, Buffer.alloc(3))).toMatch(/past 10 bytes/);
    letGo();
    expect(await answer).toMatchObject({ ok: true });
    expect(beta.attachment(3, Buffer.alloc(10))).toBeNull();
  });

  test('attachments still waiting are dropped when the connection ends', () => {
    const beta = listener(new Attachments(16, 10));
    beta.attachment(1, Buffer.alloc(4));
    beta.attachment(2, Buffer.alloc(6));
    expect(beta.attachments.waiting).toBe(2);
    beta.handler.closed('the peer connection closed');
    expect(beta.attachments.waiting).toBe(0);
    // Their bytes went with them.
    expect(beta.attachment(3, Buffer.alloc(10))).toBeNull();
  });
});

// ── Over a socket ─────────────────────────────────────────────────────────────────────────────────────────

const sockets: (() => void)[] = [];
afterEach(() => {
  for (const close of sockets.splice(0)) close();
});

/** A connected pair of plain sockets on loopback (rpc-link frames any socket; TLS changes nothing here). */
async function socketPair(): Promise<[Socket, Socket]> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const client = connect((server.address() as { port: number }).port, '127.0.0.1');
  const served = await accepted;
  sockets.push(() => {
    client.destroy();
    served.destroy();
    server.close();
  });
  return [client, served];
}

describe('rpc-link carries attachments beside the calls', () => {
  test("the caller's attachments and calls pair up at the listener: numbered 1, 2, … per connection", async () => {
    const [a, b] = await socketPair();
    const beta = listener();
    rpcChannels.serve(b as TLSSocket, beta.handler, quiet);
    const alpha = rpcChannels.client(a as TLSSocket, quiet);
    expect(await alpha.call('peerHello', { protocol: 3, name: 'ALPHA', id: ID })).toMatchObject({ ok: true });
    const numbers: number[] = [];
    const attach = (bodies: Buffer): number => {
      const n = alpha.attach(bodies);
      numbers.push(n);
      return n;
    };
    const answers = await Promise.all(
      [message(1, 'one'), message(2, 'two'), message(3, '')].map((m) =>
        alpha.call('peerDeliverPacked', packDelivery([m], attach)),
      ),
    );
    expect(numbers).toEqual([1, 2, 3]);
    expect(answers).toEqual(Array(3).fill({ ok: true, value: { every: { outcome: 'stored' } } }));
    expect(beta.delivered.map((m) => m.body.toString())).toEqual(['one', 'two', '']);
    alpha.close('done');
  });

  test('an attachment number used again cuts the connection; what waited is dropped', async () => {
    const [a, b] = await socketPair();
    const beta = listener();
    rpcChannels.serve(b as TLSSocket, beta.handler, quiet);
    const raw = frameSocket(a);
    let closed = false;
    raw.attach({ frame: () => undefined, closed: () => (closed = true) });
    await raw.sendBinary(attachmentFrame(1, Buffer.from('x')));
    await raw.sendBinary(attachmentFrame(1, Buffer.from('y')));
    await expect.poll(() => closed, { timeout: 5_000 }).toBe(true);
    expect(beta.log.warnings).toEqual(['peer connection cut: it broke the peer-link protocol']);
    expect(beta.attachments.waiting).toBe(0);
  });

  test('a listener that takes no binary frames (before protocol 3) is cut by one, never misreads it', async () => {
    const [a, b] = await socketPair();
    const beta = listener();
    rpcChannels.serve(b as TLSSocket, protocol2Listener(beta.handler), quiet);
    const alpha = rpcChannels.client(a as TLSSocket, quiet);
    alpha.attach(Buffer.from('bodies'));
    expect(await alpha.closed).toBeTruthy();
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

/** How a call is written down: hellos with their protocol, packed deliveries with the form of their bodies. */
function described(op: string, input: unknown): string {
  if (op === 'peerHello') return `peerHello ${(input as { protocol: number }).protocol}`;
  if (op === 'peerDeliverPacked')
    return `peerDeliverPacked ${typeof (input as { bodies: unknown }).bodies === 'string' ? 'base64' : 'attachment'}`;
  return op;
}

/** rpcChannels, with the calls this computer makes written down. */
function recordingCalls(calls: string[]): ChannelFactory {
  return {
    client(socket, log) {
      const channel = rpcChannels.client(socket, log);
      return {
        call: (op, input, signal) => {
          calls.push(described(op, input));
          return channel.call(op, input, signal);
        },
        attach: (bytes) => channel.attach(bytes),
        close: (reason) => channel.close(reason),
        closed: channel.closed,
      };
    },
    serve: rpcChannels.serve,
  };
}

/**
 * A listener as Queuekeeper's protocol 2 was: it agrees at most 2, and its connections take no binary frames
 * (frame-socket cuts one).
 */
function protocol2Listener(handler: PeerCallHandler): PeerCallHandler {
  return {
    call(op, input, signal) {
      if (op === 'peerHello') {
        const said = input as { protocol: number };
        return handler.call(op, { ...said, protocol: Math.min(said.protocol, 2) }, signal);
      }
      return handler.call(op, input, signal);
    },
    closed: (reason) => handler.closed(reason),
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
  test('with a listener that speaks 3, deliveries are packed and their bodies go as an attachment', async () => {
    const calls = await sendOne(rpcChannels);
    expect(calls.filter((c) => c.startsWith('peerHello'))).toEqual(['peerHello 3']);
    expect(calls.filter((c) => c.startsWith('peerDeliver'))).toEqual(['peerDeliverPacked attachment']);
  });

  test('with a listener that speaks 2, deliveries are packed with base64 bodies and no binary frame', async () => {
    const older: ChannelFactory = {
      client: rpcChannels.client,
      serve: (socket, handler, log) => rpcChannels.serve(socket, protocol2Listener(handler), log),
    };
    const calls = await sendOne(older);
    expect(calls.filter((c) => c.startsWith('peerHello'))).toEqual(['peerHello 3']);
    expect(calls.filter((c) => c.startsWith('peerDeliver'))).toEqual(['peerDeliverPacked base64']);
  });

  test('with a listener that speaks only 1, the caller says hello again with 1 and delivers as protocol 1', async () => {
    const old: ChannelFactory = {
      client: rpcChannels.client,
      serve: (socket, handler, log) => rpcChannels.serve(socket, protocol1Listener(handler), log),
    };
    const calls = await sendOne(old);
    expect(calls.filter((c) => c.startsWith('peerHello'))).toEqual(['peerHello 3', 'peerHello 1']);
    expect(calls.filter((c) => c.startsWith('peerDeliver'))).toEqual(['peerDeliver']);
  });
});
