/**
 * Quota checks (seed 000; R-Q2, R-Q4, R-T4, R-J5, R-D6, R-Q5). Sizes are what a message takes stored: the
 * fixed header, the body and its strings (drafts.ts storedSize).
 */
import type { QueueRecord } from '@qk/store';
import type { Core } from './core.js';

const KB = 1024;

/** Room under MachineQuota: every queue, journal and dead-letter queue counts (seed 000). */
export function machineHasRoom(core: Core, size: number): boolean {
  return core.registry.totalBytes() + size <= core.settings.get('MachineQuota') * KB;
}

/** Room under MachineJournalQuota: the computer journal and the dead-letter queues together. */
export function systemJournalHasRoom(core: Core, size: number): boolean {
  return core.registry.systemJournalBytes() + size <= core.settings.get('MachineJournalQuota') * KB;
}

/**
 * Room in a queue under its own limit: the queue quota, which its subqueues share (R-Q5), or for a journal its
 * parent's journal quota.
 */
export function queueHasRoom(core: Core, queue: QueueRecord, size: number): boolean {
  if (queue.kind === 'journal' && queue.parentId !== null) {
    const limitKB = core.registry.get(queue.parentId)?.journalQuotaKB ?? null;
    return limitKB === null || core.registry.usageOf(queue.id).bytes + size <= limitKB * KB;
  }
  const owner = core.registry.ownerOf(queue);
  if (owner.quotaKB === null) return true;
  return core.registry.familyUsageOf(owner.id).bytes + size <= owner.quotaKB * KB;
}

/** Room for a copy the queue manager makes itself (journal, dead letter, acknowledgment): dropped silently when full. */
export function copyHasRoom(core: Core, queue: QueueRecord, size: number): boolean {
  if (!machineHasRoom(core, size) || !queueHasRoom(core, queue, size)) return false;
  if (queue.kind === 'system') return systemJournalHasRoom(core, size);
  return true;
}
