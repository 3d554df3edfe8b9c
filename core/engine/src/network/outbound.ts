/**
 * The outbound side of store-and-forward (docs/network.md): leases of outgoing queues for the network,
 * settled with the next hop's answers. A leased message is claimed, so no receive, purge or second lease takes
 * it meanwhile; it leaves its outgoing queue only once the next hop has stored it. Transactional messages stay
 * until the destination confirms them (R-E3), and are sent again on the SeqResend schedule (R-E4).
 */
import { Limits, MessageStatus, MessageClass, type MessageRemovalReason } from '@qk/model';
import type { QueueRecord, StoredMessage, TransitRecord } from '@qk/store';
import type { Core } from '../core.js';
import type { Claims } from '../claims.js';
import type { ReceiveCursors } from '../receive-cursors.js';
import { deadLetter, failDelivery } from '../acknowledgments.js';
import { copyHasRoom } from '../quotas.js';
import { draftOf, place } from '../placement.js';
import { removeForwarded, removeMessage } from '../removal.js';
import { applyFinal, recordSent, type ControlHandlers } from './confirmations.js';
import type { DeliveryOutcome, OutboundLease, OutgoingSummary, TransitMessage, TransitSequence } from './port-types.js';
import { toTransit } from './transit.js';
import { OldestKey } from '../oldest-key.js';

export interface OutboundDeps {
  core: Core;
  claims: Claims;
  /** The queues' receive-order cursors, shared with receives (leases claim as receives do). */
  cursors: ReceiveCursors;
  execute<T>(durable: boolean, work: () => T): Promise<T>;
  isPaused(queue: QueueRecord): boolean;
  offline(): boolean;
}

interface Held {
  lease: OutboundLease;
  messages: StoredMessage[];
  /** The leased messages with a transit row (hops or a sequence); the others have none to remove. */
  inTransit: Set<number>;
}

/** A row kept as placed; `inTransit` false: known to have no transit row, so its lease looks for none. */
interface Fresh {
  message: StoredMessage;
  inTransit: boolean;
}

interface Unconfirmed {
  queueId: number;
  /** When it is sent again. */
  dueMs: number;
  /** How often it was sent. */
  sends: number;
}

/**
 * Rows of messages just placed in outgoing queues, kept as placed so a lease need not read them back: most
 * leave within a second of arriving. Bounded; the oldest go first, and a lease reads what is not here.
 */
const FRESH_MAX_MESSAGES = 20_000;
const FRESH_MAX_BYTES = 32 * 1024 * 1024;

/**
 * A transaction's messages are never split across leases: a lease may grow past its size by this many to take the
 * rest of one, which is as many as a transaction may send to one queue on another computer (transactions.ts).
 */
const GROUP_CAP = Limits.REMOTE_TRANSACTION_MESSAGES;

/** R-E4: 30 s three times, 5 min three times, 30 min three times, then every 6 h (SeqResend*Time). */
function resendDelayMs(core: Core, sends: number): number {
  if (sends <= 3) return core.settings.get('SeqResend13Time') * 1000;
  if (sends <= 6) return core.settings.get('SeqResend46Time') * 1000;
  if (sends <= 9) return core.settings.get('SeqResend79Time') * 1000;
  return core.settings.get('SeqResend10Time') * 1000;
}

export class Outbound {
  readonly #deps: OutboundDeps;
  readonly #held = new Map<number, Held>();
  readonly #unconfirmed = new Map<number, Unconfirmed>();
  /** Outgoing queues found to hold transactional messages: their leases keep transactions whole. */
  readonly #sequenced = new Set<number>();
  readonly #fresh = new Map<number, Fresh>();
  readonly #oldestFresh = new OldestKey(this.#fresh);
  #freshBytes = 0;
  #nextLease = 1;
  /**
   * Final confirmations that came while their message was still in a call to the next hop (its reply not yet
   * settled): the destination's answer can overtake the reply that says it took the message. Applied once the
   * message is confirmed here (its sent record exists then), by message ID.
   */
  readonly #earlyFinals = new Map<string, number>();
  /** Copies that came back around a routing loop while in a call: sent again at once after it (cameBack). */
  readonly #dueNow = new Set<number>();

  constructor(deps: OutboundDeps) {
    this.#deps = deps;
  }

  /** Every outgoing queue with what can be sent now. */
  outgoing(): OutgoingSummary[] {
    const { core, claims } = this.#deps;
    const now = core.clock.now();
    const offline = this.#deps.offline();
    const perQueue = new Map<number, { waiting: number; all: number; next: number | null }>();
    for (const u of this.#unconfirmed.values()) {
      const entry = perQueue.get(u.queueId) ?? { waiting: 0, all: 0, next: null };
      entry.all += 1;
      if (u.dueMs > now) entry.waiting += 1;
      entry.next = entry.next === null ? u.dueMs : Math.min(entry.next, u.dueMs);
      perQueue.set(u.queueId, entry);
    }
    return core.registry
      .all()
      .filter((q) => q.kind === 'outgoing')
      .map((q) => {
        const u = perQueue.get(q.id);
        const paused = this.#deps.isPaused(q) || offline;
        const ready = Math.max(0, core.registry.usageOf(q.id).count - claims.countIn(q.id) - (u?.waiting ?? 0));
        return {
          formatName: q.name,
          destinationComputer: destinationOf(q.name),
          ready: paused ? 0 : ready,
          paused,
          unconfirmed: u?.all ?? 0,
          nextResendMs: u?.next ?? null,
        };
      });
  }

  /** Takes up to `maxMessages`/`maxBytes` of an outgoing queue, whole transactions, in queue order. */
  lease(formatName: string, maxMessages: number, maxBytes: number): OutboundLease | null {
    const { core, claims } = this.#deps;
    const queue = core.registry.byKey('outgoing', formatName.toLowerCase());
    if (!queue || this.#deps.isPaused(queue) || this.#deps.offline()) return null;
    const now = core.clock.now();
    const held = (lookupId: number): boolean => {
      if (claims.has(lookupId)) return true;
      const u = this.#unconfirmed.get(lookupId);
      return u !== undefined && u.dueMs > now;
    };
    const blocked = (m: StoredMessage): boolean => held(m.lookupId) || m.status !== MessageStatus.READY;
    const unavailable = claims.countIn(queue.id) + this.#waitingIn(queue.id, now);
    // Every message is in a call or waiting for its resend: nothing to read (a session asks after each call).
    if (core.registry.usageOf(queue.id).count <= unavailable) return null;
    const quick = this.#quickLease(queue, maxMessages, maxBytes, now);
    if (quick !== undefined) return quick;
    let fetch = unavailable + maxMessages;
    // What others hold is read past, not taken: it does not count against the room a transaction may need.
    const fetchCap = unavailable + maxMessages + GROUP_CAP;
    for (;;) {
      const candidates = core.store.messages.firstReady(queue.id, fetch, held).filter((m) => !blocked(m));
      if (candidates.length === 0) return null;
      const transit = this.#transitOf(candidates);
      const taken: StoredMessage[] = [];
      let bytes = 0;
      let openGroup: string | null = null;
      for (const m of candidates) {
        const group = transit.get(m.lookupId)?.group ?? null;
        const full = taken.length >= maxMessages || (taken.length > 0 && bytes + m.size > maxBytes);
        if (full && (openGroup === null || group !== openGroup)) break;
        taken.push(m);
        bytes += m.size;
        openGroup = group;
      }
      // The last transaction may go on past what was read: read more, up to the largest one there can be.
      const cutShort = taken.length === candidates.length && openGroup !== null && fetch < fetchCap;
      if (cutShort && core.store.messages.firstReady(queue.id, fetch + 1).length > fetch) {
        fetch = Math.min(fetchCap, fetch * 2);
        continue;
      }
      claims.takeAll(taken);
      if (taken.some((m) => m.transactional)) this.#sequenced.add(queue.id);
      return this.#hold(queue, taken, transit, bytes, now);
    }
  }

  /**
   * A lease of a queue of nontransactional messages: the receive-order cursor seeks past what other leases
   * hold, where the general path reads the IDs of every message in a call again for each lease. Undefined
   * when the general path must decide: resends are waiting, or transactions must be kept whole.
   */
  #quickLease(
    queue: QueueRecord,
    maxMessages: number,
    maxBytes: number,
    now: number,
  ): OutboundLease | null | undefined {
    if (this.#sequenced.has(queue.id) || this.#waitingIn(queue.id, now) > 0) return undefined;
    const found = this.#deps.cursors.first(queue.id, maxMessages, true, (id) => this.#fresh.get(id)?.message);
    const withoutTransit = new Set<number>();
    for (const m of found) {
      if (this.#fresh.get(m.lookupId)?.inTransit === false) withoutTransit.add(m.lookupId);
      this.#forgetFresh(m.lookupId);
    }
    if (found.length === 0) return null;
    if (found.some((m) => m.transactional)) {
      this.#sequenced.add(queue.id);
      this.#unclaim(found);
      return undefined;
    }
    let bytes = 0;
    let count = 0;
    for (const m of found) {
      if (count > 0 && bytes + m.size > maxBytes) break;
      bytes += m.size;
      count += 1;
    }
    const taken = found.slice(0, count);
    if (count < found.length) this.#unclaim(found.slice(count));
    return this.#hold(queue, taken, this.#transitOf(taken, withoutTransit), bytes, now);
  }

  /** See Core.placedOutgoing. */
  placed(message: StoredMessage, inTransit: boolean): void {
    if (this.#fresh.has(message.lookupId)) return;
    this.#fresh.set(message.lookupId, { message, inTransit });
    this.#freshBytes += message.size;
    while (this.#fresh.size > FRESH_MAX_MESSAGES || this.#freshBytes > FRESH_MAX_BYTES) {
      const oldest = this.#oldestFresh.next();
      if (oldest === undefined) break;
      this.#forgetFresh(oldest);
    }
  }

  #forgetFresh(lookupId: number): void {
    const fresh = this.#fresh.get(lookupId);
    if (!fresh) return;
    this.#fresh.delete(lookupId);
    this.#freshBytes -= fresh.message.size;
  }

  #hold(
    queue: QueueRecord,
    taken: StoredMessage[],
    transit: Map<number, TransitRecord>,
    bytes: number,
    now: number,
  ): OutboundLease {
    const { core } = this.#deps;
    const messages = taken.map((m) => toTransit(m, transit.get(m.lookupId), now, core.identity));
    if (this.#sequenced.has(queue.id)) this.#previousNumbers(queue, messages);
    const lease: OutboundLease = { id: this.#nextLease++, formatName: queue.name, messages, bytes };
    this.#held.set(lease.id, { lease, messages: taken, inTransit: new Set(transit.keys()) });
    return lease;
  }

  /**
   * R-E3: each message numbered here carries its previous number, worked out afresh each time it leaves (each
   * lease, each resend): the greatest number below it that this queue still holds — in this lease, sent and not
   * yet confirmed, or waiting — else the last one the destination confirmed. The numbers between were abandoned
   * here (expired, purged, deleted) and will never come, so the destination takes this one without them. Never
   * a number abandoned above the last confirmed: the destination may not have it, and would wait for it forever.
   */
  #previousNumbers(queue: QueueRecord, messages: TransitMessage[]): void {
    const { core } = this.#deps;
    const self = core.identity.id.toLowerCase();
    const streams = new Map<string, TransitMessage[]>();
    for (const m of messages) {
      // A relayed message keeps the previous number its source gave it (toTransit).
      if (m.sequence === null || m.sourceMachineId.toLowerCase() !== self) continue;
      const list = streams.get(m.sequence.stream);
      if (list) list.push(m);
      else streams.set(m.sequence.stream, [m]);
    }
    for (const [stream, list] of streams) {
      const acked = core.store.delivery.seqOutByStream(stream)?.acked ?? 0;
      let highest = 0;
      for (const m of list) highest = Math.max(highest, (m.sequence as TransitSequence).number);
      // Ascending, the lease's own numbers below the highest among them.
      const held = core.store.delivery.heldInStream(stream, queue.id, acked, highest);
      for (const m of list) {
        const sequence = m.sequence as TransitSequence;
        const below = greatestBelow(held, sequence.number);
        m.sequence = { ...sequence, previous: below ?? Math.min(acked, sequence.number - 1) };
      }
    }
  }

  /** Gives back messages just claimed and not sent: they are ready where they were. */
  #unclaim(messages: readonly StoredMessage[]): void {
    const { claims, cursors } = this.#deps;
    for (const m of messages) {
      claims.release(m.lookupId);
      cursors.putBack(m.queueId, m);
    }
    for (const queueId of new Set(messages.map((m) => m.queueId))) cursors.settled(queueId);
  }

  /** Applies the next hop's answers, durably, then lets the messages go. */
  async settle(lease: OutboundLease, outcomes: readonly DeliveryOutcome[]): Promise<void> {
    const held = this.#held.get(lease.id);
    if (!held) return;
    this.#held.delete(lease.id);
    const { core } = this.#deps;
    const sent: StoredMessage[] = [];
    const done: StoredMessage[] = [];
    const sequenced = (m: StoredMessage, i: number): boolean => m.transactional && lease.messages[i]?.sequence != null;
    const forwardedAll = held.messages.every((m, i) => {
      const outcome = outcomes[i]?.outcome;
      return !sequenced(m, i) && (outcome === 'stored' || outcome === 'duplicate');
    });
    if (forwardedAll) {
      // The usual answer: the next hop stored every message. One statement removes them all.
      try {
        await this.#deps.execute(
          held.messages.some((m) => m.table === 'main'),
          () => this.#forwardAll(held.messages, held.inTransit),
        );
        done.push(...held.messages);
      } finally {
        this.#let(held.messages, done);
      }
      return;
    }
    try {
      await this.#deps.execute(
        held.messages.some((m) => m.table === 'main'),
        () => {
          // The destination has each stream through the highest number it accepted (or had): the source's
          // previous numbers start from there (R-E3).
          const through = new Map<string, number>();
          const confirmed = (i: number): void => {
            const sequence = lease.messages[i]?.sequence;
            if (sequence && sequence.number > (through.get(sequence.stream) ?? 0))
              through.set(sequence.stream, sequence.number);
          };
          held.messages.forEach((m, i) => {
            const outcome = outcomes[i] ?? { outcome: 'retry', reason: 'no answer' };
            const inSequence = sequenced(m, i);
            const leave = (reason: MessageRemovalReason, owed = true): void =>
              this.#leave(m, reason, held.inTransit.has(m.lookupId), owed);
            switch (outcome.outcome) {
              case 'accepted':
                this.#confirm(m, leave);
                confirmed(i);
                done.push(m);
                return;
              case 'duplicate':
                if (inSequence) {
                  this.#confirm(m, leave);
                  confirmed(i);
                } else this.#forward(m, leave);
                done.push(m);
                return;
              case 'stored':
                // A routing server has it; the destination has yet to confirm (unless it did meanwhile). The
                // source keeps its copy to send again (R-E4); a routing server's is done (store and forward).
                if (inSequence && this.#isOwn(m) && !this.#acked(lease.messages[i]?.sequence)) {
                  const early = this.#earlyFinals.get(m.msgId);
                  if (early === undefined || early === MessageClass.ACK_RECEIVE) {
                    sent.push(m);
                    return;
                  }
                  // It failed further on (a routing server said so, R-D2) before this reply came: dead-letter it.
                  this.#earlyFinals.delete(m.msgId);
                  deadLetter(core, m, early);
                  leave('deleted', false);
                  done.push(m);
                  return;
                }
                if (inSequence) this.#confirm(m, leave);
                else this.#forward(m, leave);
                done.push(m);
                return;
              case 'refused':
                // R-D1: the computer that could not deliver dead-letters it (and sends the NACK) — once: its
                // removal owes nothing more (not the NACK_PURGED of an administrator's delete, R-A5, R-A11).
                failDelivery(core, m, outcome.classCode);
                this.#earlyFinals.delete(m.msgId); // dead-lettered now: a final that came too owes nothing more
                leave('deleted', false);
                done.push(m);
                return;
              case 'retry':
                return;
            }
          });
          for (const [stream, number] of through) this.#ackedThrough(stream, number);
        },
      );
    } finally {
      this.#let(held.messages, done, sent);
    }
    const now = core.clock.now();
    for (const m of sent) {
      const before = this.#unconfirmed.get(m.lookupId);
      const sends = (before?.sends ?? 0) + 1;
      const dueMs = this.#dueNow.delete(m.lookupId) ? now : now + resendDelayMs(core, sends);
      this.#unconfirmed.set(m.lookupId, { queueId: m.queueId, sends, dueMs });
    }
  }

  /** The call failed: the messages go back, to be sent again. */
  release(lease: OutboundLease): void {
    const held = this.#held.get(lease.id);
    if (!held) return;
    this.#held.delete(lease.id);
    this.#let(held.messages, []);
  }

  /** A session came back: unconfirmed messages of these queues go again now (R-E4). */
  resendNow(formatNames: readonly string[]): void {
    const ids = new Set(
      formatNames
        .map((f) => this.#deps.core.registry.byKey('outgoing', f.toLowerCase())?.id)
        .filter((id): id is number => id !== undefined),
    );
    for (const u of this.#unconfirmed.values()) if (ids.has(u.queueId)) u.dueMs = 0;
  }

  /**
   * The destination accepted a stream through a number (R-E3): its messages still here are confirmed. Runs
   * in a unit of work.
   */
  confirmThrough(stream: string, through: number): void {
    const { core, claims } = this.#deps;
    if (!this.#ackedThrough(stream, through)) return;
    for (const id of core.store.delivery.inStreamThrough(stream, through)) {
      if (claims.has(id)) continue; // in a call now: its settle sees the acknowledgment
      const message = core.store.messages.get(id, 'main');
      if (message) this.#confirm(message);
    }
  }

  /**
   * Records that the destination has a stream through `through` (R-E3: the previous numbers start there). False
   * when the stream is not one this computer sends (only the source has its record).
   */
  #ackedThrough(stream: string, through: number): boolean {
    const { delivery } = this.#deps.core.store;
    const out = delivery.seqOutByStream(stream);
    if (!out) return false;
    if (through > out.acked) delivery.putSeqOut({ ...out, acked: through });
    return true;
  }

  /** A transactional message sent from here failed on the way (a routing server says): dead-letter it here. */
  failInTransit(messageId: string, classCode: number): number {
    const { core, claims } = this.#deps;
    let failed = 0;
    for (const m of core.store.messages.byMessageId(messageId)) {
      const queue = core.registry.get(m.queueId);
      if (queue?.kind !== 'outgoing' || m.sourceMachineId !== core.identity.id || claims.has(m.lookupId)) continue;
      // The computer that failed it sent the NACK; the source keeps the dead letter (R-D2).
      deadLetter(core, m, classCode === MessageClass.ACK_RECEIVE ? MessageClass.NACK_BAD_DST_Q : classCode);
      this.#leave(m, 'deleted', true, false); // that dead letter is all it owes (no NACK_PURGED, no second copy)
      failed += 1;
    }
    return failed;
  }

  /**
   * A final confirmation came for a message sent from here that has no sent record yet: true when the message
   * is in a call to the next hop now — the destination's answer overtook that call's reply — and the final is
   * kept until the reply confirms it (#confirm). False: the message is not on its way (applyFinal goes on).
   */
  finalBeforeReply(messageId: string, classCode: number): boolean {
    const { core, claims } = this.#deps;
    const inCall = core.store.messages.byMessageId(messageId).some((m) => {
      const queue = core.registry.get(m.queueId);
      return queue?.kind === 'outgoing' && m.sourceMachineId === core.identity.id && claims.has(m.lookupId);
    });
    if (inCall) this.#earlyFinals.set(messageId, classCode);
    return inCall;
  }

  /**
   * A copy of a transactional message sent from here came back around a routing loop (R-H1): the copy this
   * computer keeps to send again goes now, with the hops the message has made (set by the caller), rather than
   * on the resend schedule — the loop ends at the hop limit, not after hours of resends.
   */
  cameBack(lookupId: number): void {
    const u = this.#unconfirmed.get(lookupId);
    // Still in the call that sent it (the loop outran that call's reply): its settle makes it due.
    if (u && !this.#deps.claims.has(lookupId)) u.dueMs = 0;
    else this.#dueNow.add(lookupId);
  }

  /**
   * A transactional message sent from here failed on this computer as a routing server (R-H1): as if told.
   * False when no copy of it is kept here (the caller makes the dead letter from what it has).
   */
  failedHere(messageId: string, classCode: number): boolean {
    return this.finalBeforeReply(messageId, classCode) || this.failInTransit(messageId, classCode) > 0;
  }

  #isOwn(m: StoredMessage): boolean {
    return m.sourceMachineId.toLowerCase() === this.#deps.core.identity.id.toLowerCase();
  }

  /** Forgets unconfirmed entries of messages that left their queue otherwise (expired, purged). */
  tidy(): void {
    for (const id of this.#unconfirmed.keys())
      if (!this.#deps.core.store.messages.get(id)) this.#unconfirmed.delete(id);
    for (const id of this.#dueNow) if (!this.#deps.core.store.messages.get(id)) this.#dueNow.delete(id);
    for (const messageId of this.#earlyFinals.keys())
      if (this.#deps.core.store.messages.byMessageId(messageId).length === 0) this.#earlyFinals.delete(messageId);
    this.#deps.core.store.delivery.cleanupTransit();
  }

  #waitingIn(queueId: number, now: number): number {
    let n = 0;
    for (const u of this.#unconfirmed.values()) if (u.queueId === queueId && u.dueMs > now) n += 1;
    return n;
  }

  /** The transit rows of messages, except those known to have none. */
  #transitOf(messages: readonly StoredMessage[], withoutTransit?: ReadonlySet<number>): Map<number, TransitRecord> {
    const { delivery } = this.#deps.core.store;
    const mayHave = withoutTransit ? messages.filter((m) => !withoutTransit.has(m.lookupId)) : messages;
    if (mayHave.length === 0) return new Map();
    const main = delivery.transitOf(
      'main',
      mayHave.filter((m) => m.table === 'main').map((m) => m.lookupId),
    );
    const mem = delivery.transitOf(
      'mem',
      mayHave.filter((m) => m.table === 'mem').map((m) => m.lookupId),
    );
    for (const [id, t] of mem) main.set(id, t);
    return main;
  }

  #acked(sequence: { stream: string; number: number } | null | undefined): boolean {
    if (!sequence) return false;
    const out = this.#deps.core.store.delivery.seqOutByStream(sequence.stream);
    return out !== undefined && sequence.number <= out.acked;
  }

  /** #forward for a whole lease: the removals in one statement, then the journal copies in order. */
  #forwardAll(messages: readonly StoredMessage[], inTransit: ReadonlySet<number>): void {
    const { core } = this.#deps;
    removeForwarded(core, messages);
    for (const table of ['main', 'mem'] as const) {
      const ids = messages.filter((m) => m.table === table && inTransit.has(m.lookupId)).map((m) => m.lookupId);
      if (ids.length > 0) core.store.delivery.removeTransit(table, ids);
    }
    for (const m of messages) {
      const id = m.lookupId;
      if (this.#unconfirmed.has(id)) core.effects.afterCommit(() => this.#unconfirmed.delete(id));
      if ((m.journal & 2) !== 0 && m.sourceMachineId === core.identity.id) journalCopy(core, m);
    }
  }

  /** The next hop stored a nontransactional message: it leaves; R-J1 source-journal copy when it was sent from here. */
  #forward(m: StoredMessage, leave: (reason: MessageRemovalReason) => void): void {
    const { core } = this.#deps;
    leave('forwarded');
    if ((m.journal & 2) !== 0 && m.sourceMachineId === core.identity.id) journalCopy(core, m);
  }

  /** The destination confirmed a transactional message: it leaves; R-J4 copy; kept for its final confirmation. */
  #confirm(m: StoredMessage, leave = (reason: MessageRemovalReason) => this.#leave(m, reason)): void {
    const { core } = this.#deps;
    const queue = core.registry.get(m.queueId);
    leave('forwarded');
    this.#unconfirmed.delete(m.lookupId);
    if (m.sourceMachineId !== core.identity.id) return; // a routing server keeps nothing (R-J4, R-D2)
    if ((m.journal & 2) !== 0) journalCopy(core, m);
    recordSent(core, m, queue?.nameKey ?? m.destQueue.toLowerCase());
    const early = this.#earlyFinals.get(m.msgId);
    if (early !== undefined) {
      this.#earlyFinals.delete(m.msgId);
      applyFinal(core, m.msgId, early, this.#finalHandlers);
    }
  }

  /** applyFinal's handlers for a final applied here: the sent record exists, so applyFinal calls none of them. */
  readonly #finalHandlers: ControlHandlers = {
    confirmThrough: (stream, through) => this.confirmThrough(stream, through),
    failInTransit: (messageId, classCode) => this.failInTransit(messageId, classCode),
    finalBeforeReply: (messageId, classCode) => this.finalBeforeReply(messageId, classCode),
  };

  #leave(m: StoredMessage, reason: MessageRemovalReason, inTransit = true, owed = true): void {
    removeMessage(this.#deps.core, m, reason, owed);
    if (inTransit) this.#deps.core.store.delivery.removeTransit(m.table, [m.lookupId]);
    const id = m.lookupId;
    if (this.#unconfirmed.has(id)) this.#deps.core.effects.afterCommit(() => this.#unconfirmed.delete(id));
  }

  /**
   * Ends the claims; a purge or deletion that came meanwhile removes what is still there (R-P2). A message that
   * goes back but whose time ran out is expired now rather than offered to another lease (R-X5, R-X6): a
   * time-to-reach-queue of 0 gets one attempt, and this was it. `awaiting` went back only to wait for their
   * destination's confirmation (stored by a routing server): they stay.
   */
  #let(
    messages: readonly StoredMessage[],
    done: readonly StoredMessage[],
    awaiting: readonly StoredMessage[] = [],
  ): void {
    const { core, claims, cursors } = this.#deps;
    if (done.length === messages.length) {
      // The usual end of a lease: every message left, so none goes back and no removal is owed.
      claims.releaseAll(messages);
      for (const queueId of new Set(messages.map((m) => m.queueId))) cursors.settled(queueId);
      return;
    }
    const gone = new Set(done.map((m) => m.lookupId));
    const stay = new Set(awaiting.map((m) => m.lookupId));
    const now = core.clock.now();
    const owed: { message: StoredMessage; reason: MessageRemovalReason }[] = [];
    const expiring: StoredMessage[] = [];
    for (const m of messages) {
      // Its deadline in this queue, kept as placed (arrival.ts expiryFor): the one the expiry pass reads.
      if (!gone.has(m.lookupId) && !stay.has(m.lookupId) && m.expiresMs !== null && m.expiresMs <= now) {
        expiring.push(m); // still claimed, so no lease takes it before its removal commits
        continue;
      }
      const reason = claims.release(m.lookupId);
      if (reason && !gone.has(m.lookupId)) owed.push({ message: m, reason });
      else if (!gone.has(m.lookupId)) {
        // Ready again where it was: the cursor that walked past it must offer it again.
        cursors.putBack(m.queueId, m);
        core.wake(m.queueId);
      }
    }
    for (const queueId of new Set(messages.map((m) => m.queueId))) cursors.settled(queueId);
    // Claimed messages that came back with no time left (R-X6; for a time-to-reach-queue of 0, R-X5's one
    // attempt) are expired as the expiry pass would, then their claims end; should that fail, the pass takes them.
    if (expiring.length > 0)
      this.#removeLater(
        expiring.map((message) => ({ message, reason: 'expired' })),
        () => claims.releaseAll(expiring),
      );
    if (owed.length > 0) this.#removeLater(owed);
  }

  /** Removes what is still there of `removals` in a unit of work of its own, then calls `after`. */
  #removeLater(
    removals: readonly { message: StoredMessage; reason: MessageRemovalReason }[],
    after?: () => void,
  ): void {
    const { core } = this.#deps;
    void this.#deps
      .execute(
        removals.some((r) => r.message.table === 'main'),
        () => {
          for (const { message, reason } of removals) {
            const current = core.store.messages.get(message.lookupId);
            if (current) removeMessage(core, current, reason);
          }
        },
      )
      .catch(() => undefined)
      .finally(after);
  }
}

/** A copy in the computer journal, where the source keeps what it sent (R-J1, R-J4; dropped when full, R-J5). */
function journalCopy(core: Core, m: StoredMessage): void {
  const journal = core.registry.system('JOURNAL');
  if (copyHasRoom(core, journal, m.size)) place(core, draftOf(m), journal);
}

/** The greatest of ascending `numbers` below `n`, or undefined. */
function greatestBelow(numbers: readonly number[], n: number): number | undefined {
  let lo = 0;
  let hi = numbers.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((numbers[mid] as number) < n) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? numbers[lo - 1] : undefined;
}

function destinationOf(formatName: string): string {
  const match = /^DIRECT=(?:OS|TCP):([^\\]+)\\/i.exec(formatName);
  return match?.[1] ?? '';
}
