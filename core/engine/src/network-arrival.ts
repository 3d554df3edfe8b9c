/**
 * Messages handed over by another computer (`messageArrive`): duplicate removal (R-U1–R-U3), then the one
 * arrival path. The message keeps its own ID, source and send time; its timers are what remained of them
 * when the other computer handed it on, counted from its arrival here (R-X2).
 */
import { Delivery, MessageClass, normalizeMessageId, parseGuid, parseQueueName, QkError } from '@qk/model';
import type { EngineContext } from './engine-context.js';
import type { DuplicateCache } from './duplicate-cache.js';
import { makeDraft, type Draft, type DraftContext } from './drafts.js';
import { arrive, type ArrivalOutcome } from './arrival.js';
import { failDelivery } from './acknowledgments.js';
import type { ArrivingMessage } from './types.js';

function arrivingDraft(message: ArrivingMessage, destination: string, ctx: DraftContext): Draft {
  const sourceId = parseGuid(message.sourceMachineId);
  if (!sourceId) throw new QkError('INVALID_PARAMETER', `sourceMachineId '${message.sourceMachineId}' is not a GUID.`);
  const sentMs = message.sentTime === undefined ? ctx.nowMs : Date.parse(message.sentTime);
  if (Number.isNaN(sentMs))
    throw new QkError('INVALID_PARAMETER', `sentTime '${message.sentTime}' is not an ISO 8601 time.`);
  // makeDraft counts the timers from now: the arrival on this computer (R-X2).
  // Fields set on the fresh draft, not spread into a copy: a spread followed by more fields cost V8 ~2 µs a
  // message (issue 11).
  const draft = makeDraft(message, destination, message.transactional === true, {
    computerName: ctx.computerName,
    computerId: ctx.computerId,
    nowMs: ctx.nowMs,
    longLiveTimeS: ctx.longLiveTimeS,
    maxMessageSize: ctx.maxMessageSize,
    nextSequence: () => 0,
  });
  draft.msgId = normalizeMessageId(message.id);
  draft.sourceMachine = message.sourceMachine;
  draft.sourceMachineId = sourceId;
  draft.sentMs = sentMs;
  draft.classCode = message.classCode ?? draft.classCode;
  return draft;
}

/** The outcome of a hand-over, as messageArrive answers it. */
export interface HandOverResult {
  accepted: boolean;
  reason: string | null;
}

/** Arrivals of nontransactional messages still deciding, by (source, ID): a second copy waits for the first. */
export class ArrivalsInFlight {
  private readonly pending = new Map<string, Promise<boolean>>();

  /** Runs `work` after every earlier arrival of the same key has decided. */
  async run(key: string, work: () => Promise<boolean>): Promise<boolean> {
    const earlier = this.pending.get(key);
    const mine = (async () => {
      if (earlier) await earlier.catch(() => false);
      return work();
    })();
    this.pending.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.pending.get(key) === mine) this.pending.delete(key);
    }
  }

  /** Whether an arrival of this key is still deciding (a second copy must wait for it: `run`). */
  deciding(key: string): boolean {
    return this.pending.has(key);
  }

  /**
   * Runs one `work` deciding every key at once (a batch from another computer). The caller made sure no key is
   * deciding already (`deciding`, checked in the same turn); copies that come meanwhile wait for the batch.
   */
  async runAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    let decide!: (stored: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    for (const key of keys) this.pending.set(key, decided);
    try {
      const result = await work();
      decide(true);
      return result;
    } catch (error) {
      decide(false);
      throw error;
    } finally {
      for (const key of keys) if (this.pending.get(key) === decided) this.pending.delete(key);
    }
  }
}

/** Hands a message from another computer to the arrival path. */
export async function receiveFromNetwork(
  ctx: EngineContext,
  duplicates: DuplicateCache,
  inFlight: ArrivalsInFlight,
  path: string,
  message: ArrivingMessage,
): Promise<HandOverResult> {
  const { core } = ctx;
  const ref = parseQueueName(path);
  if (!core.registry.isLocal(ref.computer)) return { accepted: false, reason: `'${path}' is not on this computer` };
  if (ref.subqueue !== undefined) throw new QkError('ACCESS_DENIED', 'Messages never arrive in a subqueue (R-S2).');
  const queue = core.registry.findLocal(ref);
  if (queue && queue.kind !== 'private' && queue.kind !== 'public')
    throw new QkError('ACCESS_DENIED', 'Messages arrive only in application queues.');
  const draft = arrivingDraft(message, queue ? core.registry.pathOf(queue) : path, ctx.draftContext());
  const durable = draft.delivery === Delivery.RECOVERABLE;
  if (!queue) {
    // R-A5/R-D5: an unknown destination is a failed delivery: NACK_BAD_DST_Q and a dead letter as flagged.
    await ctx.execute(durable, () => failDelivery(core, draft, MessageClass.NACK_BAD_DST_Q));
    return { accepted: false, reason: 'NACK_BAD_DST_Q' };
  }
  const place = (): Promise<ArrivalOutcome> => ctx.execute(durable, () => arrive(core, draft, queue, 'network'));
  if (message.transactional === true) {
    // R-U1: transactional messages rely on exactly-once delivery of their own, not on the cache.
    const outcome = await place();
    return outcome.placed ? { accepted: true, reason: null } : { accepted: false, reason: outcome.reason };
  }
  // R-U2: duplicates are dropped by (source computer, message ID); the ID is remembered once the message is
  // stored, so an arrival refused now (a full queue) is taken when it is retried later.
  let refusal = 'duplicate';
  const key = `${draft.sourceMachineId}|${draft.msgId}`.toLowerCase();
  const accepted = await inFlight.run(key, async () => {
    if (duplicates.isDuplicate(draft.sourceMachineId, draft.msgId)) return false;
    const outcome = await place();
    if (!outcome.placed) {
      refusal = outcome.reason;
      return false;
    }
    duplicates.remember(draft.sourceMachineId, draft.msgId, core.clock.now());
    return true;
  });
  return accepted ? { accepted: true, reason: null } : { accepted: false, reason: refusal };
}
