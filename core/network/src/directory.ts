/**
 * Trusted peers and routes in memory, and the one rule that picks a next hop (docs/network.md): a route of
 * the destination's own, else the `*` route, else the destination itself; the hop must be a trusted peer.
 */
import { ROUTE_ANY, type RouteInfo } from '@qk/model';
import type { StoredPeer } from '@qk/engine';

/** Where a message for a computer goes next, or why it cannot go. */
export type NextHop =
  { ok: true; peer: StoredPeer; routed: boolean } | { ok: false; hop: string | null; error: string };

export class Directory {
  private peersByName = new Map<string, StoredPeer>();
  private peersByFingerprint = new Map<string, StoredPeer>();
  private routesByDestination = new Map<string, RouteInfo>();

  /** Replaces what the directory knows (after a change, or when the engine restarted). */
  load(peers: readonly StoredPeer[], routes: readonly RouteInfo[]): void {
    this.peersByName = new Map(peers.map((p) => [p.name.toLowerCase(), p]));
    this.peersByFingerprint = new Map(peers.map((p) => [p.fingerprint, p]));
    this.routesByDestination = new Map(routes.map((r) => [r.destination.toLowerCase(), r]));
  }

  peers(): StoredPeer[] {
    return [...this.peersByName.values()];
  }

  peer(name: string): StoredPeer | undefined {
    return this.peersByName.get(name.toLowerCase());
  }

  /** The trusted peer that presents this certificate fingerprint. */
  peerWithFingerprint(fingerprint: string): StoredPeer | undefined {
    return this.peersByFingerprint.get(fingerprint);
  }

  /** The next hop for messages to `computer`. */
  nextHop(computer: string): NextHop {
    const key = computer.toLowerCase();
    const own = this.routesByDestination.get(key);
    const any = this.routesByDestination.get(ROUTE_ANY);
    // `*` covers every computer without a route of its own, except the routing server it names.
    const route = own ?? (any && any.via.toLowerCase() !== key ? any : undefined);
    const hopName = route ? route.via : computer;
    const peer = this.peersByName.get(hopName.toLowerCase());
    if (peer) return { ok: true, peer, routed: route !== undefined };
    const error = route
      ? `messages for ${computer} go through ${route.via} (route ${route.destination}), which is not a trusted peer: qk peer add ${route.via} HOST:PORT --fingerprint FP`
      : `${computer} is not a trusted peer and no route leads to it: qk peer add ${computer} HOST:PORT --fingerprint FP, or qk route set ${computer} ROUTING-SERVER`;
    return { ok: false, hop: route ? route.via : null, error };
  }
}
