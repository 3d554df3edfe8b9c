/**
 * The second half of a logical purge (store buckets.ts): a purge makes a queue's messages gone for every read
 * at once; their rows are deleted here afterwards, in chunks of a few thousand per unit of work, each with
 * the NACKs and dead letters its messages owe (R-P3, R-P6, R-D2, R-D3) in the same commit. A chunk is short
 * (milliseconds), so sends and receives go on between chunks; after a restart the work resumes where the
 * store says it stopped.
 */
import { MessageStatus } from '@qk/model';
import type { DeadBucket, QueueRecord } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { owe } from './removal.js';
import type { UnitOptions } from './unit-runner.js';

/** Rows of a purged bucket deleted per unit of work in the background. */
export const RECLAIM_CHUNK = 2_000;
/**
 * Rows a purge deletes in its own unit of work, before it answers: a queue this small is purged exactly as
 * before (its NACKs committed with the purge); a larger one answers at once and the rest goes in the background.
 */
export const PURGE_SYNC_ROWS = 10_000;

/** Deleting is how room is made on a full disk (unit-runner.ts). */
const FREES_SPACE: UnitOptions = { freesSpace: true };

/**
 * Inside a unit of work: purges `queue` logically — its current bucket becomes dead, messages held by a
 * receive in progress move to the fresh one and stay until their receive ends (R-P2). Returns how many
 * messages were purged, and the dead bucket (null when there was nothing to purge).
 */
export function cutQueue(
  ctx: EngineContext,
  queue: QueueRecord,
  reason: DeadBucket['reason'],
): { purged: number; dead: DeadBucket | null } {
  const { core, claims } = ctx;
  claims.markRemoval(queue.id, reason);
  const held = claims.idsIn(queue.id).flatMap((id) => core.store.messages.get(id) ?? []);
  const usage = core.registry.usageOf(queue.id);
  const purged = usage.count - held.length;
  if (purged <= 0) return { purged: 0, dead: null };
  const cut = core.store.buckets.cut(queue.id, queue.kind, reason);
  core.effects.onRollback(cut.undo);
  for (const table of ['main', 'mem'] as const)
    core.store.messages.rebucket(
      table,
      held.filter((m) => m.table === table).map((m) => m.lookupId),
      queue.id,
    );
  const bytes = usage.bytes - held.reduce((sum, m) => sum + m.size, 0);
  const retained = usage.retained - held.filter((m) => m.status !== MessageStatus.READY).length;
  core.registry.count(queue.id, -purged, -bytes, -retained);
  core.traffic(queue.id, 0, purged, -purged);
  core.effects.onRollback(() => {
    core.registry.count(queue.id, purged, bytes, retained);
    core.traffic(queue.id, 0, -purged, purged);
  });
  core.effects.afterCommit(() => core.touched(queue.id));
  return { purged, dead: cut.dead };
}

/**
 * Inside a unit of work: deletes up to `limit` rows of a dead bucket with what each owes; forgets the bucket
 * once none is left. Returns how many rows went.
 */
export function reclaimChunk(ctx: EngineContext, dead: DeadBucket, limit: number): number {
  const { core } = ctx;
  let left = limit;
  for (const table of ['main', 'mem'] as const) {
    while (left > 0) {
      const chunk = core.store.messages.deadChunk(table, dead, left, core.xactDeadLetterAlways, core.clock.now());
      const n = chunk.lookupIds.length;
      if (n === 0) break;
      core.store.messages.removeMany(table, chunk.lookupIds);
      for (const row of chunk.owing) owe(core, row, dead.kind, dead.reason);
      left -= n;
    }
  }
  if (left > 0) core.effects.onRollback(core.store.buckets.forgetDead(dead.bucket));
  return limit - left;
}

/** Deletes the rows of purged buckets in the background, one short unit of work at a time. */
export class Reclaimer {
  private running = false;

  constructor(
    private readonly ctx: EngineContext,
    /** True once the queue manager is closing: no further chunk starts. */
    private readonly closed: () => boolean,
  ) {}

  /** Starts the background work if there is some and it is not under way (after a purge, at start, each tick). */
  kick(): void {
    if (this.running || this.closed() || this.ctx.core.store.buckets.deadBuckets().length === 0) return;
    this.running = true;
    this.loop().catch((error: unknown) =>
      this.ctx.log().error({ err: error }, 'The deletion of purged messages stopped'),
    );
  }

  private async loop(): Promise<void> {
    const { core, runner } = this.ctx;
    try {
      while (!this.closed()) {
        const dead = core.store.buckets.deadBuckets()[0];
        if (!dead) return;
        // Rows are read inside the unit: what a chunk deletes is what is there when it commits.
        // Nobody waits for its answer: the next chunk follows the commit, not the disk (unit-runner.ts).
        await runner.runDurable(
          () => {
            if (core.store.buckets.deadBucket(dead.bucket)) reclaimChunk(this.ctx, dead, RECLAIM_CHUNK);
          },
          { ...FREES_SPACE, answerOnCommit: true },
        );
        // Let the calls that came meanwhile run before the next chunk.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      // The rows stay purged (their bucket is dead) and are tried again on the next tick.
      if (!this.closed()) this.ctx.log().error({ err: error }, 'Deleting purged messages failed; retried next tick');
    } finally {
      this.running = false;
    }
  }
}
