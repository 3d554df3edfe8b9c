/** Puts a message row into a queue: the one primitive every arrival, copy and acknowledgment goes through. */
import { Delivery, MessageStatus, QkError } from '@qk/model';
import type { MessageRecord, QueueRecord, StoredMessage } from '@qk/store';
import type { Core } from './core.js';
import type { Draft } from './drafts.js';

export interface PlaceOptions {
  status?: number;
  /** Defaults to now (arrival time in this queue). */
  arrivedMs?: number;
  expiresMs?: number | null;
  classCode?: number;
}

/** Inserts the message with a new lookup ID (R-L1); counters change now, events wait for the commit. */
export function place(core: Core, draft: Draft, queue: QueueRecord, options: PlaceOptions = {}): StoredMessage {
  const status = options.status ?? MessageStatus.READY;
  const table = draft.delivery === Delivery.RECOVERABLE ? 'main' : 'mem';
  const stored: StoredMessage = {
    ...draft,
    table,
    classCode: options.classCode ?? draft.classCode,
    lookupId: core.sequences.nextLookupId(),
    queueId: queue.id,
    status,
    arrivedMs: options.arrivedMs ?? core.clock.now(),
    expiresMs: options.expiresMs ?? null,
  };
  core.store.messages.insert(table, stored);
  const retained = status === MessageStatus.READY ? 0 : 1;
  core.registry.count(queue.id, 1, stored.size, retained);
  core.effects.onRollback(() => core.registry.count(queue.id, -1, -stored.size, -retained));
  core.effects.afterCommit(() => {
    core.touched(queue.id);
    core.emit({ type: 'messageArrived', path: core.registry.pathOf(queue), lookupId: stored.lookupId, id: stored.msgId, classCode: stored.classCode });
    if (status === MessageStatus.READY) core.wake(queue.id);
  });
  return stored;
}

/** Removes a message row; `retain` keeps it with status 0 instead (retention, seed 002). */
export function unplace(core: Core, message: StoredMessage, retainAs: number | null = null): void {
  const queue = core.registry.get(message.queueId);
  if (retainAs !== null) {
    core.store.messages.setStatus(message.table, message.lookupId, retainAs);
    const wasRetained = message.status === MessageStatus.READY ? 0 : 1;
    const delta = 1 - wasRetained;
    core.registry.count(message.queueId, 0, 0, delta);
    core.effects.onRollback(() => core.registry.count(message.queueId, 0, 0, -delta));
  } else {
    if (!core.store.messages.remove(message.table, message.lookupId)) {
      throw new QkError('QUEUE_DELETED', `The message ${message.msgId} was removed (its queue was deleted) while it was being received.`);
    }
    const retained = message.status === MessageStatus.READY ? 0 : 1;
    core.registry.count(message.queueId, -1, -message.size, -retained);
    core.effects.onRollback(() => core.registry.count(message.queueId, 1, message.size, retained));
  }
  if (queue) core.effects.afterCommit(() => core.touched(queue.id));
}

/** The draft part of a stored message, for copies (journal, dead letter) and acknowledgments. */
export function draftOf(message: MessageRecord): Draft {
  const { lookupId: _l, queueId: _q, status: _s, arrivedMs: _a, expiresMs: _e, ...draft } = message;
  return draft;
}
