/**
 * The inbound side of store-and-forward (docs/network.md): messages handed over by a trusted peer. For a
 * queue of this computer they take the one arrival path — duplicate removal for nontransactional messages
 * (R-U1–R-U3), the sequence check for transactional ones (R-E3), timers counted from their arrival here (R-X2);
 * for another computer a routing server stores them in its own outgoing queue, one hop further (R-H1). Every
 * outcome is reported only once what was stored is durable.
 */
import { Delivery, Limits, MessageClass, parseQueueName, type QueueRef } from '@qk/model';
import type { QueueRecord } from '@qk/store';
import type { Core } from '../core.js';
import { DuplicateCache } from '../duplicate-cache.js';
import type { ArrivalsInFlight } from '../network-arrival.js';
import { arrive } from '../arrival.js';
import { acknowledge, deadLetter, failDelivery } from '../acknowledgments.js';
import { oweSequenceAck } from './owed.js';
import type { ComputerRef, DeliveryOutcome, TransitMessage, TransitSequence } from './port-types.js';
import { draftFromTransit, putTransit } from './transit.js';
import type { Draft } from '../drafts.js';

export interface InboundDeps {
  core: Core;
  execute<T>(durable: boolean, work: () => T): Promise<T>;
  duplicates: DuplicateCache;
  /** Shared with messageArrive: a second copy of a message still deciding waits for the first. */
  arrivals: ArrivalsInFlight;
  /** This computer's own transactional message came back around a routing loop: its kept copy goes again now. */
  cameBack(lookupId: number): void;
  /**
   * This computer's own transactional message failed here as a routing server: dead-letter the copy it keeps
   * to send again and stop sending it. False when it keeps none.
   */
  failedHere(messageId: string, classCode: number): boolean;
}

const stored: DeliveryOutcome = { outcome: 'stored' };

/** A message of a delivery with its place in the call and its destination. */
interface Item {
  index: number;
  m: TransitMessage;
  ref: QueueRef;
}

/** An item placed with the others of its call: its draft, and its duplicate-cache key (null: transactional). */
interface Placing extends Item {
  draft: Draft;
  key: string | null;
}

/**
 * One outcome per message, in order. The call's messages take few units of work: one for those placed here
 * without a sequence, one for those relayed, one per transaction of a sequence (R-E2) — so a lease costs one
 * group commit, not one savepoint, promise and duplicate-cache round per message. Each message still meets
 * every rule on its own (duplicates, quotas, timers, hop count, classes).
 */
export async function deliverInbound(
  deps: InboundDeps,
  from: ComputerRef,
  messages: readonly TransitMessage[],
  routing: boolean,
): Promise<DeliveryOutcome[]> {
  const outcomes: DeliveryOutcome[] = messages.map(() => ({ outcome: 'retry', reason: 'not handled' }));
  const refs = new Map<string, QueueRef | null>();
  const refOf = (destQueue: string): QueueRef | null => {
    let ref = refs.get(destQueue);
    if (ref === undefined) {
      try {
        ref = parseQueueName(destQueue);
      } catch {
        ref = null;
      }
      refs.set(destQueue, ref);
    }
    return ref;
  };
  const local: Item[] = [];
  const relayed: Item[] = [];
  const sequenced: Item[][] = [];
  messages.forEach((m, index) => {
    const ref = refOf(m.destQueue);
    if (!ref) {
      outcomes[index] = { outcome: 'refused', classCode: MessageClass.NACK_BAD_DST_Q };
      return;
    }
    const item = { index, m, ref };
    if (!deps.core.registry.isLocal(ref.computer)) relayed.push(item);
    else if (m.transactional && m.sequence) {
      // Messages of one transaction (adjacent, one group of one stream) are placed together (R-E2).
      const unit = sequenced[sequenced.length - 1];
      const before = unit?.[unit.length - 1];
      const sameGroup =
        m.sequence.group !== null &&
        before?.index === index - 1 &&
        before.m.sequence?.group === m.sequence.group &&
        before.m.sequence.stream === m.sequence.stream;
      if (unit && sameGroup) unit.push(item);
      else sequenced.push([item]);
    } else local.push(item);
  });
  const fill = (items: readonly Item[], results: readonly DeliveryOutcome[]): void =>
    items.forEach((it, k) => (outcomes[it.index] = results[k] ?? { outcome: 'retry', reason: 'not handled' }));
  const retryAll = (items: readonly Item[], error: unknown): void => {
    const reason = error instanceof Error ? error.message : String(error);
    fill(
      items,
      items.map(() => ({ outcome: 'retry', reason })),
    );
  };
  // Each part queues its work now, in order, so one group commit takes them all.
  await Promise.all([
    local.length > 0 ? deliverLocal(deps, local, outcomes) : undefined,
    relayed.length > 0
      ? relay(deps, relayed, routing).then(
          (results) => fill(relayed, results),
          (error: unknown) => retryAll(relayed, error),
        )
      : undefined,
    ...sequenced.map((unit) =>
      deliverSequenced(
        deps,
        from,
        (unit[0] as Item).ref,
        unit.map((it) => it.m),
      ).then(
        (results) => fill(unit, results),
        (error: unknown) => retryAll(unit, error),
      ),
    ),
  ]);
  return outcomes;
}

/** The application queue a message is for, or undefined (NACK_BAD_DST_Q). */
function destinationQueue(core: Core, ref: QueueRef): QueueRecord | undefined {
  const queue = core.registry.findLocal(ref);
  return queue && (queue.kind === 'private' || queue.kind === 'public') ? queue : undefined;
}

/** The duplicate cache's key, which is also the key of an arrival still deciding (network-arrival.ts). */
const duplicateKey = (m: TransitMessage): string => DuplicateCache.keyOf(m.sourceMachineId, m.msgId);

/**
 * duplicateKey for the messages of one delivery, which nearly always share their source computer: its part of
 * the key is made once.
 */
function duplicateKeys(): (m: TransitMessage) => string {
  let source = '';
  let prefix = '';
  return (m) => {
    if (m.sourceMachineId !== source) {
      source = m.sourceMachineId;
      prefix = DuplicateCache.keyOf(source, '');
    }
    return prefix + m.msgId.toLowerCase();
  };
}

/** Whether a message arrived with no time-to-reach-queue left (R-X2: counted on the computer that sent it). */
const noTimeLeft = (m: TransitMessage): boolean => m.reachQueueWithinMs !== null && m.reachQueueWithinMs <= 0;

/**
 * Whether a message for a queue of this computer ran out of time-to-reach-queue before it got here (R-X6).
 * One that reached this queue manager has met its time-to-reach-queue (R-X1) — as a local arrival with none
 * left (R-X5) — if it still had time when the computer before handed it over: a sender expires what ran out
 * waiting to leave, so none left at hand-over means it ran out there, on the way. Except a message sent with a
 * time-to-reach-queue of 0 straight from its source (no hop between): that is its one attempt, and it
 * succeeded (R-X5). Through a routing server such a message ends there (`relay`).
 */
function ranOutOnTheWay(m: TransitMessage): boolean {
  return noTimeLeft(m) && !(m.ttrq === 0 && m.hops === 0);
}

/** Places one message (without a sequence) in its queue here; runs in a unit of work. */
function placeHere(core: Core, ref: QueueRef, draft: Draft, m: TransitMessage): DeliveryOutcome {
  const queue = destinationQueue(core, ref);
  if (!queue) {
    failDelivery(core, draft, MessageClass.NACK_BAD_DST_Q); // R-A5, R-D1: on the computer that failed
    return stored;
  }
  if (ranOutOnTheWay(m)) {
    failDelivery(core, draft, MessageClass.NACK_REACH_QUEUE_TIMEOUT); // R-X6: it ran out on the way
    return stored;
  }
  const result = arrive(core, draft, queue, 'network');
  // R-Q4: a full computer stores nothing and sends no NACK; the sender keeps trying.
  if (!result.placed && result.failureClass === null) return { outcome: 'retry', reason: result.reason };
  return stored;
}

/**
 * Messages without a sequence for queues of this computer, in one unit of work. A copy whose twin is still
 * deciding (another call, or earlier in this one) waits for it alone, so the duplicate cache sees the twin.
 * Should the unit fail, each message goes again on its own, so one bad message cannot hold back the others.
 */
async function deliverLocal(deps: InboundDeps, items: readonly Item[], outcomes: DeliveryOutcome[]): Promise<void> {
  const { core } = deps;
  const now = core.clock.now();
  const batch: Placing[] = [];
  const alone: Item[] = [];
  const keys = new Set<string>();
  const keyOf = duplicateKeys();
  for (const it of items) {
    // R-U1: transactional messages have their sequences instead of the cache.
    const key = it.m.transactional ? null : keyOf(it.m);
    if (key !== null) {
      if (keys.has(key) || deps.arrivals.deciding(key)) {
        alone.push(it);
        continue;
      }
      keys.add(key);
    }
    // Written out, not spread: a spread copy was most of this loop's time.
    batch.push({ index: it.index, m: it.m, ref: it.ref, draft: draftFromTransit(it.m, now), key });
  }
  const one = async (it: Item): Promise<void> => {
    try {
      outcomes[it.index] = await deliverOne(deps, it.ref, it.m);
    } catch (error) {
      outcomes[it.index] = { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
  };
  const together = async (): Promise<void> => {
    if (batch.length === 0) return;
    const durable = batch.some((it) => it.draft.delivery === Delivery.RECOVERABLE);
    let results: DeliveryOutcome[];
    try {
      results = await deps.arrivals.runAll([...keys], async () => {
        const placed = await deps.execute(durable, () =>
          batch.map((it): DeliveryOutcome => {
            if (it.key !== null && deps.duplicates.isDuplicateKey(it.key)) return { outcome: 'duplicate' };
            return placeHere(core, it.ref, it.draft, it.m);
          }),
        );
        // R-U2: remembered once stored, so one refused now is taken when it comes again.
        const at = core.clock.now();
        placed.forEach((o, k) => {
          const key = batch[k]?.key;
          if (o.outcome === 'stored' && key != null) deps.duplicates.rememberKey(key, at);
        });
        return placed;
      });
    } catch {
      await Promise.all(batch.map(one));
      return;
    }
    batch.forEach((it, k) => (outcomes[it.index] = results[k] ?? { outcome: 'retry', reason: 'not handled' }));
  };
  await Promise.all([together(), ...alone.map(one)]);
}

/** A message (without a sequence) for a queue of this computer, on its own. */
async function deliverOne(deps: InboundDeps, ref: QueueRef, m: TransitMessage): Promise<DeliveryOutcome> {
  const { core } = deps;
  const draft = draftFromTransit(m, core.clock.now());
  const place = (): Promise<DeliveryOutcome> =>
    deps.execute(draft.delivery === Delivery.RECOVERABLE, () => placeHere(core, ref, draft, m));
  if (m.transactional) return place(); // R-U1: transactional messages have their sequences instead
  // R-U1/R-U2: a copy sent again after a lost confirmation is dropped by (source computer, message ID); the ID
  // is remembered once the message is stored, so one refused now is taken when it comes again.
  let outcome: DeliveryOutcome = { outcome: 'duplicate' };
  await deps.arrivals.run(duplicateKey(m), async () => {
    if (deps.duplicates.isDuplicate(m.sourceMachineId, m.msgId)) return false;
    outcome = await place();
    if (outcome.outcome !== 'stored') return false;
    deps.duplicates.remember(m.sourceMachineId, m.msgId, core.clock.now());
    return true;
  });
  return outcome;
}

/**
 * A transaction's messages (or one) for a queue of this computer, in sequence (R-E3): numbers already accepted
 * are duplicates; a number is taken when the stream has its previous number (the number before it, unless the
 * source said it abandoned those between), else it is sent again later; those taken are placed with the stream's
 * counter in the same unit of work. A failure here is reported to the source, which keeps the dead letter (R-D2).
 */
function deliverSequenced(
  deps: InboundDeps,
  from: ComputerRef,
  ref: QueueRef,
  unit: TransitMessage[],
): Promise<DeliveryOutcome[]> {
  const { core } = deps;
  return deps.execute(true, () => {
    const now = core.clock.now();
    const first = unit[0] as TransitMessage;
    const stream = first.sequence?.stream as string;
    let last = core.store.delivery.seqIn(stream);
    const before = last;
    let blocked = false;
    const outcomes: DeliveryOutcome[] = [];
    const queue = destinationQueue(core, ref);
    for (const m of unit) {
      const number = m.sequence?.number ?? 0;
      if (number <= last) {
        outcomes.push({ outcome: 'duplicate' });
        continue;
      }
      // The next number, or a later one whose previous number is here already: the source abandoned every
      // number between (expired or purged there), so none of them can come before it.
      const previous = m.sequence?.previous ?? number - 1;
      if (blocked || previous > last) {
        // R-E2: never part of a transaction — should one of it be out of sequence after others were placed,
        // the unit rolls back and all of it comes again.
        if (last > before && unit.length > 1) throw new Error(`out of sequence: ${number} after ${last}`);
        outcomes.push({ outcome: 'retry', reason: `out of sequence: ${number} came before ${last + 1}` });
        continue;
      }
      const draft = draftFromTransit(m, now);
      if (!queue) failDelivery(core, draft, MessageClass.NACK_BAD_DST_Q);
      else if (ranOutOnTheWay(m)) failDelivery(core, draft, MessageClass.NACK_REACH_QUEUE_TIMEOUT);
      else {
        const result = arrive(core, draft, queue, 'network');
        if (!result.placed && result.failureClass === null) {
          // R-E2: a transaction is placed whole or not at all — the unit of work rolls back what it placed,
          // and every message of it comes again (deliverInbound answers them all 'retry').
          if (unit.length > 1) throw new Error(result.reason);
          // R-Q4: nothing stored and the number not taken: this and the rest come again.
          outcomes.push({ outcome: 'retry', reason: result.reason });
          blocked = true;
          continue;
        }
      }
      last = number;
      outcomes.push({ outcome: 'accepted' });
    }
    if (last > before) core.store.delivery.putSeqIn(stream, first.sourceMachineId, last, now);
    // Through a routing server the answer goes only that far: the source hears it as a control item.
    if (from.id.toLowerCase() !== first.sourceMachineId.toLowerCase() && last > 0)
      oweSequenceAck(core, { name: first.sourceMachine, id: first.sourceMachineId }, stream, last);
    return outcomes;
  });
}

/** The lookup ID of the copy of a sequenced message a routing server holds in an outgoing queue, if any. */
function heldCopy(core: Core, queueId: number, msgId: string, sequence: TransitSequence): number | undefined {
  for (const id of core.store.delivery.inStreamAt(sequence.stream, sequence.number)) {
    const copy = core.store.messages.get(id, 'main');
    if (copy?.queueId === queueId && copy.msgId === msgId) return id;
  }
  return undefined;
}

/** Messages for other computers: a routing server stores them in its own outgoing queues, one hop further. */
function relay(deps: InboundDeps, items: readonly Item[], routing: boolean): Promise<DeliveryOutcome[]> {
  const { core } = deps;
  // Only a routing server passes messages on; the sender fails them (R-D1 on its side).
  if (!routing)
    return Promise.resolve(items.map(() => ({ outcome: 'refused', classCode: MessageClass.NACK_BAD_DST_Q })));
  const durable = items.some((it) => it.m.recoverable || it.m.transactional);
  return deps.execute(durable, () => {
    const now = core.clock.now();
    return items.map(({ m, ref }): DeliveryOutcome => {
      const draft = draftFromTransit(m, now);
      const made = m.hops + 1;
      const own = m.transactional && m.sourceMachineId.toLowerCase() === core.identity.id.toLowerCase();
      // R-H1: the next hop would be one more than MSMQ's fixed limit of 15.
      if (made + 1 > Limits.MAX_HOPS) {
        if (!own) failDelivery(core, draft, MessageClass.NACK_HOP_COUNT_EXCEEDED);
        else {
          // Its source is this computer (a loop came back here): one NACK, and the dead letter made from the
          // copy it keeps to send again, which stops going round (R-D2).
          acknowledge(core, draft, MessageClass.NACK_HOP_COUNT_EXCEEDED);
          if (!deps.failedHere(m.msgId, MessageClass.NACK_HOP_COUNT_EXCEEDED))
            deadLetter(core, draft, MessageClass.NACK_HOP_COUNT_EXCEEDED);
        }
        return stored;
      }
      // R-X6: no time left to reach its queue manager, which is not this one — a message sent with a
      // time-to-reach-queue of 0 included: its one attempt (R-X5) reached a routing server, not its destination.
      if (noTimeLeft(m)) {
        failDelivery(core, draft, MessageClass.NACK_REACH_QUEUE_TIMEOUT);
        return stored;
      }
      let target;
      try {
        target = core.registry.remoteTarget(ref, m.destQueue);
      } catch {
        failDelivery(core, draft, MessageClass.NACK_BAD_DST_Q);
        return stored;
      }
      const queue = core.outgoingQueue(target.formatName, target.key);
      const sequence = m.sequence;
      const copy = sequence && m.transactional ? heldCopy(core, queue.id, m.msgId, sequence) : undefined;
      const held = copy === undefined ? undefined : core.store.delivery.transitOf('main', [copy]).get(copy);
      if (copy !== undefined && own) {
        // R-H1: this computer's own message came back around a routing loop. The copy it keeps to send again
        // (R-E4) takes the hops the message has made and goes on now; no second copy.
        if (held) putTransit(core, 'main', { ...held, hops: made });
        core.effects.afterCommit(() => deps.cameBack(copy));
        return stored;
      }
      if (copy !== undefined && (held?.hops ?? 0) >= made) {
        // Its source sent it again (R-E4) while this computer still holds it: one copy is kept, and it takes
        // the newer previous number (R-E3), which the source works out afresh each time it sends.
        if (sequence?.previous !== undefined) core.store.delivery.setTransitPrevious(copy, sequence.previous);
        return stored;
      }
      // A copy held here with fewer hops is the same message on its way out, and this one came around a routing
      // loop (R-H1): it goes on as a copy of its own, one hop further; the held one leaves once the next hop has it.
      const result = arrive(core, draft, queue, 'network');
      if (!result.placed) return { outcome: 'retry', reason: result.reason };
      putTransit(core, result.message.table, {
        lookupId: result.message.lookupId,
        hops: made,
        stream: sequence?.stream ?? null,
        seq: sequence?.number ?? null,
        group: sequence?.group ?? null,
        previous: sequence?.previous ?? null,
      });
      return stored;
    });
  });
}
