/** The shared state every part of the queue manager works on during one unit of work. */
import type { Store, QueueRecord, ReadyKey, StoredMessage } from '@qk/store';
import type { ComputerIdentity, Sequences } from './identity.js';
import type { QueueRegistry } from './queue-registry.js';
import type { Settings } from './settings.js';
import type { Effects } from './effects.js';
import type { QkEvent } from '@qk/model';
import type { Clock } from './types.js';

export interface Core {
  readonly store: Store;
  readonly registry: QueueRegistry;
  readonly sequences: Sequences;
  readonly identity: ComputerIdentity;
  readonly clock: Clock;
  readonly settings: Settings;
  /** The effects of the unit of work under way. */
  readonly effects: Effects;
  /** Settings fixed at start (restart-required ones). */
  readonly xactDeadLetterAlways: boolean;
  emit(event: QkEvent): void;
  /** Wakes a receiver waiting on a queue; `arrived` is the message that became ready there, when one did. */
  wake(queueId: number, arrived?: ReadyKey): void;
  /** Marks a queue whose counters changed, for one coalesced queueChanged event. */
  touched(queueId: number): void;
  /**
   * Tells the traffic meter that a queue's messages changed (after the registry counted it): `arrived` placed,
   * `departed` taken out, `depthDelta` the change of its message count. Negative figures undo a change.
   */
  traffic(queueId: number, arrived: number, departed: number, depthDelta: number): void;
  /** Creates (or finds) the outgoing queue of a remote destination. */
  outgoingQueue(formatName: string, key: string): QueueRecord;
  /**
   * A message was committed to an outgoing queue: the network may send it as it is, without reading it back.
   * `inTransit` is false when it is known to have no transit row (hops or a sequence), so none is looked for.
   */
  placedOutgoing(message: StoredMessage, inTransit: boolean): void;
  /**
   * The transaction whose sends are being released (R-E2), so its messages to another computer share one
   * group in their stream (docs/network.md); null for single sends.
   */
  readonly sendGroup: { current: string | null };
}
