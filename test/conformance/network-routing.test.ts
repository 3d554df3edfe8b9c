/**
 * Routing servers (docs/network.md; CLI.md `qk route`): messages for a computer go through a routing server
 * that stores and forwards them; a routing loop ends at the hop limit (R-H1). Three real services on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Computers, type Computer } from '../helpers/computers.js';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';
import type { QkMessage, QkOutgoing } from '../helpers/qk-types.js';

const env = { QK_PEER_BACKOFF_MAX_MS: '1000', QK_PEER_CALL_TIMEOUT_MS: '5000' };

let net: Computers;
let alpha: Computer;
let beta: Computer;
let relay: Computer;
beforeAll(async () => {
  net = await Computers.start([
    { name: 'RTALPHA', env, routing: true },
    { name: 'RTBETA', env },
    { name: 'RTRELAY', env, routing: true },
  ]);
  alpha = net.get('RTALPHA');
  beta = net.get('RTBETA');
  relay = net.get('RTRELAY');
  // ALPHA and BETA do not trust each other: everything between them goes through RELAY.
  await net.throughRoutingServer('RTALPHA', 'RTBETA', 'RTRELAY');
});
afterAll(async () => {
  await net?.dispose();
});

async function eventually(c: Computer, path: string, count: number, what: string, ms = 20_000): Promise<QkMessage[]> {
  return waitFor(
    async () => {
      const list = await c.q.messages(path);
      return list.length >= count ? list : undefined;
    },
    what,
    ms,
  );
}

describe('many computers: routing servers', () => {
  test('a message goes through the routing server; acknowledgments come back the same way; the routing server journals nothing', async () => {
    const name = uniqueName('orders');
    await beta.q.createQueue(`.\\private$\\${name}`);
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    const id = await alpha.q.send(
      `RTBETA\\private$\\${name}`,
      ...['--body', 'via relay', '--recoverable', '--journal', 'journal', '--ack', '15', '--admin-queue', admin],
    );
    const outgoing = await net.outgoing('RTALPHA', `DIRECT=OS:RTBETA\\private$\\${name}`);
    expect(outgoing?.nextHop).toBe('RTRELAY');
    const [m] = await eventually(beta, `.\\private$\\${name}`, 1, 'the message at BETA');
    expect(m).toMatchObject({ id, body: 'via relay', sourceMachine: 'RTALPHA' });
    await beta.q.receive(`.\\private$\\${name}`);
    const acks = await eventually(alpha, admin, 2, 'ACK_REACH_QUEUE and ACK_RECEIVE at ALPHA');
    expect(acks.map((a) => a.class).sort()).toEqual(['ACK_REACH_QUEUE', 'ACK_RECEIVE']);
    expect(await relay.q.copiesOf('.\\JOURNAL$', id)).toEqual([]);
    // R-J1: the source journals once the next hop (the routing server) stored it.
    expect((await alpha.q.copiesOf('.\\JOURNAL$', id)).length).toBe(1);
  });

  test('R-E1 transactional messages through the routing server: exactly once, in order; the destination confirms to the source (R-J4)', async () => {
    const name = uniqueName('xact');
    await beta.q.createQueue(`.\\private$\\${name}`, '--transactional');
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push(
        await alpha.q.send(`RTBETA\\private$\\${name}`, '--body', `t${i}`, '--transactional', '--journal', 'journal'),
      );
    const got = await eventually(beta, `.\\private$\\${name}`, 8, 'eight transactional messages at BETA');
    expect(got.map((m) => m.id)).toEqual(ids);
    const formatName = `DIRECT=OS:RTBETA\\private$\\${name}`;
    await waitFor(
      async () => {
        const o = ok(await alpha.svc.qk<QkOutgoing[]>('outgoing', 'list')).find((q) => q.formatName === formatName);
        return o && o.messageCount === 0 && o.unconfirmedCount === 0 ? o : undefined;
      },
      'the destination confirmations back at ALPHA (empty outgoing queue, none unconfirmed)',
      20_000,
    );
    const journal = await alpha.q.messages('.\\JOURNAL$');
    expect(journal.filter((m) => ids.includes(m.id))).toHaveLength(8);
  });

  test('R-H1 a routing loop ends at the hop limit with NACK_HOP_COUNT_EXCEEDED and a dead letter where it ended', async () => {
    // ALPHA and RELAY each send LOOPHOST through the other.
    ok(await alpha.svc.qk('route', 'set', 'LOOPHOST', 'RTRELAY'));
    ok(await relay.svc.qk('route', 'set', 'LOOPHOST', 'RTALPHA'));
    const admin = `.\\private$\\${uniqueName('admin')}`;
    await alpha.q.createQueue(admin);
    const id = await alpha.q.send(
      'LOOPHOST\\private$\\nowhere',
      ...[
        '--body',
        'round and round',
        '--recoverable',
        '--journal',
        'deadletter',
        '--ack',
        'nack-reach-queue',
        '--admin-queue',
        admin,
      ],
    );
    const [nack] = await eventually(alpha, admin, 1, 'NACK_HOP_COUNT_EXCEEDED at ALPHA', 30_000);
    expect(nack).toMatchObject({ class: 'NACK_HOP_COUNT_EXCEEDED', classCode: 0x8005, correlationId: id });
    const dead = [...(await alpha.q.copiesOf('.\\DEADLETTER$', id)), ...(await relay.q.copiesOf('.\\DEADLETTER$', id))];
    expect(dead.map((m) => m.class)).toEqual(['NACK_HOP_COUNT_EXCEEDED']);
  });

  test('R-H1 R-D2 a transactional message in a routing loop ends at the hop limit too: one NACK, one dead letter on its source', async () => {
    // The same loop as above (ALPHA and RELAY route LOOPHOST through each other), for a transactional message:
    // the source keeps it to send again and each routing server passes it on, so it goes round to the limit.
    ok(await alpha.svc.qk('route', 'set', 'LOOPHOST', 'RTRELAY'));
    ok(await relay.svc.qk('route', 'set', 'LOOPHOST', 'RTALPHA'));
    const admin = `.\\private$\\${uniqueName('xadmin')}`;
    await alpha.q.createQueue(admin);
    const id = await alpha.q.send(
      'LOOPHOST\\private$\\xnowhere',
      ...[
        '--body',
        'round and round, in a transaction',
        '--transactional',
        '--journal',
        'deadletter',
        '--ack',
        'nack-reach-queue',
        '--admin-queue',
        admin,
      ],
    );
    const [nack] = await eventually(alpha, admin, 1, 'NACK_HOP_COUNT_EXCEEDED at ALPHA', 30_000);
    expect(nack).toMatchObject({ class: 'NACK_HOP_COUNT_EXCEEDED', classCode: 0x8005, correlationId: id });
    const [dead] = await eventually(alpha, '.\\XACTDEADLETTER$', 1, 'the dead letter on the source', 10_000).then(
      (list) => list.filter((m) => m.id === id),
    );
    expect(dead?.class).toBe('NACK_HOP_COUNT_EXCEEDED');
    expect(await relay.q.copiesOf('.\\XACTDEADLETTER$', id)).toEqual([]);
    // It stops going round: no copy left in either outgoing queue, and no second NACK.
    await waitFor(
      async () => {
        const queues = [
          ...ok(await alpha.svc.qk<QkOutgoing[]>('outgoing', 'list')),
          ...ok(await relay.svc.qk<QkOutgoing[]>('outgoing', 'list')),
        ];
        const left = queues.filter((o) => o.formatName.toLowerCase().includes('xnowhere'));
        return left.every((o) => o.messageCount === 0) ? true : undefined;
      },
      'no copy left going round',
      10_000,
    );
    expect((await alpha.q.messages(admin)).length).toBe(1);
  });
});
