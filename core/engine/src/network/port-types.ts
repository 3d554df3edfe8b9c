/**
 * What the engine offers the network (docs/network.md): inbound delivery, outbound leases, and the
 * confirmations computers owe each other. Plain shapes: core/network turns them into the peer link's wire
 * format (core/api peer-link.ts), which they mirror field for field.
 */

/** A computer by name and GUID. */
export interface ComputerRef {
  name: string;
  id: string;
}

/** Where a transactional message stands in its stream (R-E3). */
export interface TransitSequence {
  stream: string;
  number: number;
  /** Messages of one transaction share a group and are released together (R-E2); null = alone. */
  group: string | null;
  /**
   * The previous number (R-E3): the greatest number below this one that the source may still deliver, or one it
   * knows the destination has; every number between was abandoned at the source (expired, purged). The
   * destination takes this message once it has `previous`. Absent (a peer from before it): `number - 1`.
   */
  previous?: number | undefined;
}

/** A message in transit between two computers. */
export interface TransitMessage {
  msgId: string;
  classCode: number;
  label: string;
  body: Buffer;
  priority: number;
  recoverable: boolean;
  journal: number;
  ack: number;
  adminQueue: string | null;
  responseQueue: string | null;
  destQueue: string;
  correlationId: string | null;
  appSpecific: number;
  sourceMachine: string;
  sourceMachineId: string;
  sentMs: number;
  /** Milliseconds left to reach the destination queue, measured on the sending computer; null = no limit. */
  reachQueueWithinMs: number | null;
  /** Milliseconds left to be received; null = unlimited. */
  receiveWithinMs: number | null;
  /** Timers as sent (seconds), for display. */
  ttrq: number;
  ttbr: number | null;
  hops: number;
  transactional: boolean;
  sequence: TransitSequence | null;
  conversation: string | null;
}

/** What the next hop did with one message (core/api deliveryOutcomeSchema). */
export type DeliveryOutcome =
  | { outcome: 'stored' }
  | { outcome: 'accepted' }
  | { outcome: 'duplicate' }
  | { outcome: 'refused'; classCode: number }
  | { outcome: 'retry'; reason: string };

/** A confirmation one computer owes another (core/api controlItemSchema). */
export type ControlItem =
  | { kind: 'sequenceAck'; to: ComputerRef; from: ComputerRef; stream: string; through: number }
  | { kind: 'final'; to: ComputerRef; from: ComputerRef; messageId: string; classCode: number };

/** Messages taken from one outgoing queue for one deliver call; nobody else takes them until settled. */
export interface OutboundLease {
  readonly id: number;
  /** The outgoing queue (the destination queue's format name). */
  readonly formatName: string;
  readonly messages: readonly TransitMessage[];
  /** Bytes of the bodies, for flow control. */
  readonly bytes: number;
}

/** An outgoing queue as the network schedules it. */
export interface OutgoingSummary {
  formatName: string;
  destinationComputer: string;
  /** Ready messages that can be leased now (not paused; unconfirmed ones only when their resend is due). */
  ready: number;
  paused: boolean;
  /** Transactional messages sent and not yet confirmed by the destination. */
  unconfirmed: number;
  /** When the next unconfirmed message is due to be sent again (ms since the epoch), or null. */
  nextResendMs: number | null;
}

/** Control items waiting to leave, addressed to a computer. */
export interface PendingControl {
  /** Opaque handles to acknowledge once the next hop has them. */
  readonly handles: readonly number[];
  readonly items: readonly ControlItem[];
}

/** The engine's network entry points. */
export interface NetworkPort {
  /** Outgoing queues with work or state to show. */
  outgoing(): OutgoingSummary[];
  /** Up to `maxMessages` / `maxBytes` of one outgoing queue (whole transactions), or null when none is ready. */
  lease(formatName: string, maxMessages: number, maxBytes: number): OutboundLease | null;
  /** Applies the next hop's outcomes (one per message, in order), durably. */
  settle(lease: OutboundLease, outcomes: readonly DeliveryOutcome[]): Promise<void>;
  /** The call failed (connection cut, timeout): the messages go back, to be sent again. */
  release(lease: OutboundLease): void;
  /** A session with the next hop of these queues came back: unconfirmed messages are sent again at once (R-E4). */
  resendNow(formatNames: readonly string[]): void;
  /** Messages handed over by `from`; one outcome each, once what was stored is durable. */
  deliver(from: ComputerRef, messages: readonly TransitMessage[], routing: boolean): Promise<DeliveryOutcome[]>;
  /** Control items waiting for computers `via` accepts (their next hop is the session's peer), at most `max`. */
  pendingControl(via: (computer: string) => boolean, max: number): PendingControl | null;
  /** The next hop has them: they are no longer owed. */
  controlDelivered(handles: readonly number[]): void;
  /** Control items received: applied when for this computer, kept to forward when a routing server. Durable before it resolves. */
  receiveControl(items: readonly ControlItem[], routing: boolean): Promise<void>;
}
