/**
 * Expiry in sets (issue 11): the due messages of destination queues that owe nothing of their own — no
 * acknowledgment, no transaction (R-X8), at most a copy in this computer's DEADLETTER$ (R-X7, R-D1) — leave
 * with one INSERT … SELECT of their dead letters and one DELETE, with the same counters, events and wake-ups
 * as one by one. The rest (a NACK, a transactional dead letter, R-D9, an outgoing queue, a full dead-letter
 * queue) is left to the per-message path of expiry.ts in the same unit of work.
 */
import { Acknowledgment, MessageClass } from '@qk/model';
import type { MessageTable, PlainExpired } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { copyHasRoom } from './quotas.js';

/** Removes up to `limit` plain due messages per table; `full` when a table had at least that many. */
export function expireInBulk(ctx: EngineContext, nowMs: number, limit: number): { removed: number; full: boolean } {
  const { core, claims } = ctx;
  let removed = 0;
  let full = false;
  for (const table of ['main', 'mem'] as const) {
    const due = core.store.bulkExpiry.plainDue(table, nowMs, Acknowledgment.NEG_RECEIVE, limit);
    if (due.length >= limit) full = true;
    const taken = due.filter((m) => {
      if (claims.has(m.lookupId)) return false; // its receive decides (R-X8 for a held message)
      const kind = core.registry.get(m.queueId)?.kind;
      return kind === 'private' || kind === 'public' || kind === 'subqueue';
    });
    if (taken.length === 0) continue;
    const letters = taken.filter((m) => m.deadLetter);
    const dlq = core.registry.system('DEADLETTER');
    // R-D6: when the copies do not all fit, the dead-letter queue fills up one message at a time — the
    // per-message path does that; the set takes only the messages that owe no copy.
    const copied = letters.length === 0 || copyHasRoom(core, dlq, sumOf(letters)) ? letters : [];
    const gone = copied === letters ? taken : taken.filter((m) => !m.deadLetter);
    // Arrived in the dead-letter queue now, as place() stamps it (not when the pass found them due).
    if (copied.length > 0) moveAsDeadLetters(ctx, table, copied, core.clock.now());
    // The rest go without a trace but their counters and events.
    const deleted = copied.length > 0 ? gone.filter((m) => !m.deadLetter) : gone;
    core.store.messages.removeMany(
      table,
      deleted.map((m) => m.lookupId),
    );
    countRemoved(ctx, gone);
    removed += gone.length;
  }
  return { removed, full: full && removed > 0 };
}

function moveAsDeadLetters(ctx: EngineContext, table: MessageTable, letters: PlainExpired[], nowMs: number): void {
  const { core } = ctx;
  const dlq = core.registry.system('DEADLETTER');
  const classCode = MessageClass.NACK_RECEIVE_TIMEOUT; // R-X7, R-D4
  const lookupIds = letters.map((m) => core.sequences.nextLookupId(m.priority));
  core.store.bulkExpiry.moveAsDeadLetters(
    table,
    letters.map((m) => m.lookupId),
    lookupIds,
    dlq.id,
    classCode,
    nowMs,
  );
  const bytes = sumOf(letters);
  const n = letters.length;
  core.registry.count(dlq.id, n, bytes, 0);
  core.traffic(dlq.id, n, 0, n);
  core.effects.onRollback(() => {
    core.registry.count(dlq.id, -n, -bytes, 0);
    core.traffic(dlq.id, -n, 0, -n);
  });
  core.effects.afterCommit(() => {
    core.touched(dlq.id);
    const path = core.registry.pathOf(dlq);
    letters.forEach((m, i) => {
      const lookupId = lookupIds[i] as number;
      core.emit({ type: 'messageArrived', path, lookupId, id: m.msgId, classCode });
      core.wake(dlq.id, { lookupId, priority: m.priority, table });
    });
  });
}

/** Counters, traffic and events of removed messages, per queue as removeMessage keeps them one by one. */
function countRemoved(ctx: EngineContext, gone: PlainExpired[]): void {
  const { core } = ctx;
  const byQueue = new Map<number, PlainExpired[]>();
  for (const m of gone) {
    const list = byQueue.get(m.queueId);
    if (list) list.push(m);
    else byQueue.set(m.queueId, [m]);
  }
  for (const [queueId, messages] of byQueue) {
    const n = messages.length;
    const bytes = sumOf(messages);
    core.registry.count(queueId, -n, -bytes, 0);
    core.traffic(queueId, 0, n, -n);
    core.effects.onRollback(() => {
      core.registry.count(queueId, n, bytes, 0);
      core.traffic(queueId, 0, -n, n);
    });
    core.effects.afterCommit(() => {
      core.touched(queueId);
      const queue = core.registry.get(queueId);
      if (!queue) return;
      const path = core.registry.pathOf(queue);
      for (const m of messages) core.emit({ type: 'messageRemoved', path, lookupId: m.lookupId, reason: 'expired' });
    });
  }
}

const sumOf = (messages: readonly PlainExpired[]): number => messages.reduce((sum, m) => sum + m.size, 0);
