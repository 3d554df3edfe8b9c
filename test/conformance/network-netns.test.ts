/**
 * Three computers as separate hosts: each service runs in a network namespace this test makes (veth pairs to a
 * bridge, addresses 10.77.x.y chosen by test/helpers/netns.ts), so peer links cross a real link that the test
 * can cut (a partition) and heal. Traffic stays inside the lab. Skipped, with the reason printed, where network
 * namespaces cannot be made (not root, not Linux).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Computers, type Computer } from '../helpers/computers.js';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';
import type { QkMessage, QkOutgoing } from '../helpers/qk-types.js';
import { NetnsLab, netnsUnavailable } from '../helpers/netns.js';

const why = await netnsUnavailable();
if (why) console.warn(`skipping the network-namespace delivery tests: ${why}`);

/** Quick reconnects and short call deadlines: a partition is noticed in seconds, not the production 30 s. */
const env = { QK_PEER_BACKOFF_MAX_MS: '1000', QK_PEER_CALL_TIMEOUT_MS: '4000' };

let lab: NetnsLab;
let net: Computers;
let alpha: Computer;
let beta: Computer;
let relay: Computer;

describe.skipIf(why !== null)('many computers: separate hosts in network namespaces', () => {
  beforeAll(async () => {
    lab = await NetnsLab.create(['NSALPHA', 'NSBETA', 'NSRELAY']);
    net = await Computers.start(
      ['NSALPHA', 'NSBETA', 'NSRELAY'].map((name) => ({
        name,
        env,
        netns: lab.host(name).netns,
        peerListen: `${lab.host(name).address}:0`,
        routing: name === 'NSRELAY',
      })),
    );
    alpha = net.get('NSALPHA');
    beta = net.get('NSBETA');
    relay = net.get('NSRELAY');
    await net.trust('NSALPHA', 'NSBETA');
    await net.trust('NSALPHA', 'NSRELAY');
    await net.trust('NSBETA', 'NSRELAY');
  }, 60_000);
  afterAll(async () => {
    await net?.dispose();
    await lab?.dispose();
  });

  async function eventually(c: Computer, path: string, count: number, what: string, ms = 30_000): Promise<QkMessage[]> {
    return waitFor(
      async () => {
        const list = await c.q.messages(path);
        return list.length >= count ? list : undefined;
      },
      what,
      ms,
    );
  }

  test('each computer listens on its own host address; R-J1 a message crosses the link and the ACK comes back', async () => {
    expect(alpha.peerAddress.startsWith(`${lab.host('NSALPHA').address}:`)).toBe(true);
    expect(beta.peerAddress.startsWith(`${lab.host('NSBETA').address}:`)).toBe(true);
    const name = uniqueName('orders');
    await beta.q.createQueue(`.\\private$\\${name}`);
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    const id = await alpha.q.send(
      `NSBETA\\private$\\${name}`,
      ...['--body', 'across hosts', '--recoverable', '--journal', 'journal', '--ack', 'full-reach-queue'],
      ...['--admin-queue', admin],
    );
    const [m] = await eventually(beta, `.\\private$\\${name}`, 1, 'the message at BETA');
    expect(m).toMatchObject({ id, body: 'across hosts', sourceMachine: 'NSALPHA' });
    const [ack] = await eventually(alpha, admin, 1, 'ACK_REACH_QUEUE at ALPHA');
    expect(ack).toMatchObject({ class: 'ACK_REACH_QUEUE', correlationId: id });
    expect(await alpha.q.copiesOf('.\\JOURNAL$', id)).toHaveLength(1);
  });

  test('a partition: messages wait in the outgoing queue (waiting); when the link heals every one arrives once, transactional ones in order (R-E1)', async () => {
    const plain = uniqueName('plain');
    const xact = uniqueName('xact');
    await beta.q.createQueue(`.\\private$\\${plain}`);
    await beta.q.createQueue(`.\\private$\\${xact}`, '--transactional');
    // Open the session first so the partition cuts a live connection, not an idle peer.
    await alpha.q.send(`NSBETA\\private$\\${plain}`, '--body', 'before', '--recoverable');
    await eventually(beta, `.\\private$\\${plain}`, 1, 'the first message at BETA');

    await lab.linkDown('NSBETA');
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(await alpha.q.send(`NSBETA\\private$\\${plain}`, '--body', `p${i}`, '--recoverable'));
      const xids: string[] = [];
      for (let i = 0; i < 5; i++)
        xids.push(await alpha.q.send(`NSBETA\\private$\\${xact}`, '--body', `t${i}`, '--transactional'));
      const waiting = await waitFor(
        async () => {
          const o = await net.outgoing('NSALPHA', `DIRECT=OS:NSBETA\\private$\\${plain}`);
          return o?.state === 'waiting' ? o : undefined;
        },
        "ALPHA's outgoing queue for BETA waiting while the link is down",
        30_000,
      );
      expect(waiting).toMatchObject({ nextHop: 'NSBETA', messageCount: 5 });
      expect(waiting.lastError).toBeTruthy();
    } finally {
      await lab.linkUp('NSBETA');
    }
    const plainAt = await eventually(beta, `.\\private$\\${plain}`, 6, 'six messages at BETA after the heal', 60_000);
    expect(plainAt.map((m) => m.body).sort()).toEqual(['before', 'p0', 'p1', 'p2', 'p3', 'p4']);
    const xactAt = await eventually(beta, `.\\private$\\${xact}`, 5, 'five transactional messages at BETA', 60_000);
    expect(xactAt.map((m) => m.body)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    await waitFor(
      async () => {
        const list = ok(await alpha.svc.qk<QkOutgoing[]>('outgoing', 'list'));
        const o = list.find((q) => q.formatName === `DIRECT=OS:NSBETA\\private$\\${xact}`);
        return o && o.messageCount === 0 && o.unconfirmedCount === 0 ? o : undefined;
      },
      'the transactional outgoing queue empty and confirmed',
      60_000,
    );
    // Nothing was delivered twice, whatever the link did.
    expect((await beta.q.messages(`.\\private$\\${plain}`)).length).toBe(6);
    expect((await beta.q.messages(`.\\private$\\${xact}`)).length).toBe(5);
  });

  test('through the routing server on its own host: route set, the relay stores and forwards, the ACK returns', async () => {
    ok(await alpha.svc.qk('route', 'set', 'NSBETA', 'NSRELAY'));
    ok(await beta.svc.qk('route', 'set', 'NSALPHA', 'NSRELAY'));
    try {
      const name = uniqueName('routed');
      await beta.q.createQueue(`.\\private$\\${name}`);
      const admin = `.\\private$\\${uniqueName('admin')}`;
      await alpha.q.createQueue(admin);
      const id = await alpha.q.send(
        `NSBETA\\private$\\${name}`,
        ...['--body', 'via relay', '--recoverable', '--ack', 'full-reach-queue', '--admin-queue', admin],
      );
      expect((await net.outgoing('NSALPHA', `DIRECT=OS:NSBETA\\private$\\${name}`))?.nextHop).toBe('NSRELAY');
      const [m] = await eventually(beta, `.\\private$\\${name}`, 1, 'the routed message at BETA');
      expect(m).toMatchObject({ id, body: 'via relay' });
      const [ack] = await eventually(alpha, admin, 1, 'the ACK back through the relay');
      expect(ack).toMatchObject({ class: 'ACK_REACH_QUEUE', correlationId: id });
      expect(await relay.q.copiesOf('.\\JOURNAL$', id)).toEqual([]);
    } finally {
      ok(await alpha.svc.qk('route', 'remove', 'NSBETA'));
      ok(await beta.svc.qk('route', 'remove', 'NSALPHA'));
    }
  });
});
