/**
 * The networking of one computer (docs/network.md): its certificate, the peer listener, the directory of
 * trusted peers and routes, and the state of every peer and outgoing queue. The service owns one, beside its
 * queue manager; the administrator operations of CLI.md "Many computers" are its methods.
 */
import type { QueueManagerApi, OutgoingQueueRecord, StoredPeer } from '@qk/engine';
import { QkError, type OutgoingQueueInfo, type PeerInfo, type PeerState, type RouteInfo } from '@qk/model';
import { loadOrCreateCredentials, type PeerCredentials } from './certificate.js';
import { Directory } from './directory.js';
import { startListener, type PeerListener } from './listener.js';
import { stderrLog, type NetworkLog } from './log.js';

export interface NetworkNodeOptions {
  dataDir: string;
  /** The queue manager of the moment (the service restarts it in place); throws while none runs. */
  engine: () => QueueManagerApi;
  /** Where to accept deliveries from other computers; none = this computer only sends. */
  peerListen?: { host: string; port: number } | undefined;
  /** A routing server relays messages for other computers. */
  routing?: boolean | undefined;
  log?: NetworkLog | undefined;
}

/** What the network tells subscribers (the service forwards them as contract events). */
export type NetworkEvent =
  { type: 'peerChanged'; peer: PeerInfo } | { type: 'outgoingQueueChanged'; outgoing: OutgoingQueueInfo };

/** The network's part of `qk service status`. */
export interface NetworkStatus {
  peerAddress: string | null;
  peerFingerprint: string;
  routing: boolean;
}

interface PeerLive {
  state: PeerState;
  lastError: string | null;
}

export class NetworkNode {
  readonly routing: boolean;
  readonly #options: NetworkNodeOptions;
  readonly #credentials: PeerCredentials;
  readonly #log: NetworkLog;
  readonly #directory = new Directory();
  readonly #live = new Map<string, PeerLive>();
  readonly #listeners = new Set<(event: NetworkEvent) => void>();
  #listener: PeerListener | null = null;
  #closed = false;

  private constructor(options: NetworkNodeOptions, credentials: PeerCredentials) {
    this.#options = options;
    this.#credentials = credentials;
    this.#log = options.log ?? stderrLog;
    this.routing = options.routing === true;
    this.reload();
  }

  /** Loads (or makes, at first start) the certificate and opens the peer listener when asked for one. */
  static async start(options: NetworkNodeOptions): Promise<NetworkNode> {
    const engine = options.engine();
    const credentials = await loadOrCreateCredentials(options.dataDir, engine.name);
    const node = new NetworkNode(options, credentials);
    if (options.peerListen) {
      node.#listener = await startListener({
        host: options.peerListen.host,
        port: options.peerListen.port,
        credentials,
        trusted: (fingerprint) => node.#directory.peerWithFingerprint(fingerprint),
        onConnection: (socket, peer) => {
          // Sessions arrive with the peer link (core/rpc); until then a trusted caller is let in and told goodbye.
          node.#log.info({ peer: peer.name }, 'peer connected; no session protocol yet, closing');
          socket.end();
        },
        log: node.#log,
      });
    }
    return node;
  }

  get fingerprint(): string {
    return this.#credentials.fingerprint;
  }

  status(): NetworkStatus {
    return {
      peerAddress: this.#listener?.address ?? null,
      peerFingerprint: this.#credentials.fingerprint,
      routing: this.routing,
    };
  }

  /** Re-reads peers and routes from the store (at start, after a change, after the engine restarted). */
  reload(): void {
    const config = this.#options.engine().networkConfig;
    this.#directory.load(config.peers(), config.routes());
  }

  /** The service restarted its queue manager in place: the store is the same, read it again. */
  engineRestarted(): void {
    this.reload();
  }

  onEvent(listener: (event: NetworkEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // ── peers ───────────────────────────────────────────────────────────────────────────────────────────

  listPeers(): PeerInfo[] {
    return this.#directory.peers().map((p) => this.#peerInfo(p));
  }

  addPeer(input: { name: string; address: string; fingerprint: string }): PeerInfo {
    const config = this.#config();
    const stored = config.putPeer(input);
    if (stored.fingerprint === this.#credentials.fingerprint) {
      config.removePeer(stored.name);
      this.reload();
      throw new QkError(
        'INVALID_PARAMETER',
        `That fingerprint is this computer's own certificate, not ${stored.name}'s.`,
      );
    }
    this.reload();
    this.#live.delete(stored.name.toLowerCase());
    const info = this.#peerInfo(stored);
    this.#emit({ type: 'peerChanged', peer: info });
    this.#emitOutgoing();
    return info;
  }

  removePeer(name: string): void {
    this.#config().removePeer(name);
    this.reload();
    this.#live.delete(name.toLowerCase());
    this.#emitOutgoing();
  }

  // ── routes ──────────────────────────────────────────────────────────────────────────────────────────

  listRoutes(): RouteInfo[] {
    return this.#config().routes();
  }

  setRoute(destination: string, via: string): RouteInfo {
    const route = this.#config().setRoute(destination, via);
    this.reload();
    this.#emitOutgoing();
    return route;
  }

  removeRoute(destination: string): void {
    this.#config().removeRoute(destination);
    this.reload();
    this.#emitOutgoing();
  }

  // ── outgoing queues and offline mode ────────────────────────────────────────────────────────────────

  listOutgoing(): OutgoingQueueInfo[] {
    return this.#config()
      .outgoingQueues()
      .map((q) => this.#outgoingInfo(q));
  }

  pause(formatName: string): OutgoingQueueInfo {
    const info = this.#outgoingInfo(this.#config().setOutgoingPaused(formatName, true));
    this.#emit({ type: 'outgoingQueueChanged', outgoing: info });
    return info;
  }

  resume(formatName: string): OutgoingQueueInfo {
    const info = this.#outgoingInfo(this.#config().setOutgoingPaused(formatName, false));
    this.#emit({ type: 'outgoingQueueChanged', outgoing: info });
    return info;
  }

  /** MSMQ's offline mode: every outgoing queue holds, no delivery is accepted. */
  disconnect(): void {
    this.#config().setOffline(true);
    this.#emitOutgoing();
  }

  connect(): void {
    this.#config().setOffline(false);
    this.#emitOutgoing();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listener?.close();
    this.#listeners.clear();
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────────────

  #config(): QueueManagerApi['networkConfig'] {
    return this.#options.engine().networkConfig;
  }

  #peerInfo(peer: StoredPeer): PeerInfo {
    return {
      name: peer.name,
      address: peer.address,
      fingerprint: peer.fingerprint,
      lastConnected: peer.lastConnectedMs === null ? null : new Date(peer.lastConnectedMs).toISOString(),
      state: this.#live.get(peer.name.toLowerCase())?.state ?? 'idle',
    };
  }

  #outgoingInfo(queue: OutgoingQueueRecord): OutgoingQueueInfo {
    const hop = this.#directory.nextHop(queue.destinationComputer);
    const peer = hop.ok ? hop.peer : undefined;
    const live = peer ? this.#live.get(peer.name.toLowerCase()) : undefined;
    const onHold = queue.paused || this.#config().offline();
    const connected = live?.state === 'connected';
    const state = onHold ? 'onHold' : connected ? 'connected' : queue.messageCount > 0 ? 'waiting' : 'inactive';
    return {
      formatName: queue.formatName,
      destinationComputer: queue.destinationComputer,
      nextHop: hop.ok ? hop.peer.name : hop.hop,
      state,
      messageCount: queue.messageCount,
      bytes: queue.bytes,
      unconfirmedCount: 0,
      lastError: cut(hop.ok ? (live?.lastError ?? null) : hop.error),
      lastConnectedTime:
        peer?.lastConnectedMs === null || peer === undefined ? null : new Date(peer.lastConnectedMs).toISOString(),
    };
  }

  #emitOutgoing(): void {
    if (this.#listeners.size === 0) return;
    for (const outgoing of this.listOutgoing()) this.#emit({ type: 'outgoingQueueChanged', outgoing });
  }

  #emit(event: NetworkEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#log.error({ error: String(error) }, 'a network event listener failed');
      }
    }
  }
}

/** The contract bounds an outgoing queue's last error (core/api Bounds.LAST_ERROR). */
const LAST_ERROR_MAX = 1_000;

function cut(text: string | null): string | null {
  return text === null || text.length <= LAST_ERROR_MAX ? text : `${text.slice(0, LAST_ERROR_MAX - 1)}…`;
}
