/**
 * CLI.md "Many computers": the configuration contract — peer listener and fingerprint in the ready line and
 * status, `qk peer`, `qk route`, `qk outgoing`, offline mode — on two real services. Delivery itself is
 * checked by network-delivery.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Computers } from '../helpers/computers.js';
import { failsWith, ok } from '../helpers/qk-expect.js';
import type { QkOutgoing, QkPeer, QkRoute, QkStatus } from '../helpers/qk-types.js';

let net: Computers;
beforeAll(async () => {
  net = await Computers.start([{ name: 'CFGALPHA' }, { name: 'CFGBETA', routing: true }]);
});
afterAll(async () => {
  await net?.dispose();
});

const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;

describe('many computers: configuration', () => {
  test('the ready line and status tell the peer address and fingerprint; --routing shows in status', async () => {
    const alpha = net.get('CFGALPHA');
    expect(alpha.peerAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(alpha.peerAddress).not.toMatch(/:0$/);
    expect(alpha.fingerprint).toMatch(FINGERPRINT);
    const status = ok(await alpha.svc.qk<QkStatus>('service', 'status'));
    expect(status).toMatchObject({
      peerAddress: alpha.peerAddress,
      peerFingerprint: alpha.fingerprint,
      routing: false,
    });
    const beta = ok(await net.get('CFGBETA').svc.qk<QkStatus>('service', 'status'));
    expect(beta.routing).toBe(true);
    expect(beta.peerFingerprint).not.toBe(alpha.fingerprint);
  });

  test('service restart prints the restarted service status, network part included; the peer listener and --routing stay', async () => {
    for (const name of ['CFGALPHA', 'CFGBETA']) {
      const computer = net.get(name);
      const restarted = ok(await computer.svc.qk<QkStatus>('service', 'restart'));
      const status = ok(await computer.svc.qk<QkStatus>('service', 'status'));
      expect(restarted).toMatchObject({
        peerAddress: computer.peerAddress,
        peerFingerprint: computer.fingerprint,
        routing: name === 'CFGBETA',
      });
      expect(status).toMatchObject({
        peerAddress: restarted.peerAddress,
        peerFingerprint: restarted.peerFingerprint,
        routing: restarted.routing,
      });
    }
  });

  test("the key is the owner's alone (0600) and the fingerprint is the certificate's SHA-256", async () => {
    const { svc, fingerprint } = net.get('CFGALPHA');
    const { statSync } = await import('node:fs');
    expect(statSync(join(svc.dataDir, 'peer.key')).mode & 0o777).toBe(0o600);
    const { X509Certificate } = await import('node:crypto');
    const cert = new X509Certificate(readFileSync(join(svc.dataDir, 'peer.crt')));
    expect(`sha256:${cert.fingerprint256.replace(/:/g, '').toLowerCase()}`).toBe(fingerprint);
  });

  test('peer add, list, replace by name, remove; refusals change nothing', async () => {
    const { svc } = net.get('CFGALPHA');
    const beta = net.get('CFGBETA');
    const added = ok(
      await svc.qk<QkPeer>('peer', 'add', 'CFGBETA', beta.peerAddress, '--fingerprint', beta.fingerprint),
    );
    expect(added).toEqual({
      name: 'CFGBETA',
      address: beta.peerAddress,
      fingerprint: beta.fingerprint,
      lastConnected: null,
      state: expect.stringMatching(/^(connected|idle|unreachable|refused)$/),
    });
    // The same computer at another address replaces the entry; colons and capitals are read as well.
    const pasted = `SHA256:${beta.fingerprint.slice(7).toUpperCase().match(/../g)!.join(':')}`;
    ok(await svc.qk('peer', 'add', 'cfgbeta', '127.0.0.1:1', '--fingerprint', pasted));
    let peers = ok(await svc.qk<QkPeer[]>('peer', 'list'));
    expect(peers).toEqual([
      expect.objectContaining({ name: 'cfgbeta', address: '127.0.0.1:1', fingerprint: beta.fingerprint }),
    ]);

    failsWith(
      await svc.qk('peer', 'add', 'GAMMA', '127.0.0.1:2', '--fingerprint', beta.fingerprint),
      'INVALID_PARAMETER',
    );
    failsWith(await svc.qk('peer', 'add', 'GAMMA', '127.0.0.1:2', '--fingerprint', 'sha256:1234'), 'INVALID_PARAMETER');
    failsWith(
      await svc.qk('peer', 'add', 'GAMMA', 'nowhere', '--fingerprint', `sha256:${'0'.repeat(64)}`),
      'INVALID_PARAMETER',
    );
    failsWith(
      await svc.qk('peer', 'add', 'GAMMA', '127.0.0.1:2', '--fingerprint', net.get('CFGALPHA').fingerprint),
      'INVALID_PARAMETER',
    );
    failsWith(
      await svc.qk('peer', 'add', 'CFGALPHA', '127.0.0.1:2', '--fingerprint', `sha256:${'1'.repeat(64)}`),
      'INVALID_PARAMETER',
    );
    peers = ok(await svc.qk<QkPeer[]>('peer', 'list'));
    expect(peers.map((p) => p.name)).toEqual(['cfgbeta']);

    expect(ok(await svc.qk('peer', 'remove', 'CFGBETA'))).toEqual({});
    expect(ok(await svc.qk<QkPeer[]>('peer', 'list'))).toEqual([]);
    failsWith(await svc.qk('peer', 'remove', 'CFGBETA'), 'PEER_NOT_FOUND');
  });

  test('route set, list, remove, and the * route', async () => {
    const { svc } = net.get('CFGALPHA');
    expect(ok(await svc.qk<QkRoute>('route', 'set', 'FARAWAY', 'CFGBETA'))).toEqual({
      destination: 'FARAWAY',
      via: 'CFGBETA',
    });
    ok(await svc.qk('route', 'set', '*', 'CFGBETA'));
    expect(ok(await svc.qk<QkRoute[]>('route', 'list'))).toEqual(
      expect.arrayContaining([
        { destination: 'FARAWAY', via: 'CFGBETA' },
        { destination: '*', via: 'CFGBETA' },
      ]),
    );
    failsWith(await svc.qk('route', 'set', 'CFGALPHA', 'CFGBETA'), 'INVALID_PARAMETER');
    expect(ok(await svc.qk('route', 'remove', 'FARAWAY'))).toEqual({});
    expect(ok(await svc.qk('route', 'remove', '*'))).toEqual({});
    failsWith(await svc.qk('route', 'remove', '*'), 'ROUTE_NOT_FOUND');
    expect(ok(await svc.qk<QkRoute[]>('route', 'list'))).toEqual([]);
  });

  test('a send to another computer waits in its outgoing queue: state, next hop, counts, last error', async () => {
    const { svc, q } = net.get('CFGALPHA');
    await q.send('NOWHERE\\private$\\orders', '--body', 'hello', '--recoverable');
    const outgoing = await net.outgoing('CFGALPHA', 'DIRECT=OS:NOWHERE\\private$\\orders');
    expect(outgoing).toEqual({
      formatName: 'DIRECT=OS:NOWHERE\\private$\\orders',
      destinationComputer: 'NOWHERE',
      nextHop: null,
      state: 'waiting',
      messageCount: 1,
      bytes: expect.any(Number),
      unconfirmedCount: 0,
      lastError: expect.stringContaining('NOWHERE'),
      lastConnectedTime: null,
    });
    // A route names the next hop even before that hop is trusted.
    ok(await svc.qk('route', 'set', 'NOWHERE', 'CFGBETA'));
    expect(await net.outgoing('CFGALPHA', 'DIRECT=OS:NOWHERE\\private$\\orders')).toMatchObject({
      nextHop: 'CFGBETA',
      state: 'waiting',
    });
    ok(await svc.qk('route', 'remove', 'NOWHERE'));
  });

  test('outgoing pause and resume (MSMQ Pause/Resume): onHold, messages stay, and the hold outlives a restart', async () => {
    const { svc, q } = net.get('CFGALPHA');
    const formatName = 'DIRECT=OS:HELD\\private$\\orders';
    await q.send('HELD\\private$\\orders', '--body', 'stay', '--recoverable');
    const paused = ok(await svc.qk<QkOutgoing>('outgoing', 'pause', formatName));
    expect(paused).toMatchObject({ formatName, state: 'onHold', messageCount: 1 });
    await svc.restart();
    expect(await net.outgoing('CFGALPHA', formatName)).toMatchObject({ state: 'onHold', messageCount: 1 });
    const resumed = ok(await svc.qk<QkOutgoing>('outgoing', 'resume', formatName));
    expect(resumed).toMatchObject({ state: 'waiting', messageCount: 1 });
    failsWith(await svc.qk('outgoing', 'pause', '.\\private$\\local'), 'INVALID_PARAMETER');
    // Nothing to resume: a destination never sent to and not held (exit 1, and no entry appears).
    const never = 'DIRECT=OS:GAMMA\\private$\\never';
    failsWith(await svc.qk('outgoing', 'resume', never), 'QUEUE_NOT_FOUND');
    expect(await net.outgoing('CFGALPHA', never)).toBeUndefined();
  });

  test('service disconnect and connect: offline mode holds every outgoing queue, durably', async () => {
    const { svc, q } = net.get('CFGALPHA');
    await q.send('OFFLINE\\private$\\orders', '--body', 'x', '--recoverable');
    const off = ok(await svc.qk<QkStatus & { offline: boolean }>('service', 'disconnect'));
    expect(off.offline).toBe(true);
    expect(await net.outgoing('CFGALPHA', 'DIRECT=OS:OFFLINE\\private$\\orders')).toMatchObject({ state: 'onHold' });
    await svc.restart();
    expect(ok(await svc.qk<{ offline: boolean }>('service', 'status')).offline).toBe(true);
    const on = ok(await svc.qk<{ offline: boolean }>('service', 'connect'));
    expect(on.offline).toBe(false);
    expect(await net.outgoing('CFGALPHA', 'DIRECT=OS:OFFLINE\\private$\\orders')).toMatchObject({ state: 'waiting' });
  });

  test('configuration changes are audited administrator operations', async () => {
    const { svc } = net.get('CFGALPHA');
    const audit = readFileSync(join(svc.dataDir, 'audit.log'), 'utf8');
    for (const op of [
      'peerAdd',
      'peerRemove',
      'routeSet',
      'routeRemove',
      'outgoingPause',
      'outgoingResume',
      'serviceDisconnect',
      'serviceConnect',
    ])
      expect(audit, op).toContain(`"${op}"`);
  });
});
