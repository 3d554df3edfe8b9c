/** Creating and changing queues (§4.1): name rules, immutable transactional type, label and quota limits. */
import { randomUUID } from 'node:crypto';
import { Limits, parseQueueName, QkError } from '@qk/model';
import type { NewQueue, QueueRecord } from '@qk/store';
import type { Core } from './core.js';
import type { QueueCreateInput, QueueSetInput } from './types.js';

const FORMAT_NAME = /^(FORMATNAME:|[A-Z]+=)/i;

/** A queue record with MSMQ's defaults (§4.1): nontransactional, no journal, no quotas, empty label. */
export function newQueueRecord(kind: QueueRecord['kind'], name: string, nameKey: string, nowMs: number): NewQueue {
  return {
    kind,
    name,
    nameKey,
    parentId: null,
    number: null,
    guid: null,
    transactional: false,
    journal: false,
    quotaKB: null,
    journalQuotaKB: null,
    label: '',
    retention: false,
    createdMs: nowMs,
    modifiedMs: nowMs,
  };
}

function checkLabel(label: string | undefined): void {
  if (label !== undefined && label.length > Limits.MAX_QUEUE_LABEL_LENGTH) {
    throw new QkError(
      'LABEL_TOO_LONG',
      `A queue label has at most ${Limits.MAX_QUEUE_LABEL_LENGTH} characters; this one has ${label.length}.`,
    );
  }
}

function checkQuota(what: string, value: number | null | undefined): void {
  if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 0 || value > Limits.INFINITE)) {
    throw new QkError(
      'ILLEGAL_PROPERTY_VALUE',
      `${what} must be a whole number of KB from 0 to ${Limits.INFINITE}, or unlimited.`,
    );
  }
}

/** Validates a create request and returns the new queue and its journal, not yet stored. */
export function planQueue(core: Core, input: QueueCreateInput): { kind: 'private' | 'public'; name: string } {
  const ref = parseQueueName(input.path);
  // A DIRECT= format name carries the path itself (CLI.md: format names are accepted wherever a path is); the
  // PRIVATE=/PUBLIC=/MACHINE= forms name a queue by the number or GUID it is given when created.
  const byName = ref.target.kind === 'private' || ref.target.kind === 'public';
  if (FORMAT_NAME.test(input.path.trim()) && !byName) {
    throw new QkError(
      'ILLEGAL_QUEUE_PATHNAME',
      `Queues are created by path name (.\\private$\\NAME or .\\NAME) or DIRECT= format name, not by number or GUID: '${input.path}'.`,
    );
  }
  if (!core.registry.isLocal(ref.computer)) {
    throw new QkError(
      'INVALID_PARAMETER',
      `Queues can be created only on this computer (${core.identity.name}); '${input.path}' names another one.`,
    );
  }
  const target = ref.target;
  if (target.kind === 'system')
    throw new QkError('QUEUE_EXISTS', `'${input.path}' is a system queue; every computer has it already.`);
  if (ref.journal)
    throw new QkError('ILLEGAL_QUEUE_PATHNAME', `'${input.path}' is a journal; journals are created with their queue.`);
  if (ref.subqueue !== undefined)
    throw new QkError(
      'ILLEGAL_QUEUE_PATHNAME',
      `'${input.path}' is a subqueue; subqueues are not created, they open when a message first moves there (R-S1).`,
    );
  if (target.kind !== 'private' && target.kind !== 'public')
    throw new QkError('ILLEGAL_QUEUE_PATHNAME', `'${input.path}' is not a queue path name.`);
  checkLabel(input.label);
  checkQuota('The queue quota', input.quotaKB);
  checkQuota('The journal quota', input.journalQuotaKB);
  if (core.registry.byKey(target.kind, target.name.toLowerCase())) {
    throw new QkError('QUEUE_EXISTS', `The queue '${input.path}' already exists.`);
  }
  return { kind: target.kind, name: target.name };
}

/** Stores a new queue and its journal. Runs inside a unit of work. */
export function storeQueue(
  core: Core,
  plan: { kind: 'private' | 'public'; name: string },
  input: QueueCreateInput,
): QueueRecord {
  const now = core.clock.now();
  let number: number | null = null;
  if (plan.kind === 'private') {
    number = Number(core.store.queues.getMeta('next_private_queue') ?? '1');
    core.store.queues.setMeta('next_private_queue', String(number + 1));
  }
  const queue = core.store.queues.insert({
    ...newQueueRecord(plan.kind, plan.name, plan.name.toLowerCase(), now),
    number,
    guid: plan.kind === 'public' ? randomUUID() : null,
    transactional: input.transactional === true,
    journal: input.journal === true,
    quotaKB: input.quotaKB ?? null,
    journalQuotaKB: input.journalQuotaKB ?? null,
    label: input.label ?? '',
    retention: input.retention === true,
  });
  const journal = core.store.queues.insert({
    ...newQueueRecord('journal', '', `journal:${queue.id}`, now),
    parentId: queue.id,
  });
  core.registry.add(queue);
  core.registry.add(journal);
  core.effects.onRollback(() => {
    core.registry.remove(journal);
    core.registry.remove(queue);
  });
  return queue;
}

/** Applies a change of queue properties; the transactional type can only be restated (PROPERTY_NOTALLOWED). */
export function changedQueue(core: Core, queue: QueueRecord, input: QueueSetInput): QueueRecord {
  if (queue.kind === 'subqueue') {
    throw new QkError(
      'UNSUPPORTED_FORMATNAME_OPERATION',
      `'${core.registry.pathOf(queue)}' is a subqueue: its properties are its queue's (R-S4, R-S6); change them there.`,
    );
  }
  if (queue.kind !== 'private' && queue.kind !== 'public') {
    throw new QkError(
      'ACCESS_DENIED',
      `The properties of '${core.registry.pathOf(queue)}' cannot be changed: it is not an application queue.`,
    );
  }
  if (input.transactional !== undefined && input.transactional !== queue.transactional) {
    throw new QkError(
      'PROPERTY_NOTALLOWED',
      'The transactional type of a queue is set when it is created and cannot be changed.',
    );
  }
  checkLabel(input.label);
  checkQuota('The queue quota', input.quotaKB);
  checkQuota('The journal quota', input.journalQuotaKB);
  return {
    ...queue,
    journal: input.journal ?? queue.journal,
    quotaKB: input.quotaKB === undefined ? queue.quotaKB : input.quotaKB,
    journalQuotaKB: input.journalQuotaKB === undefined ? queue.journalQuotaKB : input.journalQuotaKB,
    label: input.label ?? queue.label,
    retention: input.retention ?? queue.retention,
    modifiedMs: core.clock.now(),
  };
}

/** The three system queues every computer has from its first start. */
export function ensureSystemQueues(core: Core): void {
  const now = core.clock.now();
  for (const kind of ['JOURNAL', 'DEADLETTER', 'DEADXACT'] as const) {
    if (core.registry.byKey('system', kind.toLowerCase())) continue;
    const queue = core.store.queues.insert({
      ...newQueueRecord('system', kind, kind.toLowerCase(), now),
      transactional: kind === 'DEADXACT',
    });
    core.registry.add(queue);
  }
}
