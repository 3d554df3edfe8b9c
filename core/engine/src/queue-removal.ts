/** Emptying and deleting queues: purge (R-P*) and queue deletion (R-Q1), subqueues and journal with their queue. */
import { QkError } from '@qk/model';
import type { EngineContext } from './engine-context.js';
import { removeMessage } from './removal.js';
import { cutQueue, PURGE_SYNC_ROWS, reclaimChunk } from './reclaimer.js';
import type { UnitOptions } from './unit-runner.js';

/** Deletions may use the store's space reserve on a full disk (unit-runner.ts): deleting is how room is made. */
const FREES_SPACE: UnitOptions = { freesSpace: true };

/**
 * Purges a queue; messages held by an open receive go when that receive ends (R-P2). Returns how many went.
 * The purge is logical (reclaimer.ts): one commit makes every message gone for every read; a small queue's rows
 * are deleted with it, with their NACKs and dead letters, a large queue's first rows too and the rest in the
 * background.
 */
export async function purgeQueue(ctx: EngineContext, path: string): Promise<number> {
  const { core } = ctx;
  const queue = ctx.resolveExisting(path);
  const purged = await ctx.runner.runDurable(() => {
    const cut = cutQueue(ctx, queue, 'purged');
    if (cut.dead) reclaimChunk(ctx, cut.dead, PURGE_SYNC_ROWS);
    return cut.purged;
  }, FREES_SPACE);
  ctx.reclaimPurged();
  core.emit({ type: 'queuePurged', path: core.registry.pathOf(queue), purged });
  return purged;
}

/**
 * Deletes an application queue with its journal and subqueues. R-Q1: every message leaves with reason
 * "queue deleted", those held by a receive included; receivers waiting on them fail with QUEUE_DELETED.
 */
export async function deleteQueue(ctx: EngineContext, path: string): Promise<void> {
  const { core } = ctx;
  const { registry } = core;
  const queue = ctx.resolveExisting(path);
  if (queue.kind === 'subqueue')
    throw new QkError(
      'UNSUPPORTED_FORMATNAME_OPERATION',
      `'${registry.pathOf(queue)}' is a subqueue: it goes by itself once it is empty and unused (R-S1, R-S6); purge it, or delete its queue.`,
    );
  if (queue.kind !== 'private' && queue.kind !== 'public')
    throw new QkError('ACCESS_DENIED', `'${registry.pathOf(queue)}' cannot be deleted: only application queues can.`);
  const shownPath = registry.pathOf(queue);
  const journal = registry.journalOf(queue.id);
  const subqueues = registry.subqueuesOf(queue.id);
  const subqueuePaths = subqueues.map((q) => registry.pathOf(q));
  const family = [queue, ...subqueues];
  for (const q of family)
    ctx.waiters.fail(q.id, new QkError('QUEUE_DELETED', `The queue '${registry.pathOf(q)}' was deleted.`));
  const gone = [...subqueues, ...(journal ? [journal] : []), queue];
  // One commit, whatever the queues hold: their messages go as a purge's do (reclaimer.ts), with the NACKs of
  // queue deletion (R-Q1), the first rows at once and the rest in the background; then the queues.
  await ctx.runner.runDurable(() => {
    for (const q of gone) {
      ctx.claims.markRemoval(q.id, 'queueDeleted');
      // R-Q1: messages held by a receive go now too; that receive then fails with QUEUE_DELETED (unplace).
      for (const held of ctx.claims.idsIn(q.id).flatMap((id) => core.store.messages.get(id) ?? []))
        removeMessage(core, held, 'queueDeleted');
      const cut = cutQueue(ctx, q, 'queueDeleted');
      if (cut.dead) reclaimChunk(ctx, cut.dead, PURGE_SYNC_ROWS);
    }
    for (const q of gone) core.store.queues.remove(q.id);
  }, FREES_SPACE);
  ctx.reclaimPurged();
  for (const q of gone) ctx.forget(q);
  for (const p of subqueuePaths) core.emit({ type: 'queueDeleted', path: p });
  core.emit({ type: 'queueDeleted', path: shownPath });
}
