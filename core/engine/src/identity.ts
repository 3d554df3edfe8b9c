/** The computer's identity and its two counters: message sequence numbers and lookup IDs. */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { computerNameProblem, QkError } from '@qk/model';
import { lookupIdFor, type Store } from '@qk/store';

/** IDs are reserved in blocks so a counter costs one write per block, and none is reused after a crash. */
const BLOCK = 10_000;

/** A counter persisted by reserving blocks of values in the store's meta table. */
class ReservedCounter {
  private next: number;
  private reservedUpTo: number;

  constructor(
    private readonly store: Store,
    private readonly key: string,
    floor: number,
  ) {
    const stored = Number(store.queues.getMeta(key) ?? '0');
    // Everything below the stored reservation may have been handed out before a crash: start above it.
    this.next = Math.max(stored, floor) + 1;
    this.reservedUpTo = this.next - 1;
  }

  /** The last value handed out (or reserved below the start). */
  last(): number {
    return this.next - 1;
  }

  take(): number {
    if (this.next > this.reservedUpTo) this.reserve(BLOCK);
    return this.next++;
  }

  /**
   * Makes sure `count` more values need no reservation. Called outside any transaction, so the reservation
   * is never rolled back with a failed savepoint while the values it covered are used by committed work.
   */
  ensure(count: number): void {
    if (this.next + count > this.reservedUpTo) this.reserve(Math.max(BLOCK, count));
  }

  private reserve(size: number): void {
    this.reservedUpTo = this.next + size - 1;
    this.store.queues.setMeta(this.key, String(this.reservedUpTo));
  }
}

export interface ComputerIdentity {
  name: string;
  id: string;
}

/** Loads (or creates at first start) the computer's name and GUID. A name given now replaces the stored one. */
export function loadIdentity(store: Store, requestedName: string | undefined): ComputerIdentity {
  let id = store.queues.getMeta('computer_id');
  if (!id) {
    id = randomUUID();
    store.queues.setMeta('computer_id', id);
  }
  if (requestedName !== undefined) {
    // The name goes into every message this computer sends and into paths (§3.2): the same rule as any path's.
    const problem =
      requestedName === '.' ? "'.' means the local computer, not a name" : computerNameProblem(requestedName);
    if (problem) throw new QkError('INVALID_PARAMETER', `Cannot use that computer name: ${problem}.`);
  }
  const storedName = store.queues.getMeta('computer_name');
  const name = requestedName ?? storedName ?? os.hostname().split('.')[0]?.toUpperCase() ?? 'LOCALHOST';
  if (name !== storedName) store.queues.setMeta('computer_name', name);
  return { name, id };
}

/** Message sequence numbers (the N of `{guid}\N`, unique per sending computer) and lookup IDs (R-L1). */
export class Sequences {
  private readonly messages: ReservedCounter;
  private readonly arrivals: ReservedCounter;

  constructor(store: Store) {
    this.messages = new ReservedCounter(store, 'message_sequence', 0);
    // The counter gives arrival numbers; a lookup ID is made of one and the message's priority (R-L1).
    this.arrivals = new ReservedCounter(store, 'lookup_id', store.messages.maxArrival());
  }

  /** Reserves room for `count` more IDs of each kind; call outside transactions before a batch. */
  ensure(count: number): void {
    this.messages.ensure(count);
    this.arrivals.ensure(count);
  }

  /** Sequence numbers are DWORDs; after 2^32 they wrap to 1 as MSMQ's do. */
  nextMessageSequence(): number {
    return ((this.messages.take() - 1) % 0xffffffff) + 1;
  }

  /** The arrival number of the last lookup ID given: every message that enters a queue later gets a higher one. */
  lastArrival(): number {
    return this.arrivals.last();
  }

  /**
   * A new lookup ID for a message of this priority entering a queue: unique across the computer and, within
   * a queue, increasing in queue order (R-L1) — above every ID of its priority, below every one of a lower.
   */
  nextLookupId(priority: number): number {
    return lookupIdFor(this.arrivals.take(), priority);
  }
}
