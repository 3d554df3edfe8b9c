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
import type { DuplicateCache } from '../duplicate-cache.js';
import type { ArrivalsInFlight } from '../network-arrival.js';
import { arrive } from '../arrival.js';
import { failDelivery } from '../acknowledgments.js';
import { oweSequenceAck } from './owed.js';
import type { ComputerRef, DeliveryOutcome, TransitMessage } from './port-types.js';
import { draftFromTransit, putTransit } from './transit.js';

export interface InboundDeps {
  core: Core;
  execute<T>(durable: boolean, work: () => T): Promise<T>;
  duplicates: DuplicateCache;
  /** Shared with messageArrive: a second copy of a message still deciding waits for the first. */
  arrivals: ArrivalsInFlight;
}

const stored: DeliveryOutcome = { outcome: 'stored' };

/** One outcome per message, in order. Messages of one transaction are placed together (R-E2). */
export async function deliverInbound(
  deps: InboundDeps,
  from: ComputerRef,
  messages: readonly TransitMessage[],
  routing: boolean,
): Promise<DeliveryOutcome[]> {
  const outcomes: DeliveryOutcome[] = messages.map(() => ({ outcome: 'retry', reason: 'not handled' }));
  const units: number[][] = [];
  messages.forEach((m, i) => {
    const previous = units[units.length - 1];
    const before = previous ? messages[previous[previous.length - 1] as number] : undefined;
    const sameGroup =
      m.sequence?.group != null &&
      before?.sequence?.group === m.sequence.group &&
      before.sequence.stream === m.sequence.stream;
    if (previous && sameGroup) previous.push(i);
    else units.push([i]);
  });
  // Each unit queues its work now, in order, so one group commit takes them all.
  await Promise.all(
    units.map(async (indexes) => {
      const unit = indexes.map((i) => messages[i] as TransitMessage);
      let results: DeliveryOutcome[];
      try {
        results = await deliverUnit(deps, from, unit, routing);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        results = unit.map(() => ({ outcome: 'retry', reason }));
      }
      indexes.forEach((i, k) => (outcomes[i] = results[k] ?? { outcome: 'retry', reason: 'not handled' }));
    }),
  );
  return outcomes;
}

function deliverUnit(
  deps: InboundDeps,
  from: ComputerRef,
  unit: TransitMessage[],
  routing: boolean,
): Promise<DeliveryOutcome[]> {
  const first = unit[0] as TransitMessage;
  let ref: QueueRef;
  try {
    ref = parseQueueName(first.destQueue);
  } catch {
    return Promise.resolve(unit.map(() => ({ outcome: 'refused', classCode: MessageClass.NACK_BAD_DST_Q })));
  }
  if (!deps.core.registry.isLocal(ref.computer)) return relay(deps, ref, unit, routing);
  if (first.transactional && first.sequence) return deliverSequenced(deps, from, ref, unit);
  return Promise.all(unit.map((m) => deliverOne(deps, ref, m)));
}

/** The application queue a message is for, or undefined (NACK_BAD_DST_Q). */
function destinationQueue(core: Core, ref: QueueRef): QueueRecord | undefined {
  const queue = core.registry.findLocal(ref);
  return queue && (queue.kind === 'private' || queue.kind === 'public') ? queue : undefined;
}

/** A nontransactional message (or one without a sequence) for a queue of this computer. */
async function deliverOne(deps: InboundDeps, ref: QueueRef, m: TransitMessage): Promise<DeliveryOutcome> {
  const { core } = deps;
  const draft = draftFromTransit(m, core.clock.now());
  const place = (): Promise<DeliveryOutcome> =>
    deps.execute(draft.delivery === Delivery.RECOVERABLE, (): DeliveryOutcome => {
      const queue = destinationQueue(core, ref);
      if (!queue) {
        failDelivery(core, draft, MessageClass.NACK_BAD_DST_Q); // R-A5, R-D1: on the computer that failed
        return stored;
      }
      if (m.reachQueueWithinMs !== null && m.reachQueueWithinMs <= 0) {
        failDelivery(core, draft, MessageClass.NACK_REACH_QUEUE_TIMEOUT); // R-X6: it ran out on the way
        return stored;
      }
      const result = arrive(core, draft, queue, 'network');
      // R-Q4: a full computer stores nothing and sends no NACK; the sender keeps trying.
      if (!result.placed && result.failureClass === null) return { outcome: 'retry', reason: result.reason };
      return stored;
    });
  if (m.transactional) return place(); // R-U1: transactional messages have their sequences instead
  // R-U1/R-U2: a copy sent again after a lost confirmation is dropped by (source computer, message ID); the ID
  // is remembered once the message is stored, so one refused now is taken when it comes again.
  let outcome: DeliveryOutcome = { outcome: 'duplicate' };
  const key = `${m.sourceMachineId}|${m.msgId}`.toLowerCase();
  await deps.arrivals.run(key, async () => {
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
 * are duplicates, a gap is sent again later, the next ones are placed with the stream's counter in the same
 * unit of work. A failure here is reported to the source, which keeps the dead letter (R-D2).
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
      if (blocked || number > last + 1) {
        outcomes.push({ outcome: 'retry', reason: `out of sequence: ${number} came before ${last + 1}` });
        continue;
      }
      const draft = draftFromTransit(m, now);
      if (!queue) failDelivery(core, draft, MessageClass.NACK_BAD_DST_Q);
      else if (m.reachQueueWithinMs !== null && m.reachQueueWithinMs <= 0)
        failDelivery(core, draft, MessageClass.NACK_REACH_QUEUE_TIMEOUT);
      else {
        const result = arrive(core, draft, queue, 'network');
        if (!result.placed && result.failureClass === null) {
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

/** A message for another computer: a routing server stores it in its own outgoing queue, one hop further. */
function relay(deps: InboundDeps, ref: QueueRef, unit: TransitMessage[], routing: boolean): Promise<DeliveryOutcome[]> {
  const { core } = deps;
  // Only a routing server passes messages on; the sender fails them (R-D1 on its side).
  if (!routing)
    return Promise.resolve(unit.map(() => ({ outcome: 'refused', classCode: MessageClass.NACK_BAD_DST_Q })));
  const durable = unit.some((m) => m.recoverable || m.transactional);
  return deps.execute(durable, () => {
    const now = core.clock.now();
    return unit.map((m): DeliveryOutcome => {
      const draft = draftFromTransit(m, now);
      const made = m.hops + 1;
      // R-H1: the next hop would be one more than MSMQ's fixed limit of 15.
      if (made + 1 > Limits.MAX_HOPS) {
        failDelivery(core, draft, MessageClass.NACK_HOP_COUNT_EXCEEDED);
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
      const result = arrive(core, draft, queue, 'network');
      if (!result.placed) return { outcome: 'retry', reason: result.reason };
      const sequence = m.sequence;
      putTransit(core, result.message.table, {
        lookupId: result.message.lookupId,
        hops: made,
        stream: sequence?.stream ?? null,
        seq: sequence?.number ?? null,
        group: sequence?.group ?? null,
      });
      return stored;
    });
  });
}
