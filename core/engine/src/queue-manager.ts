/**
 * The queue manager of one computer: owns the store and every rule of delivery. Hosts (the service, the
 * Electron main process) call it through QueueManagerApi.
 */
import {
  Delivery,
  messageClassName,
  MessageStatus,
  parseQueueName,
  QkError,
  type ExportedMessage,
  type LookupAction,
  silentLogger,
  type Logger,
  type MessageInfo,
  type QueueInfo,
  type SendProperties,
  type ServiceStatus,
  type SettingInfo,
  type MessageRemovalReason,
  type QkEvent,
  type ImportMode,
} from '@qk/model';
import { Store, storeOpenError, type QueueRecord, type StoredMessage } from '@qk/store';
import type { Core } from './core.js';
import { Effects } from './effects.js';
import { loadIdentity, Sequences, type ComputerIdentity } from './identity.js';
import { QueueRegistry } from './queue-registry.js';
import { Settings } from './settings.js';
import { DuplicateCache } from './duplicate-cache.js';
import { UnitRunner } from './unit-runner.js';
import { Waiters, type WaiterKind } from './waiters.js';
import { Claims } from './claims.js';
import { ReceiveCursors } from './receive-cursors.js';
import { StreamConsumer, type StreamHost } from './consumer.js';
import { addSends, TransactionTable, type PendingSend, type Transaction } from './transactions.js';
import { countFitting, prepareDelivery } from './delivery.js';
import { type makeDraft, type Draft } from './drafts.js';
import { removeMessage, removeReceived } from './removal.js';
import { ReceiveRemovals } from './receive-removals.js';
import { changedQueue, ensureSystemQueues, newQueueRecord, planQueue, storeQueue } from './queue-admin.js';
import { messageView, toMessageInfo, type MessageView } from './message-view.js';
import { browseQueue } from './browsing.js';
import { ArrivalsInFlight, receiveFromNetwork } from './network-arrival.js';
import { NetworkConfig } from './network/config.js';
import { EngineNetworkPort } from './network/port.js';
import { remoteReadDenied } from './remote-read.js';
import { TrafficMeter, type TrafficSeries } from './traffic.js';
import type { EngineContext, SendTarget } from './engine-context.js';
import { currentTarget, messageIn, resolveExisting, resolveSendTarget } from './resolve.js';
import { createSubqueue } from './subqueues.js';
import * as admin from './message-admin.js';
import { recordAborts, rejectMessage } from './poison.js';
import { resendDeadLetters, type ResendFailure } from './resend.js';
import { copyMessages, type CopyResult } from './copying.js';
import { exportPage, importMessages, sendPropertiesOf } from './transfer.js';
import { findByLookupId } from './lookup.js';
import { Maintenance } from './maintenance.js';
import { CursorOperations } from './cursors.js';
import { Expiry } from './expiry.js';
import { Reclaimer } from './reclaimer.js';
import { deleteQueue, purgeQueue } from './queue-removal.js';
import { deliverSend, prepareSend } from './sending.js';
import {
  systemClock,
  type ArrivingMessage,
  type BrowseInput,
  type BrowsePage,
  type ClassCount,
  type CursorPeekInput,
  type CursorReceiveInput,
  type Clock,
  type Cancellable,
  type Deliver,
  type WriteReply,
  type EngineListener,
  type MessageLocation,
  type PeekInput,
  type QueueCreateInput,
  type QueueManagerApi,
  type QueueManagerOptions,
  type QueueSetInput,
  type ReceiveBatchInput,
  type ConsumeInput,
  type Consumption,
  type ReceiveInput,
  type ReplyLimit,
  type SendItem,
  type SendOptions,
} from './types.js';

/** Opens the queue manager of a data folder (creating it at first start). */
export function openQueueManager(options: QueueManagerOptions): QueueManagerApi {
  return QueueManager.open(options);
}

/** Per-message events allowed per timer tick; beyond that only the coalesced queueChanged tells. */
const MESSAGE_EVENTS_PER_TICK = 256;

class QueueManager implements QueueManagerApi {
  private readonly listeners = new Set<EngineListener>();
  private readonly touchedQueues = new Set<number>();
  private readonly waiters: Waiters;
  private readonly claims = new Claims();
  private readonly receiveCursors: ReceiveCursors;
  /** Streaming receives running now (issue 11). */
  private readonly streams = new Set<StreamConsumer>();
  /** Queues that durable work of a call under way will write into (writingInto), by queue ID: how many. */
  private readonly writesPending = new Map<number, number>();
  private readonly transactions = new TransactionTable();
  private readonly runner: UnitRunner;
  /** The removals of plain receives, a set per turn: of recoverable messages, and of express ones (no disk). */
  private readonly receiveRemovals: { durable: ReceiveRemovals; express: ReceiveRemovals };
  private readonly duplicates: DuplicateCache;
  private readonly arrivalsInFlight = new ArrivalsInFlight();
  private readonly trafficMeter = new TrafficMeter();
  private readonly core: Core;
  private readonly ctx: EngineContext;
  private readonly maintenance: Maintenance;
  /** Application cursors (R-C2–R-C5); `receiveCursors` are the receive-order cursors of the store. */
  private readonly appCursors: CursorOperations;
  private readonly expiry: Expiry;
  private readonly reclaimer: Reclaimer;
  /** Peers, routes, holds and offline mode (docs/network.md). */
  readonly networkConfig: NetworkConfig;
  /** Inbound and outbound delivery between computers (docs/network.md). */
  readonly networkPort: EngineNetworkPort;
  private readonly startedMs: number;
  private readonly maxMessageSize: number;
  /** Where failures nobody waits for (background commits, expiry passes, listeners) are reported. */
  private log: Logger = silentLogger;
  private tickHandle: unknown = null;
  private messageEventsThisTick = 0;
  private closed = false;

  private constructor(
    private readonly store: Store,
    private readonly identity: ComputerIdentity,
    private readonly settings: Settings,
    private readonly registry: QueueRegistry,
    private readonly sequences: Sequences,
    private readonly clock: Clock,
    private readonly version: string,
    private readonly tickMs: number,
  ) {
    const effects = new Effects();
    this.waiters = new Waiters(clock);
    this.receiveCursors = new ReceiveCursors(store.readyOrder, this.claims);
    this.runner = new UnitRunner(store, effects, sequences);
    const removeReceivedNow = (messages: StoredMessage[]): void => removeReceived(this.core, messages);
    this.receiveRemovals = {
      durable: new ReceiveRemovals((work) => this.runner.runDurable(work, { answerOnCommit: true }), removeReceivedNow),
      express: new ReceiveRemovals((work) => this.runner.runDurable(work, { express: true }), removeReceivedNow),
    };
    this.startedMs = clock.now();
    // Restart-required settings are read once, here (reference §5 decisions).
    this.duplicates = new DuplicateCache(
      settings.get('RemoveDuplicateSize'),
      settings.get('RemoveDuplicateCleanup'),
      this.startedMs,
    );
    this.maxMessageSize = settings.get('MaxMessageSize');
    this.core = {
      store,
      registry,
      sequences,
      identity,
      clock,
      settings,
      effects,
      xactDeadLetterAlways: settings.get('XactDeadLetterAlways') === 1,
      emit: (event) => this.emit(event),
      wake: (queueId, arrived) => {
        if (arrived) this.receiveCursors.arrived(queueId, arrived);
        this.waiters.wake(queueId);
      },
      touched: (queueId) => this.touchedQueues.add(queueId),
      traffic: (queueId, arrived, departed, depthDelta) =>
        this.trafficMeter.record(
          queueId,
          arrived,
          departed,
          depthDelta,
          registry.usageOf(queueId).count,
          registry.totalMessages(),
          clock.now(),
        ),
      outgoingQueue: (formatName, key) => this.outgoingQueue(formatName, key),
      placedOutgoing: (message, inTransit) => this.networkPort.placed(message, inTransit),
      sendGroup: { current: null },
    };
    this.ctx = {
      core: this.core,
      runner: this.runner,
      claims: this.claims,
      waiters: this.waiters,
      log: () => this.log,
      execute: (durable, work) => this.execute(durable, work),
      resolveExisting: (path) => this.resolveExisting(path),
      resolveSendTarget: (path) => resolveSendTarget(this.core, path),
      currentTarget: (target) => currentTarget(this.core, target),
      holding: (messages, work) => this.holding(messages, work),
      writingInto: (queue, work) => this.writingInto(queue, work),
      messageIn: (queue, lookupId) => messageIn(this.core, queue, lookupId),
      draftContext: () => this.draftContext(),
      reclaimPurged: () => this.reclaimer.kick(),
      forget: (queue) => {
        const deleted = new QkError('QUEUE_DELETED', `The queue '${this.registry.pathOf(queue)}' was deleted.`);
        this.stopStreams(queue.id, deleted);
        this.registry.remove(queue);
        this.receiveCursors.forget(queue.id);
        this.trafficMeter.forget(queue.id);
      },
    };
    this.maintenance = new Maintenance(
      this.ctx,
      this.duplicates,
      this.trafficMeter,
      {
        outgoingIdleMs: settings.get('CleanupInterval'),
        storeCleanupMs: settings.get('MessageCleanupInterval'),
      },
      this.startedMs,
      (queueId) =>
        this.appCursors.isOpenOn(queueId) ||
        this.writesPending.has(queueId) ||
        [...this.streams].some((s) => s.queueId === queueId),
      (queue) => this.networkConfig.isPaused(queue),
    );
    this.expiry = new Expiry(this.ctx, () => this.closed);
    this.reclaimer = new Reclaimer(this.ctx, () => this.closed);
    this.appCursors = new CursorOperations(this.ctx);
    this.networkConfig = new NetworkConfig(this.core, (work) => this.runner.runNow(work));
    this.networkPort = new EngineNetworkPort({
      core: this.core,
      claims: this.claims,
      cursors: this.receiveCursors,
      duplicates: this.duplicates,
      arrivals: this.arrivalsInFlight,
      config: this.networkConfig,
      execute: (durable, work) => this.execute(durable, work),
      runNow: (work) => this.runner.runNow(work),
    });
  }

  static open(options: QueueManagerOptions): QueueManager {
    const store = Store.open(options.dataDir);
    try {
      const clock = options.clock ?? systemClock;
      const identity = store.transaction(() => loadIdentity(store, options.name));
      const settings = store.transaction(() => new Settings(store));
      const sequences = new Sequences(store);
      const registry = new QueueRegistry(identity.id, identity.name);
      registry.load(store.queues.all(), store.messages.usage());
      const qm = new QueueManager(
        store,
        identity,
        settings,
        registry,
        sequences,
        clock,
        options.version ?? '0.0.0',
        options.timerTickMs ?? 100,
      );
      qm.log = options.logger ?? silentLogger;
      qm.runner.runNow(() => ensureSystemQueues(qm.core));
      // Expiry that passed while the service was stopped is processed before anything else (issue 3, timers).
      while (qm.expiry.run(true));
      // A purge whose rows were not all deleted before the stop goes on (they stayed purged meanwhile).
      qm.reclaimer.kick();
      qm.scheduleTick();
      return qm;
    } catch (error) {
      store.close();
      // A damaged page or a full disk met while loading is the administrator's to fix, not an internal error.
      throw storeOpenError(error, options.dataDir);
    }
  }

  get name(): string {
    return this.identity.name;
  }

  get id(): string {
    return this.identity.id;
  }

  // ── events ────────────────────────────────────────────────────────────────────────────────────────────

  on(listener: EngineListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: QkEvent): void {
    if (this.listeners.size === 0) return;
    // A burst (a batch of thousands) is told by the tick's queueChanged rather than one event per message,
    // which would bury a console under a million frames while the counts already say it all.
    if (
      (event.type === 'messageArrived' || event.type === 'messageRemoved') &&
      ++this.messageEventsThisTick > MESSAGE_EVENTS_PER_TICK
    )
      return;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // A listener's failure is its own; delivery goes on.
        this.log.error({ err: error, event: event.type }, 'An engine event listener failed');
      }
    }
  }

  private flushTouched(): void {
    this.messageEventsThisTick = 0;
    const now = this.clock.now();
    for (const id of this.touchedQueues) {
      const queue = this.registry.get(id);
      if (!queue) continue;
      this.maintenance.touched(queue, now);
      const owner = queue.kind === 'journal' && queue.parentId !== null ? this.registry.get(queue.parentId) : queue;
      if (!owner) continue;
      const info = this.registry.info(owner);
      this.emit({
        type: 'queueChanged',
        path: info.path,
        messageCount: info.messageCount,
        bytes: info.bytes,
        journalMessageCount: info.journalMessageCount,
        journalBytes: info.journalBytes,
      });
    }
    this.touchedQueues.clear();
  }

  // ── status and settings ───────────────────────────────────────────────────────────────────────────────

  status(): ServiceStatus {
    return {
      name: this.identity.name,
      id: this.identity.id,
      version: this.version,
      uptimeSeconds: Math.floor((this.clock.now() - this.startedMs) / 1000),
      messages: this.registry.totalMessages(),
      bytes: this.registry.totalBytes(),
      journalBytes: this.registry.journalBytes(),
      settingsPendingRestart: this.settings.pendingNames(),
      duplicateCache: {
        entries: this.duplicates.size,
        capacity: this.duplicates.capacity,
        duplicatesRemoved: this.duplicates.duplicatesRemoved,
      },
      machineQuotaUsedKB: Math.ceil(this.registry.totalBytes() / 1024),
      machineJournalQuotaUsedKB: Math.ceil(this.registry.systemJournalBytes() / 1024),
      startedTime: new Date(this.startedMs).toISOString(),
      // The network node of the host fills in its own part (the engine has no listener of its own).
      peerAddress: null,
      peerFingerprint: null,
      routing: false,
      offline: this.networkConfig.offline(),
    };
  }

  /** Messages in and out per second and depth over the last `seconds`, of one queue or (no path) the computer. */
  traffic(path: string | undefined, seconds: number): TrafficSeries {
    const queue = path === undefined ? null : this.resolveExisting(path);
    const depth = queue ? this.registry.usageOf(queue.id).count : this.registry.totalMessages();
    return this.trafficMeter.series(queue?.id ?? null, seconds, depth, this.clock.now());
  }

  /** How many messages of each class a queue holds (a dead-letter queue grouped by failure). */
  classCounts(path: string): ClassCount[] {
    return this.store.messages
      .classCounts(this.resolveExisting(path).id)
      .map(({ classCode, count }) => ({ class: messageClassName(classCode), classCode, count }));
  }

  listSettings(): SettingInfo[] {
    return this.settings.list();
  }

  setSetting(name: string, value: number | null): SettingInfo {
    const info = this.settings.set(name, value);
    this.emit({ type: 'settingChanged', name: info.name, value: info.value, pending: info.pending });
    return info;
  }

  // ── queues ────────────────────────────────────────────────────────────────────────────────────────────

  /** Every queue but journals; each queue's subqueues follow it (R-S*), sorted by name. */
  listQueues(): QueueInfo[] {
    const order = { system: 0, private: 1, public: 2, outgoing: 3, journal: 4, subqueue: 5 } as const;
    const byName = (a: QueueRecord, b: QueueRecord): number =>
      order[a.kind] - order[b.kind] || a.nameKey.localeCompare(b.nameKey);
    return this.registry
      .all()
      .filter((q) => q.kind !== 'journal' && q.kind !== 'subqueue')
      .sort(byName)
      .flatMap((q) => [q, ...this.registry.subqueuesOf(q.id).sort(byName)])
      .map((q) => this.registry.info(q));
  }

  showQueue(path: string): QueueInfo {
    return this.registry.info(this.resolveExisting(path));
  }

  createQueue(input: QueueCreateInput): QueueInfo {
    const plan = planQueue(this.core, input);
    const queue = this.runner.runNow(() => storeQueue(this.core, plan, input));
    const info = this.registry.info(queue);
    this.emit({ type: 'queueCreated', path: info.path });
    return info;
  }

  setQueue(input: QueueSetInput): QueueInfo {
    const queue = this.resolveExisting(input.path);
    const changed = changedQueue(this.core, queue, input);
    this.runner.runNow(() => {
      this.store.queues.update(changed);
      this.registry.add(changed);
      this.core.effects.onRollback(() => this.registry.add(queue));
    });
    this.touchedQueues.add(changed.id);
    return this.registry.info(changed);
  }

  deleteQueue(path: string): Promise<void> {
    return deleteQueue(this.ctx, path);
  }

  purgeQueue(path: string): Promise<number> {
    return purgeQueue(this.ctx, path);
  }

  // ── sending ───────────────────────────────────────────────────────────────────────────────────────────

  async send(path: string, message: SendProperties, options: SendOptions = {}): Promise<string> {
    const tx = options.transaction ? this.transactions.get(options.transaction) : undefined;
    const pending = this.prepareSend(path, message, tx !== undefined || options.transactional === true);
    if (tx) {
      addSends(tx, [pending]); // R-E2: released to the queue only at commit
      return pending.draft.msgId;
    }
    await this.execute(pending.draft.delivery === Delivery.RECOVERABLE, () => this.deliverSend(pending));
    return pending.draft.msgId;
  }

  async sendBatch(items: SendItem[], transaction?: string): Promise<string[]> {
    const tx = transaction ? this.transactions.get(transaction) : undefined;
    // Every item is checked before any is sent: a refused item refuses the batch.
    // A batch usually goes to one or a few queues: resolve each path once.
    const targets = new Map<string, SendTarget>();
    const prepared = items.map((item) => {
      let target = targets.get(item.path);
      if (!target) {
        target = resolveSendTarget(this.core, item.path);
        targets.set(item.path, target);
      }
      return this.prepareSend(item.path, item.message, tx !== undefined || item.transactional === true, target);
    });
    if (tx) {
      addSends(tx, prepared);
      return prepared.map((p) => p.draft.msgId);
    }
    const durable = prepared.some((p) => p.draft.delivery === Delivery.RECOVERABLE);
    await this.execute(durable, () => prepared.forEach((p) => this.deliverSend(p)));
    return prepared.map((p) => p.draft.msgId);
  }

  private prepareSend(path: string, props: SendProperties, transactional: boolean, resolved?: SendTarget): PendingSend {
    return prepareSend(this.ctx, path, props, transactional, resolved);
  }

  private draftContext(): Parameters<typeof makeDraft>[3] {
    return {
      computerName: this.identity.name,
      computerId: this.identity.id,
      nowMs: this.clock.now(),
      longLiveTimeS: this.settings.get('LongLiveTime'),
      maxMessageSize: this.maxMessageSize,
      nextSequence: () => this.sequences.nextMessageSequence(),
    };
  }

  private deliverSend(pending: PendingSend): void {
    deliverSend(this.ctx, pending);
  }

  private outgoingQueue(formatName: string, key: string): QueueRecord {
    const existing = this.registry.byKey('outgoing', key);
    if (existing) return existing;
    const queue = this.store.queues.insert(newQueueRecord('outgoing', formatName, key, this.clock.now()));
    this.registry.add(queue);
    this.core.effects.onRollback(() => this.registry.remove(queue));
    this.core.effects.afterCommit(() => this.emit({ type: 'queueCreated', path: formatName }));
    return queue;
  }

  /**
   * Runs work durably (group commit, answered once on disk) or at once for work that touches only express
   * messages.
   */
  private async writingInto<T>(queue: QueueRecord, work: () => Promise<T>): Promise<T> {
    this.writesPending.set(queue.id, (this.writesPending.get(queue.id) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (this.writesPending.get(queue.id) ?? 1) - 1;
      if (left > 0) this.writesPending.set(queue.id, left);
      else this.writesPending.delete(queue.id);
      // The call is over: a subqueue it kept open goes now if the work stored nothing there.
      if (left === 0 && this.registry.usageOf(queue.id).count === 0) this.subqueueCallEnded(queue);
    }
  }

  private async execute<T>(durable: boolean, work: () => T): Promise<T> {
    return durable ? this.runner.runDurable(work) : this.runner.runNow(work, { express: true });
  }

  /** See EngineContext.holding. */
  private async holding<T>(messages: StoredMessage[], work: () => Promise<T>): Promise<T> {
    for (const m of messages) this.claims.take(m);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      this.releaseClaims(messages, true);
      throw error;
    }
    this.releaseClaims(messages, false);
    return result;
  }

  // ── receiving ─────────────────────────────────────────────────────────────────────────────────────────

  async receive(input: ReceiveInput): Promise<MessageInfo> {
    const queue = this.resolveForReading('receive', input.path);
    const tx = input.transaction ? this.transactions.get(input.transaction) : undefined;
    if ((tx || input.transactional) && !queue.transactional) {
      // R-M4: a transactional receive needs a transactional queue.
      throw new QkError(
        'TRANSACTION_USAGE',
        `'${this.registry.pathOf(queue)}' is not transactional; receive from it without a transaction.`,
      );
    }
    const message =
      input.lookupId !== undefined
        ? this.claimByLookupId(queue, input.lookupId, input.lookupAction)
        : input.lookupAction !== undefined
          ? this.claimByLookupId(queue, undefined, input.lookupAction)
          : await this.claimFirst(queue, input.timeoutMs ?? 0, input);
    const info = messageView(input.properties)(message, this.clock.now());
    await this.deliverClaimed([message], info, input.deliver, input, tx);
    return info;
  }

  consume(input: ConsumeInput): Consumption {
    const queue = this.resolveForReading('receive', input.path);
    if (input.transactional && !queue.transactional)
      // R-M4: a transactional receive needs a transactional queue.
      throw new QkError(
        'TRANSACTION_USAGE',
        `'${this.registry.pathOf(queue)}' is not transactional; receive from it without a transaction.`,
      );
    if (this.closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager stopped.');
    return new StreamConsumer(this.streamHost, queue, input);
  }

  /** The steps of a plain receive, for streaming receives (consumer.ts). */
  private readonly streamHost: StreamHost = {
    claim: (queue, count) => this.receiveCursors.first(queue.id, count, true),
    info: (message, view) => view(message, this.clock.now()),
    waitForArrival: async (queue, signal, ms) => {
      if (this.closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager stopped.');
      const arrived = await this.waiters.wait(queue.id, ms ?? Infinity, signal);
      if (!this.registry.get(queue.id))
        throw new QkError('QUEUE_DELETED', `The queue '${this.registry.pathOf(queue)}' was deleted.`);
      return arrived;
    },
    finishReceives: (messages) => this.finishReceives(messages),
    releaseClaims: (messages, undone) => this.releaseClaims(messages, undone),
    openTransaction: (id) => this.transactions.find(id),
    beginTransaction: () => this.beginTransaction(),
    commitTransaction: (id) => this.commitTransaction(id),
    abortTransaction: (id) => this.abortTransaction(id),
    track: (stream) => {
      this.streams.add(stream);
      return () => this.streams.delete(stream);
    },
  };

  private stopStreams(queueId: number | null, error: QkError): void {
    for (const stream of this.streams) if (queueId === null || stream.queueId === queueId) stream.stop(error);
  }

  async receiveBatch(input: ReceiveBatchInput): Promise<MessageInfo[]> {
    const queue = this.resolveForReading('receive', input.path);
    const tx = input.transaction ? this.transactions.get(input.transaction) : undefined;
    if (tx && !queue.transactional)
      throw new QkError('TRANSACTION_USAGE', `'${this.registry.pathOf(queue)}' is not transactional.`);
    const first = await this.claimFirst(queue, input.timeoutMs ?? 0, input);
    const view = messageView(input.properties);
    const { claimed, replies } = input.replyLimit
      ? this.claimWithin(queue, first, input.max, input.replyLimit, view)
      : this.claimAll(queue, first, input.max, view);
    await this.deliverClaimed(claimed, replies, input.deliver, input, tx);
    return replies;
  }

  private claimAll(queue: QueueRecord, first: StoredMessage, max: number, view: MessageView) {
    const claimed = [first, ...this.claimMore(queue, max - 1)];
    const now = this.clock.now();
    return { claimed, replies: claimed.map((m) => view(m, now)) };
  }

  /**
   * Claims up to `max` messages while their replies fit the byte cap (the first always does). Claims go in
   * chunks sized by the largest reply seen so far, so a queue of large bodies is never read whole into
   * memory; messages read past the cap were seen by nobody and go back untouched, in place.
   */
  private claimWithin(queue: QueueRecord, first: StoredMessage, max: number, limit: ReplyLimit, view: MessageView) {
    const claimed = [first];
    const now = this.clock.now();
    const replies = [view(first, now)];
    let used = limit.measure(replies[0] as MessageInfo);
    let largest = used;
    for (;;) {
      const chunk = Math.min(max - claimed.length, Math.floor((limit.maxBytes - used) / Math.max(1, largest)));
      if (chunk <= 0) break;
      const more = this.claimMore(queue, chunk);
      const fitting = countFitting(more, limit, limit.maxBytes - used, now, view);
      for (const [i, m] of more.entries()) {
        if (i >= fitting.count) break;
        claimed.push(m);
        replies.push(fitting.replies[i] as MessageInfo);
      }
      used += fitting.bytes;
      largest = Math.max(largest, fitting.largest);
      this.releaseClaims(more.slice(fitting.count), true);
      if (fitting.count < chunk) break;
    }
    return { claimed, replies };
  }

  /**
   * The delivery step shared by every receive path. The caller first makes sure the reply can reach it; when
   * it cannot, the claims are released and the messages stay exactly where they were. A plain receive then
   * commits the removal and only then writes the reply (a crash in between loses the reply, never duplicates
   * the message); a transactional one writes it and joins its transaction, whose commit is the client's.
   */
  private async deliverClaimed<T>(
    messages: StoredMessage[],
    reply: T,
    deliver: Deliver<T> | undefined,
    caller: Cancellable,
    tx: Transaction | undefined,
  ): Promise<void> {
    if (!tx) {
      let write: WriteReply;
      try {
        write = await prepareDelivery(reply, deliver, caller);
      } catch (error) {
        this.releaseClaims(messages, true);
        throw error;
      }
      await this.finishReceives(messages);
      return write();
    }
    const delivery = this.deliverInTransaction(messages, reply, deliver, caller, tx);
    tx.delivering.add(delivery);
    try {
      await delivery;
    } finally {
      tx.delivering.delete(delivery);
    }
  }

  private async deliverInTransaction<T>(
    messages: StoredMessage[],
    reply: T,
    deliver: Deliver<T> | undefined,
    caller: Cancellable,
    tx: Transaction,
  ): Promise<void> {
    try {
      const write = await prepareDelivery(reply, deliver, caller);
      await write();
    } catch (error) {
      this.releaseClaims(messages, true);
      throw error;
    }
    // Aborted while the reply was on its way (R-D5): the messages go back as the abort's other receives did.
    if (this.transactions.isOpen(tx)) tx.receives.push(...messages);
    else this.releaseClaims(messages, true);
  }

  // ── cursors (R-C2–R-C5, cursors.ts) ───────────────────────────────────────────────────────────────────

  openCursor(path: string): string {
    return this.appCursors.open(this.resolveForReading('peek', path));
  }

  cursorPeek(input: CursorPeekInput): Promise<MessageInfo> {
    return this.appCursors.peek(input);
  }

  cursorReceive(input: CursorReceiveInput): Promise<MessageInfo> {
    const tx = input.transaction ? this.transactions.get(input.transaction) : undefined;
    return this.appCursors.receive(input, tx !== undefined, (message, info) =>
      this.deliverClaimed([message], info, input.deliver, input, tx),
    );
  }

  closeCursor(cursor: string): void {
    this.appCursors.close(cursor);
  }

  releaseOpenedSubqueues(): void {
    if (!this.closed) this.maintenance.releaseOpenedSubqueues();
  }

  releaseMemory(): void {
    if (!this.closed) this.store.releaseMemory();
  }

  async peek(input: PeekInput): Promise<MessageInfo> {
    const queue = this.resolveForReading('peek', input.path);
    if (input.lookupId !== undefined || input.lookupAction !== undefined) {
      const found = findByLookupId(this.ctx, queue, input.lookupId, input.lookupAction ?? 'current');
      return messageView(input.properties)(found, this.clock.now());
    }
    const deadline = this.clock.now() + (input.timeoutMs ?? 0);
    const view = messageView(input.properties);
    for (;;) {
      const found = this.firstUnclaimed(queue, 1)[0];
      if (found) return view(found, this.clock.now());
      await this.waitFor(queue, deadline, input.signal, 'peek');
    }
  }

  private firstUnclaimed(queue: QueueRecord, count: number): StoredMessage[] {
    return this.receiveCursors.first(queue.id, count, false);
  }

  private async claimFirst(queue: QueueRecord, timeoutMs: number, caller: Cancellable): Promise<StoredMessage> {
    const deadline = this.clock.now() + timeoutMs;
    for (;;) {
      const found = this.receiveCursors.first(queue.id, 1, true)[0];
      if (found) return found;
      await this.waitFor(queue, deadline, caller.signal);
    }
  }

  private claimMore(queue: QueueRecord, count: number): StoredMessage[] {
    if (count <= 0) return [];
    return this.receiveCursors.first(queue.id, count, true);
  }

  /** Waits for an arrival until the deadline; IO_TIMEOUT when it passes (CLI exit 3). */
  private async waitFor(
    queue: QueueRecord,
    deadline: number,
    signal: AbortSignal | undefined,
    kind: WaiterKind = 'receive',
  ): Promise<void> {
    const remaining = deadline - this.clock.now();
    if (remaining <= 0 || this.closed) {
      this.subqueueCallEnded(queue);
      throw new QkError('IO_TIMEOUT', `No message arrived in '${this.registry.pathOf(queue)}' within the timeout.`);
    }
    try {
      await this.waiters.wait(queue.id, remaining, signal, kind);
    } catch (error) {
      this.subqueueCallEnded(queue);
      throw error;
    }
    // Woken or timed out, the call goes on (it claims what arrived, or waits again, or ends above); a subqueue
    // only this wait kept goes once the call is over (R-S1).
    if (queue.kind === 'subqueue') this.maintenance.subqueueOpened(queue);
    if (!this.registry.get(queue.id))
      throw new QkError('QUEUE_DELETED', `The queue '${this.registry.pathOf(queue)}' was deleted.`);
  }

  /**
   * R-S1: the call ends here with a refusal, so a subqueue that only it kept goes now — before the refusal
   * reaches the caller, not a turn later, when a request already read could still see it (a refused call
   * changes nothing).
   */
  private subqueueCallEnded(queue: QueueRecord): void {
    if (queue.kind === 'subqueue' && !this.closed) this.maintenance.subqueueCallEnded(queue);
  }

  private claimByLookupId(
    queue: QueueRecord,
    lookupId: number | undefined,
    action: LookupAction = 'current',
  ): StoredMessage {
    const message = findByLookupId(this.ctx, queue, lookupId, action);
    lookupId = message.lookupId;
    if (message.status !== MessageStatus.READY)
      throw new QkError(
        'MESSAGE_NOT_FOUND',
        `Message ${lookupId} was received already (it is retained) and cannot be received again.`,
      );
    if (this.claims.has(lookupId))
      throw new QkError('MESSAGE_LOCKED_UNDER_TRANSACTION', `Message ${lookupId} is held by another receive.`);
    this.claims.take(message);
    return message;
  }

  private messageIn(queue: QueueRecord, lookupId: number): StoredMessage {
    return messageIn(this.core, queue, lookupId);
  }

  /** Completes receives: journal copies, receive acknowledgments, retention; then releases the claims. */
  private async finishReceives(messages: StoredMessage[]): Promise<void> {
    const durable = messages.some((m) => m.table === 'main');
    try {
      // The reply is written in the turn of the commit, so the caller cannot go away in between (delivery.ts).
      // A claim keeps the message as it was read; only deleting its queue can take it (then the removal throws).
      await (durable ? this.receiveRemovals.durable : this.receiveRemovals.express).remove(messages);
    } catch (error) {
      // Not removed after all (the commit failed): the messages are ready again for the next receive.
      this.releaseClaims(messages, true);
      throw error;
    }
    this.releaseClaims(messages, false);
  }

  /** Ends claims. When the receive was undone, a purge or deletion that came meanwhile now removes the message (R-P2). */
  private releaseClaims(messages: StoredMessage[], undone: boolean): void {
    const owed: { message: StoredMessage; reason: MessageRemovalReason }[] = [];
    const queues = new Set<number>();
    for (const m of messages) {
      const reason = this.claims.release(m.lookupId);
      queues.add(m.queueId);
      if (undone && reason) owed.push({ message: m, reason });
      else if (undone) {
        this.receiveCursors.putBack(m.queueId, m);
        this.waiters.wake(m.queueId);
      }
    }
    for (const queueId of queues) this.receiveCursors.settled(queueId);
    if (owed.length === 0) return;
    void this.execute(
      owed.some((o) => o.message.table === 'main'),
      () => {
        for (const { message, reason } of owed) {
          const current = this.store.messages.get(message.lookupId);
          if (current) removeMessage(this.core, current, reason);
        }
      },
    ).catch((error: unknown) =>
      // The messages stay (nothing was committed) and the purge or deletion that owed them is not redone.
      this.log.error(
        { err: error, messages: owed.length, reason: owed[0]?.reason },
        'Removing messages a purge or deletion left to an ended receive failed; they stay in their queue',
      ),
    );
  }

  // ── transactions ──────────────────────────────────────────────────────────────────────────────────────

  beginTransaction(): string {
    return this.transactions.begin().id;
  }

  async commitTransaction(transaction: string): Promise<void> {
    // A receive of this transaction whose reply is still on its way joins it (or leaves) before it commits.
    const delivering = [...this.transactions.get(transaction).delivering];
    if (delivering.length > 0) await Promise.allSettled(delivering);
    const tx = this.transactions.end(transaction);
    const first = tx.sends[0]?.draft;
    try {
      await this.runner.runDurable(() => {
        // R-E2: the transaction's messages to another computer travel as one group.
        this.core.sendGroup.current = tx.sends.length > 1 ? tx.id : null;
        try {
          for (const send of tx.sends) {
            // R-X4: every message of a transaction uses the first message's timers.
            const draft: Draft = first ? { ...send.draft, ttrq: first.ttrq, ttbr: first.ttbr } : send.draft;
            this.deliverSend({ ...send, draft });
          }
        } finally {
          this.core.sendGroup.current = null;
        }
        for (const m of tx.receives) {
          const current = this.store.messages.get(m.lookupId);
          if (current) removeMessage(this.core, current, 'received');
        }
      });
    } catch (error) {
      this.releaseClaims(tx.receives, true);
      throw error;
    }
    this.releaseClaims(tx.receives, false);
  }

  abortTransaction(transaction: string): void {
    const tx = this.transactions.end(transaction);
    // R-D5: a failed receiving transaction puts its messages back; nothing is dead-lettered. R-S7: each
    // counts one more abort.
    recordAborts(this.ctx, tx.receives);
    this.releaseClaims(tx.receives, true);
  }

  // ── browsing and single messages ──────────────────────────────────────────────────────────────────────

  browse(input: BrowseInput): BrowsePage {
    const queue = this.resolveExisting(input.path);
    return browseQueue(this.store, this.registry, queue, input, this.clock.now());
  }

  getMessage(path: string, lookupId: number): MessageInfo {
    return toMessageInfo(this.messageIn(this.resolveExisting(path), lookupId), this.clock.now());
  }

  deleteMessage(path: string, lookupId: number): void {
    admin.deleteMessages(this.ctx, path, [lookupId], true);
  }

  deleteMessages(path: string, lookupIds: number[]): number {
    return admin.deleteMessages(this.ctx, path, lookupIds, false);
  }

  moveMessage(path: string, lookupId: number, target: string): Promise<void> {
    return admin.moveMessage(this.ctx, path, lookupId, target);
  }

  moveMessages(
    path: string,
    lookupIds: number[],
    target: string,
  ): Promise<{ moved: number; failed: admin.MessageFailure[] }> {
    return admin.moveMessages(this.ctx, path, lookupIds, target);
  }

  rejectMessage(path: string, lookupId: number): Promise<void> {
    return rejectMessage(this.ctx, path, lookupId);
  }

  copyMessages(path: string, lookupIds: number[], target: string): Promise<CopyResult> {
    return copyMessages(this.ctx, path, lookupIds, target);
  }

  resendDeadLetters(path: string, lookupIds?: number[]): Promise<{ resent: number; failed: ResendFailure[] }> {
    return resendDeadLetters(this.ctx, path, lookupIds);
  }

  exportMessages(
    path: string,
    after: string | undefined,
    limit: number,
  ): { messages: ExportedMessage[]; next: string | null } {
    return exportPage(this.ctx, path, after, limit);
  }

  async importMessages(path: string, messages: ExportedMessage[], mode: ImportMode = 'asIs'): Promise<number> {
    if (mode === 'asIs') return importMessages(this.ctx, path, messages);
    const items = messages.map((m) => ({ path, message: sendPropertiesOf(m), transactional: m.transactional }));
    return (await this.sendBatch(items)).length;
  }

  findMessage(id: string): MessageLocation[] {
    return admin.findMessage(this.ctx, id);
  }

  acknowledgmentsFor(id: string): MessageLocation[] {
    return admin.acknowledgmentsFor(this.ctx, id);
  }

  endConversation(conversation: string): number {
    return admin.endConversation(this.ctx, conversation);
  }

  // ── arrivals from other computers ─────────────────────────────────────────────────────────────────────

  arrive(path: string, message: ArrivingMessage): Promise<{ accepted: boolean; reason: string | null }> {
    return receiveFromNetwork(this.ctx, this.duplicates, this.arrivalsInFlight, path, message);
  }

  // ── names ─────────────────────────────────────────────────────────────────────────────────────────────

  /** A queue of this computer (a subqueue opens on first use, R-S1), or the outgoing queue of a remote one. */
  private resolveExisting(path: string): QueueRecord {
    return resolveExisting(this.core, path, (parent, name) => {
      const subqueue = this.runner.runNow(() => createSubqueue(this.core, parent, name, false));
      this.maintenance.subqueueOpened(subqueue);
      return subqueue;
    });
  }

  /** A local queue an application may receive or peek from; another computer's is refused (remote-read.ts). */
  private resolveForReading(op: 'receive' | 'peek', path: string): QueueRecord {
    const ref = parseQueueName(path);
    if (!this.registry.isLocal(ref.computer)) throw remoteReadDenied(op, path, ref);
    return this.resolveExisting(path);
  }

  /** True when `path` names a queue on another computer, i.e. this computer's outgoing queue for it. */
  isRemotePath(path: string): boolean {
    try {
      return !this.registry.isLocal(parseQueueName(path).computer);
    } catch {
      // An unparsable name is no queue at all; the operation itself reports why.
      return false;
    }
  }

  // ── timers ────────────────────────────────────────────────────────────────────────────────────────────

  private scheduleTick(): void {
    if (this.closed) return;
    this.tickHandle = this.clock.setTimeout(() => this.tick(), this.tickMs);
  }

  private tick(): void {
    if (this.closed) return;
    try {
      this.expiry.run(false);
      this.reclaimer.kick();
      this.networkPort.tick(this.clock.now());
      // Counts first: housekeeping judges queues by the activity they record.
      this.flushTouched();
      this.maintenance.tick(this.clock.now());
      this.appCursors.sweep(this.clock.now());
    } finally {
      this.scheduleTick();
    }
  }

  // ── lifecycle ─────────────────────────────────────────────────────────────────────────────────────────

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.tickHandle !== null) this.clock.clearTimeout(this.tickHandle);
    this.waiters.fail(null, new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager stopped.'));
    this.stopStreams(null, new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager stopped.'));
    for (const tx of this.transactions.all()) {
      this.transactions.end(tx.id);
      for (const m of tx.receives) this.claims.release(m.lookupId);
    }
    this.runner.close();
    this.flushTouched();
    try {
      this.store.checkpoint();
    } catch (error) {
      // The WAL stays beside the store and is replayed at the next start: nothing is lost by not folding it now.
      process.emitWarning(`The store's WAL could not be checkpointed on close: ${String(error)}`, {
        code: 'QK_CHECKPOINT_FAILED',
      });
    } finally {
      this.store.close();
    }
  }
}
