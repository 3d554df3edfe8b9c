/**
 * The networking of one computer (docs/network.md): its certificate, the peer listener, the directory of
 * trusted peers and routes, one outbound session per next hop, and the state of every peer and outgoing
 * queue. The service owns one, beside its queue manager; the administrator operations of CLI.md "Many
 * computers" are its methods.
 */
import type { TLSSocket } from 'node:tls';
import type { ComputerRef, NetworkPort, OutgoingSummary, QueueManagerApi, StoredPeer } from '@qk/engine';
import { QkError, type OutgoingQueueInfo, type PeerInfo, type PeerState, type RouteInfo } from '@qk/model';
import { loadOrCreateCredentials, type PeerCredentials } from './certificate.js';
import type { ChannelFactory } from './channel.js';
import { Directory } from './directory.js';
import { inboundHandler, refusalHandler } from './inbound-session.js';
import { startListener, type PeerListener } from './listener.js';
import { stderrLog, type NetworkLog } from './log.js';
import { OutboundSession } from './outbound-session.js';
import { rpcChannels } from './rpc-link.js';

export interface NetworkNodeOptions {
  dataDir: string;
  /** The queue manager of the moment (the service restarts it in place); throws while none runs. */
  engine: () => QueueManagerApi;
  /** Where to accept deliveries from other computers; none = this computer only sends. */
  peerListen?: { host: string; port: number } | undefined;
  /** A routing server relays messages for other computers. */
  routing?: boolean | undefined;
  log?: NetworkLog | undefined;
  /** The call channel over TLS (core/rpc); tests may give another. */
  channels?: ChannelFactory | undefined;
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

/** How often queues are looked at for due resends, state changes to tell, and sessions to start. */
const TICK_MS = 1_000;
/** The contract bounds an outgoing queue's last error (core/api Bounds.LAST_ERROR). */
const LAST_ERROR_MAX = 1_000;

export class NetworkNode {
  readonly routing: boolean;
  readonly #options: NetworkNodeOptions;
  readonly #credentials: PeerCredentials;
  readonly #log: NetworkLog;
  readonly #channels: ChannelFactory;
  readonly #directory = new Directory();
  readonly #live = new Map<string, PeerLive>();
  readonly #sessions = new Map<string, OutboundSession>();
  /** Open inbound connections per peer (lower-case name). */
  readonly #inbound = new Map<string, Set<TLSSocket>>();
  readonly #listeners = new Set<(event: NetworkEvent) => void>();
  /** What was last told about each outgoing queue, to tell only changes. */
  readonly #told = new Map<string, string>();
  #listener: PeerListener | null = null;
  #tick: NodeJS.Timeout | null = null;
  #unsubscribeEngine: () => void = () => {};
  #closed = false;
  /** Next hops (lower-case) to kick once the current burst of arrivals is told. */
  readonly #toKick = new Set<string>();
  #kickScheduled = false;
  /** Outgoing queues (format names) already counted in the burst being told. */
  readonly #kickedQueues = new Set<string>();

  private constructor(options: NetworkNodeOptions, credentials: PeerCredentials) {
    this.#options = options;
    this.#credentials = credentials;
    this.#log = options.log ?? stderrLog;
    this.#channels = options.channels ?? rpcChannels;
    this.routing = options.routing === true;
  }

  /** Loads (or makes, at first start) the certificate, opens the peer listener when asked, starts the sessions. */
  static async start(options: NetworkNodeOptions): Promise<NetworkNode> {
    const engine = options.engine();
    const credentials = await loadOrCreateCredentials(options.dataDir, engine.name);
    const node = new NetworkNode(options, credentials);
    node.reload();
    if (options.peerListen) {
      node.#listener = await startListener({
        host: options.peerListen.host,
        port: options.peerListen.port,
        credentials,
        trusted: (fingerprint) => node.#directory.peerWithFingerprint(fingerprint),
        onConnection: (socket, peer) => node.#accept(socket, peer),
        refuse: (socket, fingerprint) =>
          node.#channels.serve(socket, refusalHandler(node.#selfName(engine.name), fingerprint), node.#log),
        log: node.#log,
      });
    }
    node.#subscribeEngine();
    node.#tick = setInterval(() => node.#onTick(), TICK_MS);
    node.#tick.unref();
    node.#kickAll();
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

  /** Re-reads peers and routes from the store and brings the sessions in line with them. */
  reload(): void {
    const config = this.#options.engine().networkConfig;
    this.#directory.load(config.peers(), config.routes());
    this.#syncSessions();
  }

  /** The service is about to close its queue manager for a restart: sessions stop using it. */
  engineStopping(): void {
    this.#unsubscribeEngine();
    for (const session of this.#sessions.values()) session.suspend('the queue manager is restarting');
    for (const sockets of this.#inbound.values()) for (const socket of sockets) socket.destroy();
  }

  /** The service restarted its queue manager in place: the store is the same, read it again. */
  engineRestarted(): void {
    this.reload();
    this.#subscribeEngine();
    this.#kickAll();
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
    this.#live.delete(stored.name.toLowerCase());
    this.reload();
    const info = this.#peerInfo(stored);
    this.#emit({ type: 'peerChanged', peer: info });
    this.#kickAll();
    this.#tellOutgoing();
    return info;
  }

  removePeer(name: string): void {
    this.#config().removePeer(name);
    this.#live.delete(name.toLowerCase());
    // No longer trusted: its connections end now, both ways.
    for (const socket of this.#inbound.get(name.toLowerCase()) ?? []) socket.destroy();
    this.reload();
    this.#tellOutgoing();
  }

  // ── routes ──────────────────────────────────────────────────────────────────────────────────────────

  listRoutes(): RouteInfo[] {
    return this.#config().routes();
  }

  setRoute(destination: string, via: string): RouteInfo {
    const route = this.#config().setRoute(destination, via);
    this.reload();
    this.#kickAll();
    this.#tellOutgoing();
    return route;
  }

  removeRoute(destination: string): void {
    this.#config().removeRoute(destination);
    this.reload();
    this.#kickAll();
    this.#tellOutgoing();
  }

  // ── outgoing queues and offline mode ────────────────────────────────────────────────────────────────

  listOutgoing(): OutgoingQueueInfo[] {
    const summaries = new Map(
      this.#port()
        .outgoing()
        .map((o) => [o.formatName.toLowerCase(), o]),
    );
    return this.#config()
      .outgoingQueues()
      .map((q) => this.#outgoingInfo(q, summaries.get(q.formatName.toLowerCase())));
  }

  pause(formatName: string): OutgoingQueueInfo {
    const record = this.#config().setOutgoingPaused(formatName, true);
    const info = this.#outgoingOne(record.formatName);
    this.#emit({ type: 'outgoingQueueChanged', outgoing: info });
    return info;
  }

  resume(formatName: string): OutgoingQueueInfo {
    const record = this.#config().setOutgoingPaused(formatName, false);
    this.#kickAll();
    const info = this.#outgoingOne(record.formatName);
    this.#emit({ type: 'outgoingQueueChanged', outgoing: info });
    return info;
  }

  /** MSMQ's offline mode: every outgoing queue holds, no delivery is accepted. */
  disconnect(): void {
    this.#config().setOffline(true);
    for (const session of this.#sessions.values()) session.suspend('this computer went offline');
    for (const sockets of this.#inbound.values()) for (const socket of sockets) socket.destroy();
    this.#tellOutgoing();
  }

  connect(): void {
    this.#config().setOffline(false);
    // R-E4, CLI.md: back online, what was sent and not confirmed goes again at once — sessions dial only for
    // work, and messages waiting for their resend time are none until it comes.
    try {
      const port = this.#port();
      port.resendNow(port.outgoing().map((o) => o.formatName));
    } catch {
      // The queue manager is restarting; the restart kicks every session.
    }
    this.#kickAll();
    this.#tellOutgoing();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#tick) clearInterval(this.#tick);
    this.#unsubscribeEngine();
    for (const session of this.#sessions.values()) session.close('the service is stopping');
    await this.#listener?.close();
    this.#listeners.clear();
  }

  // ── sessions ────────────────────────────────────────────────────────────────────────────────────────

  #syncSessions(): void {
    const current = new Map(this.#directory.peers().map((p) => [p.name.toLowerCase(), p]));
    for (const [key, session] of this.#sessions) {
      const peer = current.get(key);
      if (!peer) {
        session.close('the peer is no longer trusted');
        this.#sessions.delete(key);
      } else session.update(peer);
    }
    if (this.#closed) return;
    for (const [key, peer] of current) {
      if (this.#sessions.has(key)) continue;
      this.#sessions.set(
        key,
        new OutboundSession(peer, {
          self: this.#self(),
          credentials: this.#credentials,
          channels: this.#channels,
          log: this.#log,
          port: () => this.#port(),
          queuesVia: (name) => this.#queuesVia(name),
          reachesVia: (name, computer) => this.#reachesVia(name, computer),
          stateChanged: (name, state, error) => this.#setState(name, state, error),
          connected: (name, atMs) => {
            try {
              this.#config().peerConnected(name, atMs);
              this.#reloadQuietly();
            } catch (error) {
              this.#log.warn({ peer: name, error: String(error) }, 'could not record the connection time');
            }
          },
        }),
      );
    }
  }

  /** Re-reads the directory without touching the sessions (after a connection time was recorded). */
  #reloadQuietly(): void {
    const config = this.#config();
    this.#directory.load(config.peers(), config.routes());
  }

  #accept(socket: TLSSocket, peer: StoredPeer): void {
    const key = peer.name.toLowerCase();
    let sockets = this.#inbound.get(key);
    if (!sockets) this.#inbound.set(key, (sockets = new Set()));
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) this.#inbound.delete(key);
      this.#setState(peer.name, this.#outboundState(key), null);
    });
    this.#channels.serve(
      socket,
      inboundHandler(peer, {
        self: this.#self(),
        routing: this.routing,
        log: this.#log,
        port: () => this.#port(),
        offline: () => this.#config().offline(),
        opened: () => {
          this.#setState(peer.name, 'connected', null);
          // What this computer owes the caller may go back at once, on its own session.
          this.#sessions.get(key)?.kick();
        },
        closed: () => undefined,
      }),
      this.#log,
    );
  }

  /** Outgoing queues whose next hop is `peer` and that may send now. */
  #queuesVia(peer: string): string[] {
    if (this.#closed) return [];
    const key = peer.toLowerCase();
    return this.#port()
      .outgoing()
      .filter((o) => !o.paused && this.#hopName(o.destinationComputer) === key)
      .map((o) => o.formatName);
  }

  #reachesVia(peer: string, computer: string): boolean {
    return this.#hopName(computer) === peer.toLowerCase();
  }

  #hopName(computer: string): string | null {
    const hop = this.#directory.nextHop(computer);
    return hop.ok ? hop.peer.name.toLowerCase() : null;
  }

  /** Starts the sessions that have work. */
  #kickAll(): void {
    if (this.#closed) return;
    let offline: boolean;
    try {
      offline = this.#config().offline();
    } catch {
      return;
    }
    if (offline) return;
    for (const session of this.#sessions.values()) session.kick();
  }

  #onTick(): void {
    try {
      const now = Date.now();
      const port = this.#port();
      const due = port.outgoing().some((o) => o.ready > 0 || (o.nextResendMs !== null && o.nextResendMs <= now));
      if (due || port.pendingControl(() => true, 1)) this.#kickAll();
      this.#tellOutgoing();
    } catch {
      // The queue manager is restarting; the restart kicks everything again.
    }
  }

  #subscribeEngine(): void {
    this.#unsubscribeEngine();
    try {
      this.#unsubscribeEngine = this.#options.engine().on((event) => {
        // A message entered an outgoing queue (its path is the destination's format name): send it.
        if (event.type === 'messageArrived' && /^DIRECT=/i.test(event.path)) this.#kickFor(event.path);
      });
    } catch {
      this.#unsubscribeEngine = () => {};
    }
  }

  /**
   * A batch of sends tells one arrival per message: the sessions they wake are kicked once, after the burst,
   * rather than once per message (each kick reads the outgoing queues and may lease).
   */
  #kickFor(formatName: string): void {
    // Every message of a burst names its queue: the first one finds the hop, the others have nothing to add.
    if (this.#kickedQueues.has(formatName)) return;
    this.#kickedQueues.add(formatName);
    const match = /^DIRECT=(?:OS|TCP):([^\\]+)\\/i.exec(formatName);
    const hop = match?.[1] ? this.#hopName(match[1]) : null;
    if (hop) this.#toKick.add(hop);
    if (this.#kickScheduled) return;
    this.#kickScheduled = true;
    setImmediate(() => {
      this.#kickScheduled = false;
      const hops = [...this.#toKick];
      this.#toKick.clear();
      this.#kickedQueues.clear();
      if (this.#closed) return;
      for (const name of hops) this.#sessions.get(name)?.kick();
    });
  }

  // ── states ──────────────────────────────────────────────────────────────────────────────────────────

  #outboundState(key: string): PeerState {
    return this.#sessions.get(key)?.isConnected ? 'connected' : 'idle';
  }

  #setState(name: string, state: PeerState, error: string | null): void {
    const key = name.toLowerCase();
    // A peer that is connected either way is connected, whatever the other direction says.
    const effective: PeerState = state !== 'connected' && (this.#inbound.get(key)?.size ?? 0) > 0 ? 'connected' : state;
    const before = this.#live.get(key);
    this.#live.set(key, {
      state: effective,
      lastError: error ?? (effective === 'connected' ? null : (before?.lastError ?? null)),
    });
    if (before?.state === effective && before.lastError === error) return;
    const peer = this.#directory.peer(name);
    if (peer) this.#emit({ type: 'peerChanged', peer: this.#peerInfo(peer) });
    this.#tellOutgoing();
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

  #outgoingOne(formatName: string): OutgoingQueueInfo {
    const found = this.listOutgoing().find((o) => o.formatName.toLowerCase() === formatName.toLowerCase());
    if (!found) throw new QkError('QUEUE_NOT_FOUND', `There is no outgoing queue ${formatName}.`);
    return found;
  }

  #outgoingInfo(
    queue: { formatName: string; destinationComputer: string; messageCount: number; bytes: number; paused: boolean },
    summary: OutgoingSummary | undefined,
  ): OutgoingQueueInfo {
    const hop = this.#directory.nextHop(queue.destinationComputer);
    const peer = hop.ok ? hop.peer : undefined;
    const live = peer ? this.#live.get(peer.name.toLowerCase()) : undefined;
    const onHold = queue.paused || this.#config().offline();
    const connected = peer !== undefined && this.#sessions.get(peer.name.toLowerCase())?.isConnected === true;
    const state = onHold ? 'onHold' : connected ? 'connected' : queue.messageCount > 0 ? 'waiting' : 'inactive';
    return {
      formatName: queue.formatName,
      destinationComputer: queue.destinationComputer,
      nextHop: hop.ok ? hop.peer.name : hop.hop,
      state,
      messageCount: queue.messageCount,
      bytes: queue.bytes,
      unconfirmedCount: summary?.unconfirmed ?? 0,
      lastError: cut(hop.ok ? (connected ? null : (live?.lastError ?? null)) : hop.error),
      lastConnectedTime:
        peer?.lastConnectedMs === null || peer === undefined ? null : new Date(peer.lastConnectedMs).toISOString(),
    };
  }

  /** Tells subscribers about outgoing queues whose state or counts changed since last told. */
  #tellOutgoing(): void {
    if (this.#listeners.size === 0) return;
    let list: OutgoingQueueInfo[];
    try {
      list = this.listOutgoing();
    } catch {
      return;
    }
    for (const outgoing of list) {
      const key = outgoing.formatName.toLowerCase();
      const text = JSON.stringify(outgoing);
      if (this.#told.get(key) === text) continue;
      this.#told.set(key, text);
      this.#emit({ type: 'outgoingQueueChanged', outgoing });
    }
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

  #config(): QueueManagerApi['networkConfig'] {
    return this.#options.engine().networkConfig;
  }

  #port(): NetworkPort {
    return this.#options.engine().networkPort;
  }

  /** This computer's name, also while its queue manager restarts (`known`: the name it had). */
  #selfName(known: string): string {
    try {
      return this.#options.engine().name;
    } catch {
      return known;
    }
  }

  #self(): ComputerRef {
    const engine = this.#options.engine();
    return { name: engine.name, id: engine.id };
  }
}

function cut(text: string | null): string | null {
  return text === null || text.length <= LAST_ERROR_MAX ? text : `${text.slice(0, LAST_ERROR_MAX - 1)}…`;
}
