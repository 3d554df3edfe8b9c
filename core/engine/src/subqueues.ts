/**
 * Subqueues (MSMQ 4.0, R-S1–R-S7): `;name` parts of an application queue, opened (created) on first use,
 * removed when empty and unused, sharing their queue's properties and quota. Messages move between a queue and
 * its subqueues in place — same row, same lookup ID, one more move — as MSMQ's MoveMessage does.
 */
import { Limits, QkError } from '@qk/model';
import type { QueueRecord } from '@qk/store';
import type { Core } from './core.js';
import type { EngineContext } from './engine-context.js';
import { newQueueRecord } from './queue-admin.js';

const isApplicationQueue = (q: QueueRecord): boolean => q.kind === 'private' || q.kind === 'public';

/**
 * Creates a subqueue of `parent` (R-S1); it has no properties of its own (R-S4). Runs inside a unit of work.
 * `announce: false` leaves out queueCreated: a subqueue opened only by naming it is transient until the call
 * is over (Maintenance.subqueueOpened announces it if it stays).
 */
export function createSubqueue(core: Core, parent: QueueRecord, name: string, announce = true): QueueRecord {
  if (!isApplicationQueue(parent))
    throw new QkError('ILLEGAL_QUEUE_PATHNAME', 'Only application queues have subqueues (R-S5).');
  if (name.length > Limits.MAX_SUBQUEUE_NAME_LENGTH)
    throw new QkError(
      'ILLEGAL_QUEUE_PATHNAME',
      `A subqueue name has at most ${Limits.MAX_SUBQUEUE_NAME_LENGTH} characters.`,
    );
  const key = core.registry.subqueueKey(parent.id, name);
  const existing = core.registry.byKey('subqueue', key);
  if (existing) return existing;
  const queue = core.store.queues.insert({
    ...newQueueRecord('subqueue', name, key, core.clock.now()),
    parentId: parent.id,
    transactional: parent.transactional,
  });
  core.registry.add(queue);
  core.effects.onRollback(() => core.registry.remove(queue));
  if (announce) core.effects.afterCommit(() => core.emit({ type: 'queueCreated', path: core.registry.pathOf(queue) }));
  return queue;
}

/** The application queue at the head of a queue's family: itself, or a subqueue's queue. */
function headOf(core: Core, queue: QueueRecord): QueueRecord | undefined {
  if (isApplicationQueue(queue)) return queue;
  if (queue.kind === 'subqueue') return core.registry.ownerOf(queue);
  return undefined;
}

/** True when `a` and `b` are a queue and its subqueue, or two subqueues of one queue (R-S3). */
export function sameFamily(core: Core, a: QueueRecord, b: QueueRecord): boolean {
  const head = headOf(core, a);
  return head !== undefined && head === headOf(core, b) && a.id !== b.id;
}

/**
 * MoveMessage (R-S3): moves a ready message between a queue and its subqueues, or between sibling subqueues.
 * The message keeps its row and lookup ID; its move count goes up and its abort count starts again (R-S7);
 * quota use does not change (R-Q5).
 */
export async function moveWithinFamily(
  ctx: EngineContext,
  source: QueueRecord,
  lookupId: number,
  target: QueueRecord,
): Promise<void> {
  const { core } = ctx;
  const message = ctx.messageIn(source, lookupId);
  if (message.status !== 1)
    throw new QkError(
      'MESSAGE_NOT_FOUND',
      `Message ${lookupId} was received already (it is retained); it cannot move.`,
    );
  if (ctx.claims.has(lookupId))
    throw new QkError(
      'MESSAGE_LOCKED_UNDER_TRANSACTION',
      `Message ${lookupId} is held by a receive that has not ended.`,
    );
  const movedTo = await ctx.holding([message], () =>
    ctx.execute(message.table === 'main', () => {
      const to = core.registry.get(target.id) ?? createSubqueue(core, core.registry.ownerOf(target), target.name);
      const now = core.clock.now();
      if (!core.store.messages.moveTo(message.table, lookupId, to.id, now))
        throw new QkError('MESSAGE_NOT_FOUND', `Message ${lookupId} is gone from '${core.registry.pathOf(source)}'.`);
      core.registry.count(source.id, -1, -message.size);
      core.registry.count(to.id, 1, message.size);
      core.traffic(source.id, 0, 1, -1);
      core.traffic(to.id, 1, 0, 1);
      core.effects.onRollback(() => {
        core.registry.count(source.id, 1, message.size);
        core.registry.count(to.id, -1, -message.size);
        core.traffic(source.id, 0, -1, 1);
        core.traffic(to.id, -1, 0, -1);
      });
      const fromPath = core.registry.pathOf(source);
      const toPath = core.registry.pathOf(to);
      core.effects.afterCommit(() => {
        core.touched(source.id);
        core.touched(to.id);
        core.emit({ type: 'messageRemoved', path: fromPath, lookupId, reason: 'moved' });
        core.emit({ type: 'messageArrived', path: toPath, lookupId, id: message.msgId, classCode: message.classCode });
      });
      return to;
    }),
  );
  // Only now is the message free to take: a receive or cursor woken while the move still held it would skip it.
  core.wake(movedTo.id, message);
}

/** How long an empty, unused subqueue stays before it goes: a console looking at it is "an open handle". */
const IDLE_SUBQUEUE_MS = 10_000;

/**
 * R-S1: a subqueue goes once it is empty and nobody waits on it or holds one of its messages — after
 * IDLE_SUBQUEUE_MS of that, so one that is being looked at or about to be used does not flicker away.
 */
export class IdleSubqueues {
  private readonly emptySince = new Map<number, number>();

  /** `hasOpenHandle`: an application's cursor or stream on a subqueue is an open handle, which keeps it (R-S1). */
  constructor(private readonly hasOpenHandle: (queueId: number) => boolean) {}

  /** Runs on the timer tick. */
  sweep(ctx: EngineContext, nowMs: number): void {
    const { core } = ctx;
    const idle: QueueRecord[] = [];
    for (const q of core.registry.allSubqueues()) {
      if (!this.isUnused(ctx, q)) {
        this.emptySince.delete(q.id);
        continue;
      }
      const since = this.emptySince.get(q.id);
      if (since === undefined) this.emptySince.set(q.id, nowMs);
      else if (nowMs - since >= IDLE_SUBQUEUE_MS) idle.push(q);
    }
    for (const id of this.emptySince.keys()) if (!core.registry.get(id)) this.emptySince.delete(id);
    this.remove(ctx, idle);
  }

  /**
   * A subqueue that a call opened by naming it (not by a move) is gone again once that call is over, if it is
   * still empty and unused: the call's handle was its only one (R-S1). So a read leaves nothing behind, and a
   * refused call changes nothing.
   */
  dropIfUnused(ctx: EngineContext, queue: QueueRecord): void {
    if (ctx.core.registry.get(queue.id) !== queue) return;
    if (this.isUnused(ctx, queue)) this.remove(ctx, [queue], false);
    else ctx.core.emit({ type: 'queueCreated', path: ctx.core.registry.pathOf(queue) });
  }

  private isUnused(ctx: EngineContext, queue: QueueRecord): boolean {
    return (
      ctx.core.registry.usageOf(queue.id).count === 0 &&
      !ctx.waiters.has(queue.id) &&
      ctx.claims.countIn(queue.id) === 0 &&
      !this.hasOpenHandle(queue.id)
    );
  }

  /** `announced: false` — a transient subqueue nobody was told about goes without a queueDeleted either. */
  private remove(ctx: EngineContext, queues: QueueRecord[], announced = true): void {
    if (queues.length === 0) return;
    const { core } = ctx;
    const paths = queues.map((q) => core.registry.pathOf(q));
    ctx.runner.runNow(() => {
      for (const q of queues) core.store.queues.remove(q.id);
    });
    for (const q of queues) {
      core.registry.remove(q);
      this.emptySince.delete(q.id);
    }
    if (announced) for (const path of paths) core.emit({ type: 'queueDeleted', path });
  }
}
