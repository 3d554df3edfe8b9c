/**
 * R-E3 with real services: a transactional message that runs out of time-to-reach-queue, or is purged, in the
 * source's outgoing queue leaves no gap that blocks its stream — each transactional message carries its previous
 * number, and the destination takes it once it has that one (R-E1: what follows arrives once, in order). Direct,
 * and through a routing server. Three services on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Computers, type Computer } from '../helpers/computers.js';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';

const env = { QK_PEER_BACKOFF_MAX_MS: '1000', QK_PEER_CALL_TIMEOUT_MS: '5000' };

let net: Computers;
let alpha: Computer;
let beta: Computer;
let relay: Computer;
beforeAll(async () => {
  net = await Computers.start([
    { name: 'SGALPHA', env },
    { name: 'SGBETA', env },
    { name: 'SGRELAY', env, routing: true },
  ]);
  alpha = net.get('SGALPHA');
  beta = net.get('SGBETA');
  relay = net.get('SGRELAY');
  // ALPHA reaches RELAY's own queues directly, and BETA's through RELAY (routing server).
  await net.throughRoutingServer('SGALPHA', 'SGBETA', 'SGRELAY');
}, 60_000);
afterAll(async () => {
  await net?.dispose();
});

/** The bodies in `path` on `c` once there are `count` of them. */
async function bodiesWhen(c: Computer, path: string, count: number, what: string): Promise<string[]> {
  const list = await waitFor(
    async () => {
      const messages = await c.q.messages(path);
      return messages.length >= count ? messages : undefined;
    },
    what,
    20_000,
  );
  return list.map((m) => m.body ?? '');
}

/** Waits until the source's outgoing queue is empty and nothing waits for its confirmation. */
async function settledOutgoing(formatName: string, what: string): Promise<void> {
  await waitFor(
    async () => {
      const o = await net.outgoing('SGALPHA', formatName);
      return o && o.messageCount === 0 && o.unconfirmedCount === 0 ? o : undefined;
    },
    what,
    20_000,
  );
}

/**
 * `first` arrives; with the outgoing queue paused, `gap` makes numbers that never leave ALPHA; once resumed,
 * `after` must arrive behind `first`.
 */
async function gapThenAfter(
  computer: Computer,
  gap: (path: string, formatName: string) => Promise<void>,
): Promise<{ bodies: string[]; formatName: string }> {
  const name = uniqueName('txq');
  await computer.q.createQueue(`.\\private$\\${name}`, '--transactional');
  const path = `${computer.name}\\private$\\${name}`;
  const formatName = `DIRECT=OS:${path}`;
  await alpha.q.send(path, '--body', 'first', '--transactional');
  expect(await bodiesWhen(computer, `.\\private$\\${name}`, 1, 'first at the destination')).toEqual(['first']);
  await settledOutgoing(formatName, 'first confirmed');
  ok(await alpha.svc.qk('outgoing', 'pause', formatName));
  try {
    await gap(path, formatName);
  } finally {
    ok(await alpha.svc.qk('outgoing', 'resume', formatName));
  }
  await alpha.q.send(path, '--body', 'after', '--transactional');
  const bodies = await bodiesWhen(computer, `.\\private$\\${name}`, 2, 'the message sent after the gap');
  await settledOutgoing(formatName, 'the message after the gap confirmed');
  return { bodies, formatName };
}

/** A transactional message that runs out of time-to-reach-queue while its outgoing queue is paused. */
async function expires(path: string, formatName: string): Promise<void> {
  await alpha.q.send(path, '--body', 'expires', '--transactional', '--ttrq', '1', '--journal', 'deadletter');
  await waitFor(
    async () => ((await net.outgoing('SGALPHA', formatName))?.messageCount === 0 ? true : undefined),
    'the message expired in the outgoing queue',
    20_000,
  );
}

describe('many computers: a number abandoned at the source leaves no gap (R-E3)', () => {
  test('R-E3 R-E1 a transactional message that runs out of time-to-reach-queue in the outgoing queue: the next one still arrives, in order', async () => {
    const { bodies } = await gapThenAfter(relay, expires);
    expect(bodies).toEqual(['first', 'after']);
    const dead = await alpha.q.messages('.\\XACTDEADLETTER$');
    expect(dead.filter((m) => m.body === 'expires').map((m) => m.class)).toEqual(['NACK_REACH_QUEUE_TIMEOUT']);
  });

  test('R-E3 R-E1 a purge of the outgoing queue: the message sent after it still arrives, in order', async () => {
    const { bodies } = await gapThenAfter(relay, async (path) => {
      for (const body of ['purged-1', 'purged-2']) await alpha.q.send(path, '--body', body, '--transactional');
      expect(await alpha.q.purge(path)).toBe(2);
    });
    expect(bodies).toEqual(['first', 'after']);
  });

  test('R-E3 R-E1 through a routing server: the message after an expired one arrives once, and the routing server keeps no copy', async () => {
    const { bodies, formatName } = await gapThenAfter(beta, expires);
    expect(bodies).toEqual(['first', 'after']);
    const atRelay = await waitFor(
      async () => {
        const o = await net.outgoing('SGRELAY', formatName);
        return o === undefined || o.messageCount === 0 ? (o ?? null) : undefined;
      },
      'the routing server forwarded everything',
      20_000,
    );
    expect(atRelay?.messageCount ?? 0).toBe(0);
  });

  test('R-E4 back online (qk service connect): what was sent and not confirmed goes again at once, not at its next resend time', async () => {
    const name = uniqueName('txq');
    await beta.q.createQueue(`.\\private$\\${name}`, '--transactional');
    const path = `SGBETA\\private$\\${name}`;
    const formatName = `DIRECT=OS:${path}`;
    // RELAY holds it: ALPHA's copy stays unconfirmed (R-E3) until BETA has it.
    ok(await relay.svc.qk('outgoing', 'pause', formatName));
    try {
      const sentAt = Date.now();
      await alpha.q.send(path, '--body', 'held', '--transactional');
      await waitFor(
        async () => {
          const o = await net.outgoing('SGALPHA', formatName);
          return o && o.messageCount === 1 && o.unconfirmedCount === 1 ? o : undefined;
        },
        'RELAY stored it and ALPHA waits for the confirmation',
        20_000,
      );
      ok(await alpha.svc.qk('service', 'disconnect'));
      ok(await alpha.svc.qk('service', 'connect'));
      // A session dials only for work: without the resend at once it stays 'waiting' until SeqResend13Time (30 s).
      await waitFor(
        async () => ((await net.outgoing('SGALPHA', formatName))?.state === 'connected' ? true : undefined),
        'ALPHA dialled RELAY again to resend at once',
        10_000,
      );
      expect(Date.now() - sentAt).toBeLessThan(25_000);
    } finally {
      ok(await relay.svc.qk('outgoing', 'resume', formatName));
    }
    expect(await bodiesWhen(beta, `.\\private$\\${name}`, 1, 'the held message at BETA')).toEqual(['held']);
    await settledOutgoing(formatName, 'the held message confirmed');
  }, 60_000);
});
