/** From names to queues: what a path or format name denotes on this computer, and where a send to it goes. */
import { parseQueueName, QkError, type QueueRef } from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { Core } from './core.js';
import type { SendTarget } from './engine-context.js';

const isApplicationQueue = (q: QueueRecord): boolean => q.kind === 'private' || q.kind === 'public';

/**
 * A queue of this computer, or the outgoing queue of a remote destination, by path or format name. A
 * subqueue of an existing queue is opened — created if it is not there yet (R-S1) — by `openSubqueue`.
 */
export function resolveExisting(
  core: Core,
  path: string,
  openSubqueue: (parent: QueueRecord, name: string) => QueueRecord,
): QueueRecord {
  const ref = parseQueueName(path);
  const { registry } = core;
  if (registry.isLocal(ref.computer)) {
    if (ref.subqueue === undefined) return registry.resolveLocal(ref, path);
    const parent = registry.resolveLocal({ ...ref, subqueue: undefined }, path);
    if (!isApplicationQueue(parent))
      throw new QkError('ILLEGAL_QUEUE_PATHNAME', `'${path}': only application queues have subqueues (R-S5).`);
    return registry.findLocal(ref) ?? openSubqueue(parent, ref.subqueue);
  }
  const remote = registry.remoteTarget(ref, path);
  const outgoing = registry.byKey('outgoing', remote.key);
  if (!outgoing) {
    throw new QkError(
      'QUEUE_NOT_FOUND',
      `'${path}' is on another computer; only its outgoing queue here can be read, and there is none.`,
    );
  }
  return outgoing;
}

/** Where a send goes. System queues and journals never accept sends (§3.1), nor do subqueues (R-S2). */
export function resolveSendTarget(core: Core, path: string): SendTarget {
  const { registry } = core;
  const known = registry.knownRemote(path);
  if (known) return known;
  const ref: QueueRef = parseQueueName(path);
  if (ref.subqueue !== undefined) {
    throw new QkError(
      'ACCESS_DENIED',
      `Applications cannot send to the subqueue '${path}' (R-S2); messages enter it only by a move from its queue.`,
    );
  }
  if (!registry.isLocal(ref.computer)) return registry.rememberRemote(path, ref);
  const queue = registry.resolveLocal(ref, path);
  if (!isApplicationQueue(queue)) {
    throw new QkError(
      'ACCESS_DENIED',
      `Applications cannot send to '${registry.pathOf(queue)}': it is a system queue or a journal.`,
    );
  }
  return queue;
}

/** The queue a resolved send target is now; the outgoing queue of a remote one is created on first use. */
export function currentTarget(core: Core, target: SendTarget): QueueRecord {
  if ('kind' in target && target.kind === 'remote') return core.outgoingQueue(target.formatName, target.key);
  const queue = core.registry.get(target.id);
  if (!queue) throw new QkError('QUEUE_NOT_FOUND', `The queue '${core.registry.pathOf(target)}' was deleted.`);
  return queue;
}

/** The message with a lookup ID in a queue, or MESSAGE_NOT_FOUND (R-L2). */
export function messageIn(core: Core, queue: QueueRecord, lookupId: number): StoredMessage {
  const message = core.store.messages.get(lookupId);
  if (!message || message.queueId !== queue.id) {
    throw new QkError(
      'MESSAGE_NOT_FOUND',
      `There is no message with lookup ID ${lookupId} in '${core.registry.pathOf(queue)}'.`,
    );
  }
  return message;
}
