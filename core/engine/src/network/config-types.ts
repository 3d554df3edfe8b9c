/** The shapes of the engine's network configuration, apart from its implementation (no import cycle with types.ts). */
import type { RouteInfo } from '@qk/model';

/** A trusted peer as stored: the network adds its live state. */
export interface StoredPeer {
  name: string;
  address: string;
  fingerprint: string;
  lastConnectedMs: number | null;
}

/** An outgoing queue as the engine knows it: the network adds next hop, state and session figures. */
export interface OutgoingQueueRecord {
  formatName: string;
  /** The computer the destination queue is on, as written in the format name. */
  destinationComputer: string;
  messageCount: number;
  bytes: number;
  /** Held by an administrator (Pause). */
  paused: boolean;
}

/** Peers, routes, outgoing-queue holds and offline mode, kept in the store (docs/network.md). */
export interface NetworkConfigApi {
  peers(): StoredPeer[];
  putPeer(input: { name: string; address: string; fingerprint: string }): StoredPeer;
  removePeer(name: string): void;
  peerConnected(name: string, atMs: number): void;
  routes(): RouteInfo[];
  setRoute(destination: string, via: string): RouteInfo;
  removeRoute(destination: string): void;
  outgoingQueues(): OutgoingQueueRecord[];
  outgoingQueue(name: string): OutgoingQueueRecord;
  setOutgoingPaused(name: string, paused: boolean): OutgoingQueueRecord;
  offline(): boolean;
  setOffline(offline: boolean): void;
}
