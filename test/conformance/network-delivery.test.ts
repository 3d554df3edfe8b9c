/**
 * Delivery between two computers (docs/network.md; CLI.md "Many computers"): two real services on loopback
 * that trust each other, driven only through `qk --json`. Each test names the rule it checks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Computers, type Computer } from '../helpers/computers.js';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';
import type { QkMessage, QkOutgoing, QkPeer } from '../helpers/qk-types.js';

/** Reconnects quickly after a computer stops: the tests wait seconds, not the production 30 s backoff. */
const env = { QK_PEER_BACKOFF_MAX_MS: '1000', QK_PEER_CALL_TIMEOUT_MS: '5000' };

let net: Computers;
let alpha: Computer;
let beta: Computer;
beforeAll(async () => {
  net = await Computers.start([
    { name: 'NDALPHA', env },
    { name: 'NDBETA', env },
  ]);
  alpha = net.get('NDALPHA');
  beta = net.get('NDBETA');
  await net.trust('NDALPHA', 'NDBETA');
});
afterAll(async () => {
  await net?.dispose();
});

/** A new private queue on `c`, as `HOST\private$\name` for senders elsewhere and `.\private$\name` there. */
async function queueOn(c: Computer, prefix: string, ...flags: string[]): Promise<{ local: string; remote: string }> {
  const name = uniqueName(prefix);
  await c.q.createQueue(`.\\private$\\${name}`, ...flags);
  return { local: `.\\private$\\${name}`, remote: `${c.name}\\private$\\${name}` };
}

async function messagesEventually(
  c: Computer,
  path: string,
  count: number,
  what: string,
  ms = 15_000,
): Promise<QkMessage[]> {
  return waitFor(
    async () => {
      const list = await c.q.messages(path);
      return list.length >= count ? list : undefined;
    },
    what,
    ms,
  );
}

async function outgoingOf(c: Computer, formatName: string): Promise<QkOutgoing | undefined> {
  return net.outgoing(c.name, formatName);
}

describe('many computers: delivery', () => {
  test('R-J1 a message reaches the queue on the other computer; the ACK comes back; the source journal keeps its copy', async () => {
    const orders = await queueOn(beta, 'orders');
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    const id = await alpha.q.send(
      orders.remote,
      ...[
        '--body',
        'hello',
        '--recoverable',
        '--journal',
        'journal',
        '--ack',
        'full-reach-queue',
        '--admin-queue',
        admin,
      ],
    );
    const [arrived] = await messagesEventually(beta, orders.local, 1, 'the message on the destination');
    expect(arrived).toMatchObject({ id, body: 'hello', sourceMachine: 'NDALPHA', sourceMachineId: alpha.svc.id });
    expect(arrived?.adminQueue?.toUpperCase()).toBe(`NDALPHA${admin.slice(1)}`.toUpperCase());
    const [ack] = await messagesEventually(alpha, admin, 1, 'ACK_REACH_QUEUE back on the source');
    expect(ack).toMatchObject({ class: 'ACK_REACH_QUEUE', correlationId: id });
    expect((await alpha.q.copiesOf('.\\JOURNAL$', id)).map((m) => m.class)).toEqual(['NORMAL']);
    const outgoing = await outgoingOf(alpha, `DIRECT=OS:${orders.remote}`);
    expect(outgoing).toMatchObject({ nextHop: 'NDBETA', messageCount: 0, state: 'connected' });
    const peers = ok(await alpha.svc.qk<QkPeer[]>('peer', 'list'));
    expect(peers[0]).toMatchObject({ name: 'NDBETA', state: 'connected', lastConnected: expect.any(String) });
  });

  test('NACK_BAD_DST_Q an unknown queue on the other computer: the NACK comes back, the dead letter stays on the destination (R-D1)', async () => {
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    const id = await alpha.q.send(
      `NDBETA\\private$\\${uniqueName('nosuch')}`,
      ...['--body', 'lost', '--journal', 'deadletter', '--ack', 'nack-reach-queue', '--admin-queue', admin],
    );
    const [nack] = await messagesEventually(alpha, admin, 1, 'NACK_BAD_DST_Q on the source');
    expect(nack).toMatchObject({ class: 'NACK_BAD_DST_Q', classCode: 0x8000, correlationId: id, body: 'lost' });
    expect((await beta.q.copiesOf('.\\DEADLETTER$', id)).map((m) => m.class)).toEqual(['NACK_BAD_DST_Q']);
    expect(await alpha.q.copiesOf('.\\DEADLETTER$', id)).toEqual([]);
  });

  test('outgoing pause and resume: nothing leaves while paused; resume sends what waited', async () => {
    const orders = await queueOn(beta, 'paused');
    const formatName = `DIRECT=OS:${orders.remote}`;
    ok(await alpha.svc.qk('outgoing', 'pause', formatName));
    await alpha.q.send(orders.remote, '--body', 'held', '--recoverable');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await beta.q.messages(orders.local)).toEqual([]);
    expect(await outgoingOf(alpha, formatName)).toMatchObject({ state: 'onHold', messageCount: 1 });
    ok(await alpha.svc.qk('outgoing', 'resume', formatName));
    await messagesEventually(beta, orders.local, 1, 'the held message after resume');
  });

  test('R-X2 time spent waiting in the outgoing queue counts: the destination gets what remained of time-to-be-received', async () => {
    const orders = await queueOn(beta, 'timers');
    const formatName = `DIRECT=OS:${orders.remote}`;
    ok(await alpha.svc.qk('outgoing', 'pause', formatName));
    await alpha.q.send(orders.remote, '--body', 'x', '--recoverable', '--ttbr', '20');
    await new Promise((r) => setTimeout(r, 3_000));
    ok(await alpha.svc.qk('outgoing', 'resume', formatName));
    const [m] = await messagesEventually(beta, orders.local, 1, 'the delayed message');
    expect(m?.timeToBeReceived).not.toBeNull();
    expect(m?.timeToBeReceived ?? 99).toBeLessThanOrEqual(18);
  });

  test('R-D1 with the destination stopped messages wait; their TTRQ runs out there: NACK and dead letter on the source', async () => {
    const orders = await queueOn(beta, 'down');
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    await beta.svc.stop();
    try {
      const id = await alpha.q.send(
        orders.remote,
        ...[
          '--body',
          'late',
          '--recoverable',
          '--ttrq',
          '6',
          '--journal',
          'deadletter',
          '--ack',
          'nack-reach-queue',
          '--admin-queue',
          admin,
        ],
      );
      const waiting = await outgoingOf(alpha, `DIRECT=OS:${orders.remote}`);
      expect(waiting).toMatchObject({ state: 'waiting', messageCount: 1, nextHop: 'NDBETA' });
      const [nack] = await messagesEventually(alpha, admin, 1, 'NACK_REACH_QUEUE_TIMEOUT', 20_000);
      expect(nack).toMatchObject({ class: 'NACK_REACH_QUEUE_TIMEOUT', correlationId: id });
      expect((await alpha.q.copiesOf('.\\DEADLETTER$', id)).map((m) => m.class)).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
      const peers = ok(await alpha.svc.qk<QkPeer[]>('peer', 'list'));
      expect(peers[0]?.state).toMatch(/unreachable|idle/);
    } finally {
      await beta.svc.start();
    }
  });

  test('0xC003 time-to-be-received running out in the outgoing queue is NACK_RECEIVE_TIMEOUT_AT_SENDER', async () => {
    const orders = await queueOn(beta, 'ttbr');
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    ok(await alpha.svc.qk('outgoing', 'pause', `DIRECT=OS:${orders.remote}`));
    const id = await alpha.q.send(
      orders.remote,
      ...['--body', 'b', '--ttbr', '1', '--journal', 'deadletter', '--ack', 'nack-receive', '--admin-queue', admin],
    );
    const [nack] = await messagesEventually(alpha, admin, 1, 'NACK 0xC003', 10_000);
    expect(nack).toMatchObject({ classCode: 0xc003, correlationId: id });
    expect((await alpha.q.copiesOf('.\\DEADLETTER$', id)).map((m) => m.classCode)).toEqual([0xc003]);
  });

  test('service disconnect holds everything and refuses deliveries; connect sends what waited', async () => {
    const orders = await queueOn(beta, 'offline');
    ok(await beta.svc.qk('service', 'disconnect'));
    try {
      await alpha.q.send(orders.remote, '--body', 'while offline', '--recoverable');
      await new Promise((r) => setTimeout(r, 2_500));
      expect(await beta.q.messages(orders.local)).toEqual([]);
      expect((await outgoingOf(alpha, `DIRECT=OS:${orders.remote}`))?.state).toBe('waiting');
    } finally {
      ok(await beta.svc.qk('service', 'connect'));
    }
    await messagesEventually(beta, orders.local, 1, 'the message after connect');
  });

  test('R-E1 transactional messages arrive exactly once and in order; R-J4 the source journal copy follows the destination confirmation', async () => {
    const orders = await queueOn(beta, 'xact', '--transactional');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await alpha.q.send(orders.remote, '--body', `m${i}`, '--transactional', '--journal', 'journal'));
    const got = await messagesEventually(beta, orders.local, 12, 'twelve transactional messages');
    expect(got.map((m) => m.body)).toEqual(ids.map((_, i) => `m${i}`));
    expect(got.map((m) => m.id)).toEqual(ids);
    await waitFor(
      async () => (await alpha.q.messages('.\\JOURNAL$')).filter((m) => ids.includes(m.id)).length === 12 || undefined,
      'R-J4 copies',
    );
  });

  test('R-D2 R-X8 a transactional message whose time-to-be-received runs out at the destination is dead-lettered on the source after XactDelayReceiveNack, not on the destination', async () => {
    const orders = await queueOn(beta, 'xactexp', '--transactional');
    const id = await alpha.q.send(
      orders.remote,
      '--body',
      'expires',
      '--transactional',
      '--ttbr',
      '5',
      '--journal',
      'deadletter',
    );
    const sentAt = Date.now();
    await messagesEventually(beta, orders.local, 1, 'the transactional message');
    const [dead] = await waitFor(
      async () => {
        const copies = await alpha.q.copiesOf('.\\XACTDEADLETTER$', id);
        return copies.length > 0 ? copies : undefined;
      },
      'the dead letter on the source',
      25_000,
    );
    // TTBR (5 s) + XactDelayReceiveNack (absent: the smaller timer, 5 s), not at the NACK's arrival (~5 s).
    expect(Date.now()).toBeGreaterThanOrEqual(sentAt + 9_000);
    expect(dead).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT', transactional: true });
    expect(await beta.q.copiesOf('.\\XACTDEADLETTER$', id)).toEqual([]);
  });

  test('R-A5 R-A11 a route through a computer that is not a routing server: exactly one NACK (NACK_BAD_DST_Q) per message, one dead letter on the source (R-D1)', async () => {
    ok(await alpha.svc.qk('route', 'set', 'NDRELAY2', 'NDBETA'));
    try {
      for (const level of ['nack-reach-queue', 'full-receive']) {
        const admin = `.\\private$\\${uniqueName('admin')}`;
        await alpha.q.createQueue(admin);
        const id = await alpha.q.send(
          `NDRELAY2\\private$\\${uniqueName('x')}`,
          ...['--body', 'refused', '--recoverable', '--journal', 'deadletter', '--ack', level, '--admin-queue', admin],
        );
        await messagesEventually(alpha, admin, 1, `the NACK (${level})`);
        await new Promise((r) => setTimeout(r, 1_500)); // a second NACK came 1 ms after the first
        const nacks = await alpha.q.messages(admin);
        expect(nacks.map((m) => [m.class, m.classCode, m.correlationId])).toEqual([['NACK_BAD_DST_Q', 0x8000, id]]);
        expect((await alpha.q.copiesOf('.\\DEADLETTER$', id)).map((m) => m.class)).toEqual(['NACK_BAD_DST_Q']);
        expect(await beta.q.copiesOf('.\\DEADLETTER$', id)).toEqual([]);
      }
    } finally {
      ok(await alpha.svc.qk('route', 'remove', 'NDRELAY2'));
    }
  });

  test('R-X5 TTRQ 0 to a connected outgoing queue: its one attempt reaches the destination, which keeps it (no NACK, no dead letter)', async () => {
    const orders = await queueOn(beta, 'ttrq0');
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    // The outgoing queue is connected: a first message has gone through it.
    await alpha.q.send(orders.remote, '--body', 'first', '--recoverable');
    await messagesEventually(beta, orders.local, 1, 'the first message');
    const id = await alpha.q.send(
      orders.remote,
      ...['--body', 'now', '--ttrq', '0', '--recoverable', '--journal', 'deadletter', '--ack', 'full-reach-queue'],
      ...['--admin-queue', admin],
    );
    const got = await messagesEventually(beta, orders.local, 2, 'the TTRQ-0 message at BETA');
    expect(got.map((m) => m.id)).toContain(id);
    const [ack] = await messagesEventually(alpha, admin, 1, 'ACK_REACH_QUEUE');
    expect(ack).toMatchObject({ class: 'ACK_REACH_QUEUE', correlationId: id });
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await alpha.q.messages(admin)).map((m) => m.class)).toEqual(['ACK_REACH_QUEUE']);
    expect(await beta.q.copiesOf('.\\DEADLETTER$', id)).toEqual([]);
    expect(await alpha.q.copiesOf('.\\DEADLETTER$', id)).toEqual([]);
    expect((await beta.q.messages(orders.local)).map((m) => m.id)).toContain(id);
  });

  test('R-X5 R-X6 TTRQ 0 to an outgoing queue on hold: no attempt can be made, it expires on the source with NACK_REACH_QUEUE_TIMEOUT and a dead letter there', async () => {
    const orders = await queueOn(beta, 'ttrq0held');
    const formatName = `DIRECT=OS:${orders.remote}`;
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    ok(await alpha.svc.qk('outgoing', 'pause', formatName));
    try {
      const id = await alpha.q.send(
        orders.remote,
        ...['--body', 'held', '--ttrq', '0', '--recoverable', '--journal', 'deadletter', '--ack', 'full-reach-queue'],
        ...['--admin-queue', admin],
      );
      const [nack] = await messagesEventually(alpha, admin, 1, 'NACK_REACH_QUEUE_TIMEOUT');
      expect(nack).toMatchObject({ class: 'NACK_REACH_QUEUE_TIMEOUT', correlationId: id });
      expect((await alpha.q.copiesOf('.\\DEADLETTER$', id)).map((m) => m.class)).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
    } finally {
      ok(await alpha.svc.qk('outgoing', 'resume', formatName));
    }
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await beta.q.messages(orders.local)).toEqual([]);
  });

  test('trust is per pair and both ways: a peer that does not trust the sender refuses it; a wrong fingerprint is refused', async () => {
    const orders = await queueOn(beta, 'trust');
    ok(await beta.svc.qk('peer', 'remove', 'NDALPHA'));
    try {
      await alpha.q.send(orders.remote, '--body', 'not yet', '--recoverable');
      await waitFor(
        async () => {
          const peers = ok(await alpha.svc.qk<QkPeer[]>('peer', 'list'));
          // NDBETA tells NDALPHA it is refused (a bare close would read as unreachable).
          return peers[0]?.state === 'refused' ? true : undefined;
        },
        'the session refused by NDBETA',
        10_000,
      );
      expect(await outgoingOf(alpha, `DIRECT=OS:${orders.remote}`)).toMatchObject({
        state: 'waiting',
        lastError: expect.stringContaining('NDBETA refused this computer'),
      });
      expect(await beta.q.messages(orders.local)).toEqual([]);
    } finally {
      await net.trustOneWay('NDBETA', 'NDALPHA');
    }
    await messagesEventually(beta, orders.local, 1, 'the message once trusted');
    // Another computer's fingerprint for NDBETA: TLS works, the pin does not match.
    ok(
      await alpha.svc.qk(
        'peer',
        'add',
        'NDBETA',
        beta.peerAddress,
        '--fingerprint',
        alpha.fingerprint.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      ),
    );
    try {
      await alpha.q.send(orders.remote, '--body', 'pinned', '--recoverable');
      await waitFor(
        async () => (ok(await alpha.svc.qk<QkPeer[]>('peer', 'list'))[0]?.state === 'refused' ? true : undefined),
        'the peer refused for its fingerprint',
        10_000,
      );
      expect(alpha.svc.stderr).toMatch(/another fingerprint/);
    } finally {
      await net.trustOneWay('NDALPHA', 'NDBETA');
    }
    await messagesEventually(beta, orders.local, 2, 'the pinned message once the fingerprint is right');
  });

  test('recoverable messages confirmed by the next hop survive kill -9 of the destination; nothing is lost', async () => {
    const orders = await queueOn(beta, 'crash');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await alpha.q.send(orders.remote, '--body', `c${i}`, '--recoverable'));
    await beta.svc.kill9();
    for (let i = 20; i < 30; i++) ids.push(await alpha.q.send(orders.remote, '--body', `c${i}`, '--recoverable'));
    await beta.svc.start();
    const got = await messagesEventually(beta, orders.local, 30, 'all thirty after the crash', 30_000);
    expect(new Set(got.map((m) => m.id))).toEqual(new Set(ids));
    expect(got).toHaveLength(30);
  });
});
