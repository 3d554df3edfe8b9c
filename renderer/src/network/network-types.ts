/** What the console keeps about each computer's network (docs/network.md): outgoing queues, peers, routes. */
import type { OutgoingQueueInfo, PeerInfo, RouteInfo } from '@qk/model';

/** Peers and routes of one computer, as its Network properties show them. */
export interface NetworkDirectory {
  peers: PeerInfo[];
  routes: RouteInfo[];
}

/** The network slice of the console store. */
export interface NetworkSlice {
  /** Outgoing queues per computer key; absent until first read. */
  outgoing: Record<string, OutgoingQueueInfo[]>;
  /** Peers and routes per computer key; absent until first read. */
  networkDirectory: Record<string, NetworkDirectory>;
  refreshOutgoing(computer: string): Promise<void>;
  refreshNetworkDirectory(computer: string): Promise<void>;
  /** An outgoingQueueChanged event: the queue's new state replaces the old one (or is added). */
  noteOutgoing(computer: string, outgoing: OutgoingQueueInfo): void;
  /** A peerChanged event. */
  notePeer(computer: string, peer: PeerInfo): void;
  /** MSMQ's Pause and Resume of an outgoing queue (by its format name). */
  pauseOutgoing(computer: string, formatName: string): Promise<void>;
  resumeOutgoing(computer: string, formatName: string): Promise<void>;
  /** MSMQ's offline mode: every outgoing queue holds and no deliveries are accepted (true), and back. */
  setOffline(computer: string, offline: boolean): Promise<void>;
  addPeer(computer: string, peer: { name: string; address: string; fingerprint: string }): Promise<void>;
  removePeer(computer: string, name: string): Promise<void>;
  setRoute(computer: string, destination: string, via: string): Promise<void>;
  removeRoute(computer: string, destination: string): Promise<void>;
}
