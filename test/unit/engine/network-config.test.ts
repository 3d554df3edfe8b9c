import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openHarness, type Harness } from './helpers.js';

const FP = `sha256:${'ab'.repeat(32)}`;
const FP2 = `sha256:${'cd'.repeat(32)}`;

let h: Harness;
beforeEach(() => {
  h = openHarness('ALPHA');
});
afterEach(async () => {
  await h.dispose();
});

describe('network configuration', () => {
  test('peers: add, replace by name (case-insensitive), remove; kept across a restart', async () => {
    const net = () => h.qm.networkConfig;
    net().putPeer({
      name: 'BETA',
      address: '127.0.0.1:4000',
      fingerprint: FP.toUpperCase().replace('SHA256', 'sha256'),
    });
    expect(net().peers()).toEqual([
      { name: 'BETA', address: '127.0.0.1:4000', fingerprint: FP, lastConnectedMs: null },
    ]);
    net().peerConnected('BETA', 1234);
    net().putPeer({ name: 'beta', address: '127.0.0.1:4001', fingerprint: FP });
    expect(net().peers()).toEqual([
      { name: 'beta', address: '127.0.0.1:4001', fingerprint: FP, lastConnectedMs: 1234 },
    ]);
    await h.reopen();
    expect(net().peers()).toHaveLength(1);
    net().removePeer('BETA');
    expect(net().peers()).toEqual([]);
    expect(() => net().removePeer('BETA')).toThrow(expect.objectContaining({ code: 'PEER_NOT_FOUND' }));
  });

  test('peers: bad names, addresses and fingerprints are refused and change nothing', () => {
    const net = h.qm.networkConfig;
    const bad = [
      { name: 'ALPHA', address: '127.0.0.1:4000', fingerprint: FP }, // itself
      { name: 'alpha', address: '127.0.0.1:4000', fingerprint: FP },
      { name: 'BE\\TA', address: '127.0.0.1:4000', fingerprint: FP },
      { name: '*', address: '127.0.0.1:4000', fingerprint: FP },
      { name: 'BETA', address: '127.0.0.1', fingerprint: FP },
      { name: 'BETA', address: '127.0.0.1:0', fingerprint: FP },
      { name: 'BETA', address: '127.0.0.1:70000', fingerprint: FP },
      { name: 'BETA', address: '127.0.0.1:4000', fingerprint: 'ab'.repeat(32) },
    ];
    for (const input of bad)
      expect(() => net.putPeer(input), JSON.stringify(input)).toThrow(
        expect.objectContaining({ code: 'INVALID_PARAMETER' }),
      );
    expect(net.peers()).toEqual([]);
  });

  test('peers: one fingerprint is one computer', () => {
    const net = h.qm.networkConfig;
    net.putPeer({ name: 'BETA', address: '[::1]:4000', fingerprint: FP });
    expect(() => net.putPeer({ name: 'GAMMA', address: '127.0.0.1:4001', fingerprint: FP })).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETER' }),
    );
    net.putPeer({ name: 'GAMMA', address: '127.0.0.1:4001', fingerprint: FP2 });
    expect(net.peers().map((p) => p.name)).toEqual(['BETA', 'GAMMA']);
  });

  test('routes: set, replace, wildcard, remove; a route to or through this computer is refused', () => {
    const net = h.qm.networkConfig;
    expect(net.setRoute('BETA', 'RELAY')).toEqual({ destination: 'BETA', via: 'RELAY' });
    net.setRoute('beta', 'RELAY2');
    net.setRoute('*', 'RELAY');
    expect(net.routes()).toEqual([
      { destination: '*', via: 'RELAY' },
      { destination: 'beta', via: 'RELAY2' },
    ]);
    for (const [dest, via] of [
      ['ALPHA', 'RELAY'],
      ['BETA', 'alpha'],
      ['BETA', 'BETA'],
      ['BETA', '*'],
    ] as const)
      expect(() => net.setRoute(dest, via)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    net.removeRoute('BETA');
    expect(() => net.removeRoute('BETA')).toThrow(expect.objectContaining({ code: 'ROUTE_NOT_FOUND' }));
    expect(net.routes()).toEqual([{ destination: '*', via: 'RELAY' }]);
  });

  test('outgoing queues: pause before the first message, send, resume; the hold survives a restart', async () => {
    const held = h.qm.networkConfig.setOutgoingPaused('BETA\\private$\\orders', true);
    expect(held).toMatchObject({
      formatName: 'DIRECT=OS:BETA\\private$\\orders',
      destinationComputer: 'BETA',
      messageCount: 0,
      paused: true,
    });
    await h.qm.send('DIRECT=OS:beta\\private$\\ORDERS', { body: 'x', delivery: 'recoverable' });
    await h.reopen();
    expect(h.qm.networkConfig.outgoingQueues()).toEqual([
      expect.objectContaining({
        formatName: 'DIRECT=OS:BETA\\private$\\orders',
        messageCount: 1,
        // A 124-byte header, the 1-byte body and the destination's format name in UTF-16.
        bytes: 124 + 1 + 2 * 'DIRECT=OS:BETA\\private$\\orders'.length,
        paused: true,
      }),
    ]);
    const resumed = h.qm.networkConfig.setOutgoingPaused('DIRECT=OS:BETA\\private$\\orders', false);
    expect(resumed.paused).toBe(false);
    expect(() => h.qm.networkConfig.setOutgoingPaused('.\\private$\\orders', true)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETER' }),
    );
  });

  test('outgoing queues: resuming one that is not there (never used, not held) is QUEUE_NOT_FOUND and adds none', () => {
    expect(() => h.qm.networkConfig.setOutgoingPaused('DIRECT=OS:GAMMA\\private$\\x', false)).toThrow(
      expect.objectContaining({ code: 'QUEUE_NOT_FOUND' }),
    );
    expect(h.qm.networkConfig.outgoingQueues()).toEqual([]);
  });

  test('offline mode is durable', async () => {
    expect(h.qm.networkConfig.offline()).toBe(false);
    h.qm.networkConfig.setOffline(true);
    await h.reopen();
    expect(h.qm.networkConfig.offline()).toBe(true);
  });
});
