/**
 * The engine's side of network configuration (docs/network.md): trusted peers, routes, the hold state of
 * outgoing queues and offline mode, kept in the store. Validation happens here so that every host (HTTP,
 * IPC, the CLI) refuses the same bad input with the same code.
 */
import {
  checkComputerName,
  parseFingerprint,
  parsePeerAddress,
  parseQueueName,
  QkError,
  ROUTE_ANY,
  type RouteInfo,
} from '@qk/model';
import type { PeerRecord, QueueRecord } from '@qk/store';
import type { Core } from '../core.js';
import type { NetworkConfigApi, OutgoingQueueRecord, StoredPeer } from './config-types.js';

const OFFLINE_META = 'offline';

const toStoredPeer = (r: PeerRecord): StoredPeer => ({
  name: r.name,
  address: r.address,
  fingerprint: r.fingerprint,
  lastConnectedMs: r.lastConnectedMs,
});

/** Peers, routes, holds and offline mode of one queue manager. */
export class NetworkConfig implements NetworkConfigApi {
  private readonly paused: Set<string>;
  /** Read on every lease: kept in memory, written through to the store. */
  private offlineNow: boolean;

  constructor(
    private readonly core: Core,
    /** Runs store work as one unit (the queue manager's runNow). */
    private readonly runNow: <T>(work: () => T) => T,
  ) {
    this.paused = new Set(core.store.network.pausedOutgoing());
    this.offlineNow = core.store.queues.getMeta(OFFLINE_META) === '1';
  }

  // ── peers ───────────────────────────────────────────────────────────────────────────────────────────

  peers(): StoredPeer[] {
    return this.core.store.network.peers().map(toStoredPeer);
  }

  /** Trusts a computer at an address; replaces an earlier entry of that name (CLI.md `qk peer add`). */
  putPeer(input: { name: string; address: string; fingerprint: string }): StoredPeer {
    const name = checkComputerName(input.name);
    if (name.toLowerCase() === this.core.identity.name.toLowerCase())
      throw new QkError('INVALID_PARAMETER', `'${name}' is this computer; a computer does not need to trust itself.`);
    parsePeerAddress(input.address);
    const fingerprint = parseFingerprint(input.fingerprint);
    const nameKey = name.toLowerCase();
    const existing = this.core.store.network.peers();
    const twin = existing.find((p) => p.fingerprint === fingerprint && p.nameKey !== nameKey);
    if (twin) {
      // One certificate, one computer: an inbound session is known by its fingerprint alone.
      throw new QkError(
        'INVALID_PARAMETER',
        `That fingerprint is already trusted as computer '${twin.name}'; remove that peer first if it was renamed.`,
      );
    }
    const previous = existing.find((p) => p.nameKey === nameKey);
    const record: PeerRecord = {
      nameKey,
      name,
      address: input.address.trim(),
      fingerprint,
      addedMs: this.core.clock.now(),
      // A new certificate is a new acquaintance; the same one at a new address is still the same computer.
      lastConnectedMs: previous && previous.fingerprint === fingerprint ? previous.lastConnectedMs : null,
    };
    this.runNow(() => this.core.store.network.putPeer(record));
    return toStoredPeer(record);
  }

  removePeer(name: string): void {
    const removed = this.runNow(() => this.core.store.network.removePeer(name.trim().toLowerCase()));
    if (!removed) throw new QkError('PEER_NOT_FOUND', `No peer named '${name}' is trusted on this computer.`);
  }

  /** Records that a session with the peer came up. */
  peerConnected(name: string, atMs: number): void {
    this.runNow(() => this.core.store.network.touchPeer(name.toLowerCase(), atMs));
  }

  // ── routes ──────────────────────────────────────────────────────────────────────────────────────────

  routes(): RouteInfo[] {
    return this.core.store.network.routes().map((r) => ({ destination: r.destination, via: r.via }));
  }

  /** Messages for `destination` (or `*`) go through routing server `via` (CLI.md `qk route set`). */
  setRoute(destination: string, via: string): RouteInfo {
    const dest = checkComputerName(destination, true);
    const through = checkComputerName(via);
    const self = this.core.identity.name.toLowerCase();
    if (dest.toLowerCase() === self)
      throw new QkError('INVALID_PARAMETER', `'${dest}' is this computer; messages for it never leave.`);
    if (through.toLowerCase() === self)
      throw new QkError('INVALID_PARAMETER', `'${through}' is this computer; a route must go through another one.`);
    if (dest !== ROUTE_ANY && dest.toLowerCase() === through.toLowerCase())
      throw new QkError(
        'INVALID_PARAMETER',
        `A route from '${dest}' through itself is a direct delivery; remove the route instead.`,
      );
    const record = { destinationKey: dest.toLowerCase(), destination: dest, via: through };
    this.runNow(() => this.core.store.network.putRoute(record));
    return { destination: dest, via: through };
  }

  removeRoute(destination: string): void {
    const removed = this.runNow(() => this.core.store.network.removeRoute(destination.trim().toLowerCase()));
    if (!removed) throw new QkError('ROUTE_NOT_FOUND', `There is no route for '${destination}' on this computer.`);
  }

  // ── outgoing queues ─────────────────────────────────────────────────────────────────────────────────

  /** Every outgoing queue with its counts and hold. */
  outgoingQueues(): OutgoingQueueRecord[] {
    return this.core.registry
      .all()
      .filter((q) => q.kind === 'outgoing')
      .sort((a, b) => a.nameKey.localeCompare(b.nameKey))
      .map((q) => this.recordOf(q));
  }

  /** One outgoing queue by its format name (or any name of its destination queue), created empty when new. */
  outgoingQueue(name: string): OutgoingQueueRecord {
    return this.recordOf(this.resolveOutgoing(name));
  }

  /** MSMQ's Pause and Resume: the messages stay; nothing is sent while held. Durable across restarts. */
  setOutgoingPaused(name: string, paused: boolean): OutgoingQueueRecord {
    // A hold may be set before the first message (the queue appears, onHold, and stays while held); only an
    // outgoing queue there is, or a hold, can be resumed.
    const queue = this.resolveOutgoing(name, { existing: !paused });
    this.runNow(() => this.core.store.network.setOutgoingPaused(queue.nameKey, paused));
    if (paused) this.paused.add(queue.nameKey);
    else this.paused.delete(queue.nameKey);
    return this.recordOf(queue);
  }

  isPaused(queue: QueueRecord): boolean {
    return this.paused.has(queue.nameKey);
  }

  // ── offline mode ────────────────────────────────────────────────────────────────────────────────────

  offline(): boolean {
    return this.offlineNow;
  }

  /** MSMQ's Disconnect / Connect: durable, as MSMQ keeps a computer offline across restarts. */
  setOffline(offline: boolean): void {
    this.runNow(() => this.core.store.queues.setMeta(OFFLINE_META, offline ? '1' : '0'));
    this.offlineNow = offline;
  }

  private recordOf(queue: QueueRecord): OutgoingQueueRecord {
    const usage = this.core.registry.usageOf(queue.id);
    return {
      formatName: queue.name,
      destinationComputer: destinationComputerOf(queue.name),
      messageCount: usage.count,
      bytes: usage.bytes,
      paused: this.paused.has(queue.nameKey),
    };
  }

  /** The outgoing queue a name denotes; MSMQ lets an administrator hold one before it has messages. */
  /**
   * The outgoing queue for a destination, made empty when new — or, with `existing`, QUEUE_NOT_FOUND unless it
   * is there or a hold of it is.
   */
  private resolveOutgoing(name: string, options: { existing?: boolean } = {}): QueueRecord {
    const ref = parseQueueName(name);
    if (this.core.registry.isLocal(ref.computer)) {
      throw new QkError(
        'INVALID_PARAMETER',
        `'${name}' is a queue of this computer; outgoing queues are named after a queue on another computer (DIRECT=OS:HOST\\private$\\q).`,
      );
    }
    const target = this.core.registry.remoteTarget(ref, name);
    const found = this.core.registry.byKey('outgoing', target.key);
    if (found) return found;
    if (options.existing && !this.paused.has(target.key))
      throw new QkError(
        'QUEUE_NOT_FOUND',
        `This computer has no outgoing queue for '${name}': one appears when a message is sent there (qk outgoing list shows them).`,
      );
    return this.runNow(() => this.core.outgoingQueue(target.formatName, target.key));
  }
}

/** The computer part of an outgoing queue's format name (`DIRECT=OS:BETA\private$\q` → `BETA`). */
export function destinationComputerOf(formatName: string): string {
  const ref = parseQueueName(formatName);
  const computer = ref.computer;
  return computer.by === 'name' ? computer.name : computer.by === 'guid' ? computer.guid : '.';
}
