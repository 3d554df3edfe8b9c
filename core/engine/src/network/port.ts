/** The engine's network entry points (NetworkPort, docs/network.md), composed of the inbound, outbound and confirmation parts. */
import type { StoredMessage } from '@qk/store';
import type { Core } from '../core.js';
import type { Claims } from '../claims.js';
import type { ReceiveCursors } from '../receive-cursors.js';
import type { DuplicateCache } from '../duplicate-cache.js';
import type { ArrivalsInFlight } from '../network-arrival.js';
import type { NetworkConfig } from './config.js';
import { expireSent, pendingControl, receiveControl } from './confirmations.js';
import { deliverInbound } from './inbound.js';
import { Outbound } from './outbound.js';
import type {
  ComputerRef,
  ControlItem,
  DeliveryOutcome,
  NetworkPort,
  OutboundLease,
  OutgoingSummary,
  PendingControl,
  TransitMessage,
} from './port-types.js';

export interface PortDeps {
  core: Core;
  claims: Claims;
  cursors: ReceiveCursors;
  duplicates: DuplicateCache;
  arrivals: ArrivalsInFlight;
  config: NetworkConfig;
  execute<T>(durable: boolean, work: () => T): Promise<T>;
  runNow<T>(work: () => T): T;
}

/** Overdue sent records dead-lettered per tick; the next tick takes the rest. */
const EXPIRE_BATCH = 1_000;
/** How often leftovers are tidied (transit rows of messages that left otherwise, stale resend entries). */
const TIDY_EVERY_MS = 60_000;

export class EngineNetworkPort implements NetworkPort {
  readonly #deps: PortDeps;
  readonly #outbound: Outbound;
  #lastTidyMs = 0;
  #expiring = false;
  /** Control items this computer could not use (not for it, and it relays nothing): told to the network's log. */
  droppedControl: ControlItem[] = [];

  constructor(deps: PortDeps) {
    this.#deps = deps;
    this.#outbound = new Outbound({
      core: deps.core,
      claims: deps.claims,
      cursors: deps.cursors,
      execute: (durable, work) => deps.execute(durable, work),
      isPaused: (q) => deps.config.isPaused(q),
      offline: () => deps.config.offline(),
    });
  }

  outgoing(): OutgoingSummary[] {
    return this.#outbound.outgoing();
  }

  lease(formatName: string, maxMessages: number, maxBytes: number): OutboundLease | null {
    return this.#outbound.lease(formatName, maxMessages, maxBytes);
  }

  settle(lease: OutboundLease, outcomes: readonly DeliveryOutcome[]): Promise<void> {
    return this.#outbound.settle(lease, outcomes);
  }

  /** A message committed to an outgoing queue (see Core.placedOutgoing). */
  placed(message: StoredMessage, inTransit: boolean): void {
    this.#outbound.placed(message, inTransit);
  }

  release(lease: OutboundLease): void {
    this.#outbound.release(lease);
  }

  resendNow(formatNames: readonly string[]): void {
    this.#outbound.resendNow(formatNames);
  }

  deliver(from: ComputerRef, messages: readonly TransitMessage[], routing: boolean): Promise<DeliveryOutcome[]> {
    const { core, duplicates, arrivals } = this.#deps;
    const execute = <T>(durable: boolean, work: () => T): Promise<T> => this.#deps.execute(durable, work);
    const outbound = this.#outbound;
    return deliverInbound(
      {
        core,
        execute,
        duplicates,
        arrivals,
        cameBack: (lookupId) => outbound.cameBack(lookupId),
        failedHere: (messageId, classCode) => outbound.failedHere(messageId, classCode),
      },
      from,
      messages,
      routing,
    );
  }

  pendingControl(via: (computer: string) => boolean, max: number): PendingControl | null {
    return pendingControl(this.#deps.core, via, max);
  }

  controlDelivered(handles: readonly number[]): void {
    this.#deps.runNow(() => this.#deps.core.store.delivery.removeControl(handles));
  }

  async receiveControl(items: readonly ControlItem[], routing: boolean): Promise<void> {
    const dropped = await this.#deps.execute(true, () =>
      receiveControl(this.#deps.core, items, routing, {
        confirmThrough: (stream, through) => this.#outbound.confirmThrough(stream, through),
        failInTransit: (messageId, classCode) => this.#outbound.failInTransit(messageId, classCode),
        finalBeforeReply: (messageId, classCode) => this.#outbound.finalBeforeReply(messageId, classCode),
      }),
    );
    if (dropped.length > 0) this.droppedControl.push(...dropped.slice(0, 100));
  }

  /** The timer tick: overdue sent records are dead-lettered (R-D2, R-A9); leftovers tidied now and then. */
  tick(nowMs: number): void {
    if (!this.#expiring && this.#deps.core.store.delivery.sentDue(nowMs, 1).length > 0) {
      this.#expiring = true;
      void this.#deps
        .execute(true, () => expireSent(this.#deps.core, nowMs, EXPIRE_BATCH))
        .catch(() => 0)
        .finally(() => (this.#expiring = false));
    }
    if (nowMs - this.#lastTidyMs >= TIDY_EVERY_MS) {
      this.#lastTidyMs = nowMs;
      this.#deps.runNow(() => this.#outbound.tidy());
    }
  }
}
