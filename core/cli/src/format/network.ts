/** Human output of peers, routes and outgoing queues (CLI.md "Many computers"). */
import type { OutgoingQueueInfo, PeerInfo, RouteInfo } from '@qk/model';
import { formatCount, orDash, renderFields, renderTable } from './table.js';

export function formatPeers(peers: PeerInfo[]): string {
  if (peers.length === 0) return 'No trusted peers. Add one with: qk peer add NAME HOST:PORT --fingerprint FP';
  return renderTable(
    [
      { header: 'NAME', value: (p: PeerInfo) => p.name },
      { header: 'ADDRESS', value: (p) => p.address },
      { header: 'STATE', value: (p) => p.state },
      { header: 'LAST CONNECTED', value: (p) => orDash(p.lastConnected) },
      { header: 'FINGERPRINT', value: (p) => p.fingerprint },
    ],
    peers,
  );
}

export function formatPeer(p: PeerInfo): string {
  return renderFields([
    ['Peer', p.name],
    ['Address', p.address],
    ['Fingerprint', p.fingerprint],
    ['State', p.state],
    ['Last connected', orDash(p.lastConnected)],
  ]);
}

export function formatRoutes(routes: RouteInfo[]): string {
  if (routes.length === 0) return 'No routes: messages go straight to the destination computer.';
  return renderTable(
    [
      { header: 'DESTINATION', value: (r: RouteInfo) => r.destination },
      { header: 'VIA', value: (r) => r.via },
    ],
    routes,
  );
}

export function formatRoute(r: RouteInfo): string {
  return r.destination === '*'
    ? `Messages for every computer without a route of its own go through ${r.via}.`
    : `Messages for ${r.destination} go through ${r.via}.`;
}

export function formatOutgoingQueues(queues: OutgoingQueueInfo[]): string {
  if (queues.length === 0) return 'No outgoing queues: nothing was sent to another computer yet.';
  return renderTable(
    [
      { header: 'FORMAT NAME', value: (q: OutgoingQueueInfo) => q.formatName },
      { header: 'STATE', value: (q) => q.state },
      { header: 'NEXT HOP', value: (q) => orDash(q.nextHop) },
      { header: 'MESSAGES', value: (q) => formatCount(q.messageCount), right: true },
      { header: 'BYTES', value: (q) => formatCount(q.bytes), right: true },
      { header: 'UNCONFIRMED', value: (q) => formatCount(q.unconfirmedCount), right: true },
      { header: 'LAST ERROR', value: (q) => orDash(q.lastError) },
    ],
    queues,
  );
}

export function formatOutgoingQueue(q: OutgoingQueueInfo): string {
  return renderFields([
    ['Outgoing queue', q.formatName],
    ['Destination computer', q.destinationComputer],
    ['Next hop', orDash(q.nextHop)],
    ['State', q.state],
    ['Messages', `${formatCount(q.messageCount)} (${formatCount(q.bytes)} bytes)`],
    ['Unconfirmed', formatCount(q.unconfirmedCount)],
    ['Last error', orDash(q.lastError)],
    ['Last connected', orDash(q.lastConnectedTime)],
  ]);
}
