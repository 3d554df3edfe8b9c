/**
 * The queues of this computer in memory: records, names, and live usage counters (count, bytes, retained)
 * so that listing queues and checking quotas never scan messages.
 */
import {
  journalPath,
  machineFormatName,
  privateFormatName,
  publicFormatName,
  QkError,
  queuePath,
  subqueuePath,
  systemQueuePath,
  type QueueInfo,
  type QueueRef,
  type SystemQueueKind,
} from '@qk/model';
import type { QueueRecord, QueueUsage } from '@qk/store';

export interface Usage {
  count: number;
  bytes: number;
  retained: number;
}

const emptyUsage = (): Usage => ({ count: 0, bytes: 0, retained: 0 });

/** A remote destination: messages for it wait in an outgoing queue (DESIGN "Many computers"). */
export interface RemoteTarget {
  kind: 'remote';
  /** The direct format name of the destination, which names its outgoing queue. */
  formatName: string;
  key: string;
}

/** Remote send paths kept (rememberRemote): more than any application names at once; beyond, start again. */
const REMOTE_PATHS_KEPT = 1_024;

export class QueueRegistry {
  private readonly byId = new Map<number, QueueRecord>();
  /** Queues by kind, then name key: looked up per message sent, without building a combined key each time. */
  private readonly byName = new Map<QueueRecord['kind'], Map<string, QueueRecord>>();
  private readonly journals = new Map<number, QueueRecord>();
  private readonly subqueues = new Map<number, Map<number, QueueRecord>>();
  private readonly usage = new Map<number, Usage>();
  /** Messages in every queue, kept as counts change: the traffic meter reads it on every change. */
  private messageTotal = 0;
  /** Kept as counters change, so quotas checked per message (MachineQuota) cost nothing per queue. */
  private byteTotal = 0;
  /** System queues by kind: asked for on every dead letter and journal copy. */
  private readonly systemQueues = new Map<string, QueueRecord>();
  /**
   * Remote send targets by the path they were named with: a batch of sends to another computer names the same
   * path hundreds of times, and parsing it and building its format name was a tenth of each send. Targets are
   * plain values that depend only on the path and this computer's name, so a kept one is never wrong.
   */
  private readonly remoteByPath = new Map<string, RemoteTarget>();

  constructor(
    private readonly computerId: string,
    private readonly computerName: string,
  ) {}

  load(queues: QueueRecord[], usage: QueueUsage[]): void {
    for (const q of queues) this.add(q);
    for (const u of usage) {
      this.byteTotal -= this.usage.get(u.queueId)?.bytes ?? 0;
      this.usage.set(u.queueId, { count: u.count, bytes: u.bytes, retained: u.retained });
      this.messageTotal += u.count;
      this.byteTotal += u.bytes;
    }
  }

  add(queue: QueueRecord): void {
    this.byId.set(queue.id, queue);
    if (queue.kind === 'journal' && queue.parentId !== null) this.journals.set(queue.parentId, queue);
    else {
      const named = this.byName.get(queue.kind) ?? new Map<string, QueueRecord>();
      named.set(queue.nameKey, queue);
      this.byName.set(queue.kind, named);
    }
    if (queue.kind === 'system') this.systemQueues.set(queue.nameKey, queue);
    if (queue.kind === 'subqueue' && queue.parentId !== null) {
      const family = this.subqueues.get(queue.parentId) ?? new Map<number, QueueRecord>();
      family.set(queue.id, queue);
      this.subqueues.set(queue.parentId, family);
    }
    if (!this.usage.has(queue.id)) this.usage.set(queue.id, emptyUsage());
  }

  remove(queue: QueueRecord): void {
    this.byId.delete(queue.id);
    this.messageTotal -= this.usage.get(queue.id)?.count ?? 0;
    this.byteTotal -= this.usage.get(queue.id)?.bytes ?? 0;
    this.usage.delete(queue.id);
    if (queue.kind === 'system' && this.systemQueues.get(queue.nameKey) === queue)
      this.systemQueues.delete(queue.nameKey);
    if (queue.kind === 'journal' && queue.parentId !== null) this.journals.delete(queue.parentId);
    else this.byName.get(queue.kind)?.delete(queue.nameKey);
    if (queue.kind === 'subqueue' && queue.parentId !== null) {
      const family = this.subqueues.get(queue.parentId);
      family?.delete(queue.id);
      if (family?.size === 0) this.subqueues.delete(queue.parentId);
    }
  }

  /** The subqueues of an application queue (R-S*). */
  subqueuesOf(parentId: number): QueueRecord[] {
    return [...(this.subqueues.get(parentId)?.values() ?? [])];
  }

  /** Every subqueue of the computer. */
  allSubqueues(): QueueRecord[] {
    return [...this.subqueues.values()].flatMap((family) => [...family.values()]);
  }

  /** The key a subqueue is found by: its queue and its case-insensitive name. */
  subqueueKey(parentId: number, name: string): string {
    return `${parentId};${name.toLowerCase()}`;
  }

  /** The application queue a subqueue belongs to, or the queue itself: its quota, type and journal (R-S4, R-T5). */
  ownerOf(queue: QueueRecord): QueueRecord {
    if (queue.kind !== 'subqueue' || queue.parentId === null) return queue;
    return this.byId.get(queue.parentId) ?? queue;
  }

  /** Messages and bytes of a queue and all its subqueues: what counts against its quota (R-Q5). */
  familyUsageOf(queueId: number): Usage {
    const total = { ...this.usageOf(queueId) };
    for (const sub of this.subqueues.get(queueId)?.values() ?? []) {
      const u = this.usageOf(sub.id);
      total.count += u.count;
      total.bytes += u.bytes;
      total.retained += u.retained;
    }
    return total;
  }

  all(): QueueRecord[] {
    return [...this.byId.values()];
  }

  get(id: number): QueueRecord | undefined {
    return this.byId.get(id);
  }

  byKey(kind: QueueRecord['kind'], nameKey: string): QueueRecord | undefined {
    return this.byName.get(kind)?.get(nameKey);
  }

  journalOf(queueId: number): QueueRecord | undefined {
    return this.journals.get(queueId);
  }

  system(kind: SystemQueueKind): QueueRecord {
    const queue = this.systemQueues.get(kind.toLowerCase());
    if (!queue) throw new Error(`system queue ${kind} missing`);
    return queue;
  }

  usageOf(queueId: number): Usage {
    return this.usage.get(queueId) ?? emptyUsage();
  }

  /** Adjusts a queue's counters; `retainedDelta` tracks status-0/3 rows, which browse and receive treat apart. */
  count(queueId: number, countDelta: number, bytesDelta: number, retainedDelta = 0): void {
    const u = this.usage.get(queueId);
    if (!u) return;
    u.count += countDelta;
    this.messageTotal += countDelta;
    u.bytes += bytesDelta;
    this.byteTotal += bytesDelta;
    u.retained += retainedDelta;
  }

  /** True when a computer reference means this computer. */
  isLocal(ref: QueueRef['computer']): boolean {
    if (ref.by === 'local') return true;
    if (ref.by === 'guid') return ref.guid === this.computerId;
    const name = ref.name.toLowerCase();
    return (
      name === '.' ||
      name === this.computerName.toLowerCase() ||
      name === 'localhost' ||
      name === '127.0.0.1' ||
      name === '::1'
    );
  }

  /** Finds the local queue a parsed name denotes, or throws QUEUE_NOT_FOUND. */
  resolveLocal(ref: QueueRef, text: string): QueueRecord {
    const found = this.findLocal(ref);
    if (!found) throw new QkError('QUEUE_NOT_FOUND', `The queue '${text}' does not exist on ${this.computerName}.`);
    return found;
  }

  findLocal(ref: QueueRef): QueueRecord | undefined {
    const t = ref.target;
    let base: QueueRecord | undefined;
    switch (t.kind) {
      case 'private':
      case 'public':
        base = this.byKey(t.kind, t.name.toLowerCase());
        break;
      case 'privateNumber':
        base = this.all().find((q) => q.kind === 'private' && q.number === t.number);
        break;
      case 'publicGuid':
        base = this.all().find((q) => q.kind === 'public' && q.guid === t.guid);
        break;
      case 'system':
        return this.system(t.queue);
    }
    if (!base) return undefined;
    if (ref.subqueue !== undefined) return this.byKey('subqueue', this.subqueueKey(base.id, ref.subqueue));
    return ref.journal ? this.journalOf(base.id) : base;
  }

  /** The outgoing-queue identity of a remote destination. */
  /** The remote target a send path named before, if it did (see remoteByPath). */
  knownRemote(path: string): RemoteTarget | undefined {
    return this.remoteByPath.get(path);
  }

  /** remoteTarget(), kept for the path it was named with. */
  rememberRemote(path: string, ref: QueueRef): RemoteTarget {
    const target = this.remoteTarget(ref, path);
    if (this.remoteByPath.size >= REMOTE_PATHS_KEPT) this.remoteByPath.clear();
    this.remoteByPath.set(path, target);
    return target;
  }

  remoteTarget(ref: QueueRef, text: string): RemoteTarget {
    const t = ref.target;
    const host = ref.computer.by === 'name' ? ref.computer.name : ref.computer.by === 'guid' ? ref.computer.guid : '.';
    let queuePart: string;
    switch (t.kind) {
      case 'private':
        queuePart = `private$\\${t.name}`;
        break;
      case 'public':
        queuePart = t.name;
        break;
      case 'system':
        queuePart = `SYSTEM$;${t.queue}`;
        break;
      default:
        throw new QkError(
          'UNSUPPORTED_FORMATNAME_OPERATION',
          `'${text}' cannot be reached from this computer without a directory service; use DIRECT=OS:.`,
        );
    }
    const suffix = ref.subqueue !== undefined ? `;${ref.subqueue}` : ref.journal ? ';JOURNAL' : '';
    const formatName = `DIRECT=OS:${host}\\${queuePart}${suffix}`;
    return { kind: 'remote', formatName, key: formatName.toLowerCase() };
  }

  /** The path a queue is shown and addressed by: `.\private$\orders`, `.\DEADLETTER$`, `…\JOURNAL$`. */
  pathOf(queue: QueueRecord): string {
    switch (queue.kind) {
      case 'private':
      case 'public':
        return queuePath(queue.kind, queue.name);
      case 'system':
        return systemQueuePath(queue.name as SystemQueueKind);
      case 'journal': {
        const parent = queue.parentId === null ? undefined : this.byId.get(queue.parentId);
        return parent ? journalPath(this.pathOf(parent)) : '.\\JOURNAL$';
      }
      case 'outgoing':
        return queue.name;
      case 'subqueue': {
        const parent = queue.parentId === null ? undefined : this.byId.get(queue.parentId);
        return subqueuePath(parent ? this.pathOf(parent) : '.', queue.name);
      }
    }
  }

  formatNameOf(queue: QueueRecord): string {
    switch (queue.kind) {
      case 'private':
        return privateFormatName(this.computerId, queue.number ?? 0);
      case 'public':
        return publicFormatName(queue.guid ?? '');
      case 'system':
        return machineFormatName(this.computerId, queue.name as SystemQueueKind);
      case 'journal': {
        const parent = queue.parentId === null ? undefined : this.byId.get(queue.parentId);
        return parent ? `${this.formatNameOf(parent)};JOURNAL` : machineFormatName(this.computerId, 'JOURNAL');
      }
      case 'outgoing':
        return queue.name;
      case 'subqueue': {
        // A subqueue is addressed only by a direct format name (reference §3.3).
        const parent = queue.parentId === null ? undefined : this.byId.get(queue.parentId);
        const queuePart = parent?.kind === 'private' ? `private$\\${parent.name}` : (parent?.name ?? '');
        return `DIRECT=OS:${this.computerName}\\${queuePart};${queue.name}`;
      }
    }
  }

  /** The JSON shape of CLI.md. A journal shows its own messages as `messageCount`. */
  info(queue: QueueRecord): QueueInfo {
    const usage = this.usageOf(queue.id);
    const journal = queue.kind === 'private' || queue.kind === 'public' ? this.journalOf(queue.id) : undefined;
    const journalUsage = journal ? this.usageOf(journal.id) : emptyUsage();
    // A journal shows its queue's label and journal quota; a subqueue its queue's properties (R-S4).
    const parent =
      (queue.kind === 'journal' || queue.kind === 'subqueue') && queue.parentId !== null
        ? this.byId.get(queue.parentId)
        : undefined;
    const inherited = queue.kind === 'subqueue' ? parent : undefined;
    return {
      path: this.pathOf(queue),
      formatName: this.formatNameOf(queue),
      type: queue.kind,
      transactional: parent ? parent.transactional : queue.transactional,
      journal: inherited ? inherited.journal : queue.journal,
      label: parent ? parent.label : queue.label,
      quotaKB: inherited ? inherited.quotaKB : parent ? parent.journalQuotaKB : queue.quotaKB,
      journalQuotaKB: inherited ? inherited.journalQuotaKB : queue.journalQuotaKB,
      retention: inherited ? inherited.retention : queue.retention,
      messageCount: usage.count,
      bytes: usage.bytes,
      journalMessageCount: journalUsage.count,
      journalBytes: journalUsage.bytes,
      createdTime: new Date(queue.createdMs).toISOString(),
      modifiedTime: new Date(queue.modifiedMs).toISOString(),
      ...(inherited ? { parent: this.pathOf(inherited) } : {}),
    };
  }

  /** Bytes in every queue of the computer (MachineQuota counts journals and dead-letter queues too, seed 000). */
  totalBytes(): number {
    return this.byteTotal;
  }

  totalMessages(): number {
    return this.messageTotal;
  }

  /** Bytes under MachineJournalQuota: the computer journal and both dead-letter queues. */
  systemJournalBytes(): number {
    return (['JOURNAL', 'DEADLETTER', 'DEADXACT'] as const).reduce(
      (sum, k) => sum + this.usageOf(this.system(k).id).bytes,
      0,
    );
  }

  /** Bytes in queue journals and the computer journal. */
  journalBytes(): number {
    let total = this.usageOf(this.system('JOURNAL').id).bytes;
    for (const j of this.journals.values()) total += this.usageOf(j.id).bytes;
    return total;
  }
}
