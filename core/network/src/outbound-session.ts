/**
 * This computer's session to one next hop (docs/network.md "Sessions", "Store-and-forward"): it dials with
 * backoff, checks the peer's certificate fingerprint, says hello, then moves leases of the outgoing queues
 * routed through that peer and the confirmations owed to computers behind it. A lease is settled only with the
 * next hop's answer; a failed call releases it, and its messages are sent again on the next session.
 */
import { connect, type TLSSocket } from 'node:tls';
import {
  PEER_BATCH_MAX,
  PEER_PROTOCOL_ATTACHMENTS,
  PEER_PROTOCOL_MIN,
  PEER_PROTOCOL_VERSION,
  peerLinkOperations,
  type Envelope,
} from '@qk/api';
import type { ComputerRef, NetworkPort, OutboundLease, StoredPeer, TransitMessage } from '@qk/engine';
import { parsePeerAddress, type PeerState } from '@qk/model';
import type { PeerCredentials } from './certificate.js';
import { fingerprintOf } from './certificate.js';
import type { ChannelFactory, PeerChannel } from './channel.js';
import type { NetworkLog } from './log.js';
import { timing } from './timing.js';
import { outcomesOf, packDelivery, toWire } from './wire.js';

/**
 * Messages and bytes of one deliver call: large enough that a call's fixed costs (a commit on each side, a
 * round trip) are small per message; a lease that keeps a transaction whole may be larger (PEER_DELIVERY_MAX).
 */
const LEASE_MESSAGES = 1_000;
const LEASE_BYTES = 4 * 1024 * 1024;
/** Deliver calls in flight per session, and per outgoing queue of nontransactional messages (one for transactional). */
const SESSION_WINDOW = 8;
const QUEUE_WINDOW = 4;
/** Between kicks, control items owed are looked for at most this often (a pump runs after every call). */
const CONTROL_CHECK_MS = 25;

export interface OutboundDeps {
  self: ComputerRef;
  credentials: PeerCredentials;
  channels: ChannelFactory;
  log: NetworkLog;
  port(): NetworkPort;
  /** Outgoing queues (format names) whose next hop is this peer and that may send now. */
  queuesVia(peer: string): string[];
  /** Whether `computer`'s next hop is this peer (for the control items owed to it). */
  reachesVia(peer: string, computer: string): boolean;
  /** The session's state changed; `error` says why it is not connected. */
  stateChanged(peer: string, state: PeerState, error: string | null): void;
  /** The session came up (recorded as the peer's last connection). */
  connected(peer: string, atMs: number): void;
}

type Phase = 'idle' | 'connecting' | 'connected' | 'waiting' | 'closed';

export class OutboundSession {
  #peer: StoredPeer;
  readonly #deps: OutboundDeps;
  #phase: Phase = 'idle';
  #channel: PeerChannel | null = null;
  #backoffMs = timing.backoffFirstMs;
  #retryTimer: NodeJS.Timeout | null = null;
  #idleTimer: NodeJS.Timeout | null = null;
  #inFlight = 0;
  /** Answered deliveries whose outcomes are still being committed here (bounded like the calls). */
  #settling = 0;
  readonly #busy = new Map<string, number>();
  readonly #transactionalQueues = new Set<string>();
  #controlInFlight = false;
  /** When control items were last looked for, and whether a kick asked to look again now. */
  #controlCheckedAt = -Infinity;
  #controlHint = true;
  #rotation = 0;
  #pumping = false;
  #pumpAgain = false;
  /** The protocol the hello agreed on the current channel. */
  #protocol = PEER_PROTOCOL_VERSION;

  constructor(peer: StoredPeer, deps: OutboundDeps) {
    this.#peer = peer;
    this.#deps = deps;
  }

  get peer(): StoredPeer {
    return this.#peer;
  }

  get isConnected(): boolean {
    return this.#phase === 'connected';
  }

  /** The peer's entry changed (address or fingerprint): a session on the old one ends. */
  update(peer: StoredPeer): void {
    const changed = peer.address !== this.#peer.address || peer.fingerprint !== this.#peer.fingerprint;
    this.#peer = peer;
    if (changed) {
      this.#disconnect('the peer entry changed');
      this.#backoffMs = timing.backoffFirstMs;
      this.kick();
    }
  }

  /** There may be work: connect if needed, else send. */
  kick(): void {
    if (this.#phase === 'closed') return;
    this.#controlHint = true;
    if (this.#phase === 'connected') return this.#pump();
    if (this.#phase === 'idle' && this.#hasWork()) this.#startConnect();
  }

  /** Ends the session for good (peer removed, service stopping, offline). */
  close(reason: string): void {
    this.#disconnect(reason);
    this.#phase = 'closed';
  }

  /** Ends the connection; the session may dial again later (offline mode ends, the peer comes back). */
  suspend(reason: string): void {
    this.#disconnect(reason);
    if (this.#phase !== 'closed') this.#phase = 'idle';
  }

  #hasWork(): boolean {
    try {
      const queues = new Set(this.#deps.queuesVia(this.#peer.name).map((q) => q.toLowerCase()));
      const work = this.#deps
        .port()
        .outgoing()
        .some((o) => queues.has(o.formatName.toLowerCase()) && o.ready > 0);
      return work || this.#deps.port().pendingControl(this.#via(), 1) !== null;
    } catch {
      return false; // the queue manager is restarting; the restart kicks every session
    }
  }

  #startConnect(): void {
    this.#connect().catch((error: unknown) => {
      this.#unexpected('connection', error);
      this.#failed(error instanceof Error ? error.message : String(error), 'unreachable');
    });
  }

  /** A failure the session's own handling did not expect: logged, never an unhandled rejection. */
  #unexpected(what: string, error: unknown): void {
    this.#deps.log.error(
      { peer: this.#peer.name, error: error instanceof Error ? error.stack : String(error) },
      `${what} failed unexpectedly`,
    );
  }

  async #connect(): Promise<void> {
    this.#phase = 'connecting';
    const peer = this.#peer;
    let socket: TLSSocket;
    try {
      socket = await this.#dial(peer);
    } catch (error) {
      const refused = error instanceof RefusedError;
      return this.#failed(error instanceof Error ? error.message : String(error), refused ? 'refused' : 'unreachable');
    }
    if (this.#phase !== 'connecting' || peer !== this.#peer) {
      socket.destroy();
      return;
    }
    const channel = this.#deps.channels.client(socket, this.#deps.log);
    this.#channel = channel;
    channel.closed
      .then((reason) => {
        if (this.#channel === channel) this.#lost(reason);
      })
      .catch((error: unknown) =>
        this.#deps.log.error({ peer: peer.name, error: String(error) }, 'session end not handled'),
      );
    const hello = await this.#hello(channel);
    if (this.#channel !== channel) return;
    if (!hello.ok) {
      // ACCESS_DENIED: the peer does not let this computer in (its certificate is not trusted there, or it is
      // trusted under another name) — docs/network.md "Sessions".
      const denied = hello.error.code === 'ACCESS_DENIED';
      const refused = denied || hello.error.code === 'INVALID_PARAMETER';
      this.#deps.log.warn(
        { peer: peer.name, code: hello.error.code, error: hello.error.message },
        denied ? 'peer refused this computer' : 'peer hello failed',
      );
      this.#forget(channel);
      const said = denied ? 'refused this computer' : 'answered';
      return this.#failed(`${peer.name} ${said}: ${hello.error.message}`, refused ? 'refused' : 'unreachable');
    }
    const answer = peerLinkOperations.peerHello.output.safeParse(hello.value);
    if (!answer.success || answer.data.name.toLowerCase() !== peer.name.toLowerCase()) {
      this.#deps.log.warn({ peer: peer.name, answer: hello.value }, 'peer refused: it names itself otherwise');
      this.#forget(channel);
      return this.#failed(`the computer at ${peer.address} is not ${peer.name}`, 'refused');
    }
    const { protocol } = answer.data;
    if (protocol < PEER_PROTOCOL_MIN || protocol > PEER_PROTOCOL_VERSION) {
      this.#deps.log.warn(
        { peer: peer.name, protocol },
        'peer refused: it answered a protocol this computer does not speak',
      );
      this.#forget(channel);
      return this.#failed(`${peer.name} answered peer protocol ${protocol}`, 'refused');
    }
    this.#protocol = protocol;
    this.#phase = 'connected';
    this.#backoffMs = timing.backoffFirstMs;
    const now = Date.now();
    this.#deps.connected(peer.name, now);
    this.#deps.stateChanged(peer.name, 'connected', null);
    this.#deps.log.info({ peer: peer.name, address: peer.address }, 'peer session up');
    // R-E4: what was sent and not confirmed goes again at once when a connection comes back.
    try {
      this.#deps.port().resendNow(this.#deps.queuesVia(peer.name));
    } catch {
      // Restarting: the restart kicks the sessions again.
    }
    this.#pump();
  }

  /**
   * Says hello with the newest protocol. A listener that speaks only protocol 1 refuses any other by name (and
   * stays without a caller), so it is greeted again with 1 on the same channel.
   */
  async #hello(channel: PeerChannel): Promise<Envelope<unknown>> {
    const greet = (protocol: number): Promise<Envelope<unknown>> =>
      this.#call(
        channel,
        'peerHello',
        { protocol, name: this.#deps.self.name, id: this.#deps.self.id },
        timing.connectTimeoutMs,
      );
    const first = await greet(PEER_PROTOCOL_VERSION);
    const onlyProtocol1 =
      !first.ok && first.error.code === 'INVALID_PARAMETER' && /^Peer protocol \d+ is not 1;/.test(first.error.message);
    return onlyProtocol1 && this.#channel === channel ? greet(1) : first;
  }

  /** Opens TLS to the peer and checks its certificate is the one trusted for it. */
  #dial(peer: StoredPeer): Promise<TLSSocket> {
    const { host, port } = parsePeerAddress(peer.address);
    return new Promise<TLSSocket>((resolve, reject) => {
      const socket = connect({
        host,
        port,
        key: this.#deps.credentials.key,
        cert: this.#deps.credentials.cert,
        // Self-signed on both ends: the pinned fingerprint below is the trust, as SSH's known_hosts.
        rejectUnauthorized: false,
        checkServerIdentity: () => undefined,
        minVersion: 'TLSv1.3',
      });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no TLS session with ${peer.address} within ${timing.connectTimeoutMs / 1000} s`));
      }, timing.connectTimeoutMs);
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        socket.setKeepAlive(true, 15_000);
        // Calls and answers are frames written whole: Nagle's algorithm would hold their tails for a delayed ACK.
        socket.setNoDelay(true);
        const raw = socket.getPeerCertificate(true)?.raw;
        const seen = raw && raw.length > 0 ? fingerprintOf(raw) : 'none';
        if (seen !== peer.fingerprint) {
          this.#deps.log.warn(
            { peer: peer.name, address: peer.address, expected: peer.fingerprint, seen },
            'peer refused: its certificate has another fingerprint than the one trusted',
          );
          socket.destroy();
          reject(new RefusedError(`${peer.address} shows certificate ${seen}, not the ${peer.name} trusted here`));
          return;
        }
        resolve(socket);
      });
      socket.once('error', (error: Error) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
      socket.once('close', () => {
        clearTimeout(timer);
        reject(new Error(`${peer.address} closed the connection (it may not trust ${this.#deps.self.name})`));
      });
    });
  }

  #failed(error: string, state: 'unreachable' | 'refused'): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'waiting';
    this.#deps.stateChanged(this.#peer.name, state, error);
    const wait = this.#backoffMs;
    this.#backoffMs = Math.min(timing.backoffMaxMs, this.#backoffMs * 2);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      if (this.#phase !== 'waiting') return;
      this.#phase = 'idle';
      if (this.#hasWork()) this.#startConnect();
      else this.#deps.stateChanged(this.#peer.name, 'idle', null);
    }, wait);
    this.#retryTimer.unref();
  }

  /** The connection ended under the session (cut, reset, the peer stopped). */
  #lost(reason: string): void {
    if (this.#phase === 'closed') return;
    const wasConnected = this.#phase === 'connected';
    this.#channel = null;
    this.#clearIdle();
    if (wasConnected) this.#deps.log.info({ peer: this.#peer.name, reason }, 'peer session ended');
    this.#failed(`the session with ${this.#peer.name} ended: ${reason}`, 'unreachable');
  }

  /**
   * Cuts a link whose call failed and ends the session now, not when the socket reports its close: a call on
   * a closed channel fails at once, so pumping again on it would loop on promises alone and starve the
   * event loop (timers, sockets, the admin API) — a routing server was found spinning so by the network
   * drill. The session dials again with backoff.
   */
  #cut(channel: PeerChannel, why: string): void {
    if (this.#channel !== channel) return;
    channel.close(why);
    this.#lost(why);
  }

  /** Closes a channel the session no longer counts on (its failure is reported by the caller). */
  #forget(channel: PeerChannel): void {
    if (this.#channel === channel) {
      this.#channel = null;
    }
    channel.close('session refused');
  }

  #disconnect(reason: string): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#clearIdle();
    const channel = this.#channel;
    this.#channel = null;
    channel?.close(reason);
    if (this.#phase === 'connected' || this.#phase === 'waiting' || this.#phase === 'connecting') {
      this.#phase = 'idle';
      this.#deps.stateChanged(this.#peer.name, 'idle', null);
    }
  }

  /** Starts as many calls as the windows allow; runs again when a call finishes. */
  #pump(): void {
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#pumpAgain = false;
        try {
          this.#pumpOnce();
        } catch (error) {
          // The queue manager restarting, most likely; its restart kicks the sessions again.
          this.#deps.log.warn({ peer: this.#peer.name, error: String(error) }, 'could not take work for the peer');
        }
      } while (this.#pumpAgain);
    } finally {
      this.#pumping = false;
    }
  }

  #pumpOnce(): void {
    const channel = this.#channel;
    if (this.#phase !== 'connected' || !channel) return;
    let port: NetworkPort;
    try {
      port = this.#deps.port();
    } catch {
      return;
    }
    let started = false;
    const queues = this.#deps.queuesVia(this.#peer.name);
    // Answered calls still committing count too, so a slow store holds the link back instead of the claims growing.
    const room = (): boolean => this.#inFlight < SESSION_WINDOW && this.#settling < SESSION_WINDOW;
    for (let turn = 0; turn < queues.length && room(); turn++) {
      const queue = queues[(this.#rotation + turn) % queues.length] as string;
      const window = this.#transactionalQueues.has(queue) ? 1 : QUEUE_WINDOW;
      while ((this.#busy.get(queue) ?? 0) < window && room()) {
        const lease = port.lease(queue, LEASE_MESSAGES, LEASE_BYTES);
        if (!lease) break;
        started = true;
        if (lease.messages.some((m) => m.transactional)) this.#transactionalQueues.add(queue);
        this.#deliver(channel, port, lease).catch((error: unknown) => this.#unexpected('delivery', error));
        if (this.#transactionalQueues.has(queue)) break;
      }
    }
    this.#rotation += 1;
    const now = performance.now();
    if (!this.#controlInFlight && (this.#controlHint || now - this.#controlCheckedAt >= CONTROL_CHECK_MS)) {
      this.#controlHint = false;
      this.#controlCheckedAt = now;
      const pending = port.pendingControl(this.#via(), PEER_BATCH_MAX);
      if (pending) {
        started = true;
        this.#sendControl(channel, port, pending.handles, pending.items).catch((error: unknown) =>
          this.#unexpected('control', error),
        );
      }
    }
    if (started || this.#inFlight > 0 || this.#controlInFlight) this.#clearIdle();
    else this.#armIdle();
  }

  async #deliver(channel: PeerChannel, port: NetworkPort, lease: OutboundLease): Promise<void> {
    this.#inFlight += 1;
    this.#busy.set(lease.formatName, (this.#busy.get(lease.formatName) ?? 0) + 1);
    let counted = true;
    const uncount = (): void => {
      if (!counted) return;
      counted = false;
      this.#inFlight -= 1;
      const busy = (this.#busy.get(lease.formatName) ?? 1) - 1;
      if (busy > 0) this.#busy.set(lease.formatName, busy);
      else this.#busy.delete(lease.formatName);
    };
    try {
      // Packed and sent in one synchronous step: an attachment's frame goes right before the call naming it.
      const [op, input] = this.#deliveryCall(channel, lease.messages);
      const answer = await this.#call(channel, op, input, timing.callTimeoutMs);
      const outcomes = answer.ok ? outcomesOf(answer.value, lease.messages.length) : null;
      if (outcomes) {
        // The next hop has answered: its slot goes to the next lease now, while this one's removals commit
        // (its messages stay claimed until then, so no lease takes them again). A transactional stream waits
        // for its settle, since what the destination refused for now goes again first.
        if (!lease.messages.some((m) => m.transactional)) {
          uncount();
          this.#settling += 1;
          this.#pump();
          try {
            await port.settle(lease, outcomes);
          } finally {
            this.#settling -= 1;
          }
        } else await port.settle(lease, outcomes);
      } else {
        port.release(lease);
        const why = answer.ok ? 'a malformed answer' : `${answer.error.code}: ${answer.error.message}`;
        this.#deps.log.warn({ peer: this.#peer.name, queue: lease.formatName, why }, 'delivery not confirmed');
        // A link that answers nothing (or garbage) is cut: everything on it goes back and is sent again.
        this.#cut(channel, why);
      }
    } catch (error) {
      // settle failed (the store): the messages stay in the outgoing queue and go again.
      this.#deps.log.error({ peer: this.#peer.name, error: String(error) }, 'settling a delivery failed');
      try {
        port.release(lease);
      } catch {
        // Already released, or the engine is gone; its restart reloads everything.
      }
    } finally {
      uncount();
      this.#pump();
    }
  }

  /** A lease as the agreed protocol delivers it: bodies as an attachment (3), as base64 (2), or objects (1). */
  #deliveryCall(channel: PeerChannel, messages: readonly TransitMessage[]): [op: string, input: unknown] {
    if (this.#protocol >= PEER_PROTOCOL_ATTACHMENTS)
      return ['peerDeliverPacked', packDelivery(messages, (bodies) => channel.attach(bodies))];
    if (this.#protocol >= 2) return ['peerDeliverPacked', packDelivery(messages)];
    return ['peerDeliver', { messages: messages.map(toWire) }];
  }

  async #sendControl(
    channel: PeerChannel,
    port: NetworkPort,
    handles: readonly number[],
    items: readonly unknown[],
  ): Promise<void> {
    this.#controlInFlight = true;
    try {
      const answer = await this.#call(channel, 'peerControl', { items }, timing.callTimeoutMs);
      if (answer.ok) port.controlDelivered(handles);
      else {
        this.#deps.log.warn({ peer: this.#peer.name, error: answer.error }, 'control items not confirmed');
        this.#cut(channel, `${answer.error.code}: ${answer.error.message}`);
      }
    } catch (error) {
      this.#deps.log.error({ peer: this.#peer.name, error: String(error) }, 'sending control items failed');
    } finally {
      this.#controlInFlight = false;
      this.#controlHint = true; // more may have come meanwhile
      this.#pump();
    }
  }

  /**
   * A call with a deadline. Past it the call is cancelled; a link that does not even answer the cancel is dead
   * (a black hole keeps TCP open): the connection is cut, which fails the call and ends the session.
   */
  async #call(channel: PeerChannel, op: string, input: unknown, timeoutMs: number): Promise<Envelope<unknown>> {
    const cutter = setTimeout(() => channel.close(`no answer to ${op} within ${timeoutMs} ms`), timeoutMs + 2_000);
    try {
      return await channel.call(op, input, AbortSignal.timeout(timeoutMs));
    } finally {
      clearTimeout(cutter);
    }
  }

  #via(): (computer: string) => boolean {
    const peer = this.#peer.name;
    return (computer) => this.#deps.reachesVia(peer, computer);
  }

  #armIdle(): void {
    if (this.#idleTimer) return;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      if (this.#phase === 'connected' && this.#inFlight === 0 && !this.#controlInFlight && !this.#hasWork())
        this.suspend('idle');
    }, timing.idleCloseMs);
    this.#idleTimer.unref();
  }

  #clearIdle(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }
}

/** TLS worked but the peer is not the one trusted (another fingerprint). */
class RefusedError extends Error {}
