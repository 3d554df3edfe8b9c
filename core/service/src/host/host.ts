/**
 * The service host: owns one queue manager on one data folder, serves the contract to every transport
 * (HTTP, WebSocket, Electron IPC) through one `call`, and restarts the queue manager in place.
 */
import {
  isOperationName,
  operations,
  toErrorBody,
  type Envelope,
  type OperationHandlers,
  type OperationName,
  type QkEvent,
  type Unsubscribe,
} from '@qk/api';
import { openQueueManager, type QueueManagerApi, type QueueManagerOptions } from '@qk/engine';
import { isQkError, QkError, silentLogger, type Logger, type ServiceStatus } from '@qk/model';
import { NetworkNode, type NetworkNodeOptions } from '@qk/network';
import { AuditLog, auditTarget, queueReadPath } from './audit-log.js';
import { CallMonitor, replyItemsOf } from './call-monitor.js';
import { secureDataFolder } from './data-folder.js';
import { acquireDataLock, type DataLock } from './data-lock.js';
import { isFatalStoreError } from './process-guard.js';
import { createHandlers, type CallContext, type ContextualHandlers } from './handlers.js';
import { TransactionRegistry } from './transaction-registry.js';
import { StreamRegistry } from './stream-registry.js';
import { productVersion } from './version.js';

/** How a ServiceHost is opened. */
export interface ServiceHostOptions {
  dataDir: string;
  /** Computer name; defaults to what the store remembers, else the host name. */
  name?: string | undefined;
  version?: string | undefined;
  /** Opens the queue manager; the real engine unless a test hands in a fake. */
  openEngine?: ((options: QueueManagerOptions) => QueueManagerApi) | undefined;
  /** Idle limit of transactions begun over plain HTTP (default 5 minutes). */
  httpTransactionIdleMs?: number | undefined;
  /** Where the host and its queue manager log (runService gives the service's pino logger); silent by default. */
  logger?: Logger | undefined;
  /** Runs once the data-folder lock is held, before the store opens (the service log opens its file here). */
  afterLock?: (() => void) | undefined;
  /** Thresholds of the slow-call and event-loop-stall lines (call-monitor.ts); its defaults otherwise. */
  monitor?: { slowCallMs?: number | undefined; stallMs?: number | undefined } | undefined;
}

type StopListener = () => void;
type FatalListener = (error: unknown) => void;

/** One queue manager on one data folder, served to every transport through `call`. */
export class ServiceHost {
  readonly dataDir: string;
  /** One handler per operation (without transport context), e.g. for Electron IPC. */
  readonly handlers: OperationHandlers;
  readonly transactions: TransactionRegistry;
  /** Streaming receives under way, by connection (their commits name them). */
  readonly streams = new StreamRegistry();

  readonly #options: ServiceHostOptions;
  readonly #lock: DataLock;
  readonly #audit: AuditLog;
  readonly #contextual: ContextualHandlers;
  readonly #listeners = new Set<(event: QkEvent) => void>();
  readonly #stopListeners = new Set<StopListener>();
  readonly #fatalListeners = new Set<FatalListener>();
  readonly #logger: Logger;
  readonly #monitor: CallMonitor;
  #engine: QueueManagerApi | null;
  #network: NetworkNode | null = null;
  #unsubscribeNetwork: () => void = () => {};
  #identity: { name: string; id: string };
  #engineError: QkError | null = null;
  #unsubscribeEngine: () => void = () => {};
  #gate: Promise<void> = Promise.resolve();
  #restarting: Promise<ServiceStatus> | undefined;
  #closing: Promise<void> | undefined;

  private constructor(options: ServiceHostOptions, lock: DataLock, engine: QueueManagerApi) {
    this.#options = options;
    this.dataDir = options.dataDir;
    this.#lock = lock;
    this.#engine = engine;
    this.#identity = { name: engine.name, id: engine.id };
    this.#logger = options.logger ?? silentLogger;
    this.#monitor = new CallMonitor({ logger: this.#logger.child({ component: 'monitor' }), ...options.monitor });
    this.#monitor.start();
    this.#audit = new AuditLog(options.dataDir, { logger: this.#logger });
    this.transactions = new TransactionRegistry((tx) => this.#engine?.abortTransaction(tx), {
      idleMs: options.httpTransactionIdleMs,
    });
    this.#contextual = createHandlers({
      engine: () => this.#requireEngine(),
      network: () => this.#requireNetwork(),
      restart: () => this.restart(),
      transactions: this.transactions,
      streams: this.streams,
      call: (op, input, context) => this.call(op, input, context),
    });
    this.handlers = Object.fromEntries(
      Object.entries(this.#contextual).map(([name, handler]) => [name, (input: never) => handler(input, {})]),
    ) as unknown as OperationHandlers;
    this.#subscribeEngine();
  }

  /**
   * Makes the data folder private, takes its lock and opens the queue manager. Throws SERVICE_ALREADY_RUNNING
   * when another live service holds the folder, STORE_CORRUPT / STORE_VERSION_TOO_NEW when the store cannot
   * be used.
   */
  static open(options: ServiceHostOptions): ServiceHost {
    const logger = options.logger ?? silentLogger;
    const warnings = secureDataFolder(options.dataDir);
    const lock = acquireDataLock(options.dataDir);
    try {
      options.afterLock?.();
      for (const warning of warnings) logger.warn({}, warning);
      const engine = ServiceHost.#openEngine(options);
      return new ServiceHost(options, lock, engine);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  static #openEngine(options: ServiceHostOptions): QueueManagerApi {
    const open = options.openEngine ?? openQueueManager;
    return open({
      dataDir: options.dataDir,
      name: options.name,
      version: options.version ?? productVersion,
      logger: (options.logger ?? silentLogger).child({ component: 'engine' }),
    });
  }

  /** Slow calls and event-loop stalls of this host (transports add their requests to its stall lines). */
  get monitor(): CallMonitor {
    return this.#monitor;
  }

  /** The computer name of the queue manager (still known after close). */
  get name(): string {
    return this.#identity.name;
  }

  /** The computer GUID of the queue manager (still known after close). */
  get id(): string {
    return this.#identity.id;
  }

  /**
   * Starts this computer's networking (docs/network.md): its certificate, and a peer listener when asked for
   * one. Network events reach subscribers as contract events.
   */
  async startNetwork(options: Omit<NetworkNodeOptions, 'dataDir' | 'engine'>): Promise<NetworkNode> {
    if (this.#network) throw new QkError('INVALID_PARAMETER', 'The network of this service is started already.');
    const node = await NetworkNode.start({
      log: this.#logger.child({ component: 'network' }),
      ...options,
      dataDir: this.dataDir,
      engine: () => this.#requireEngine(),
    });
    this.#network = node;
    this.#unsubscribeNetwork = node.onEvent((event) => this.#emit(event));
    return node;
  }

  /** Validates the input with the contract, dispatches it, and wraps the result or error in an envelope. */
  async call(op: string, input: unknown, context: CallContext = {}): Promise<Envelope<unknown>> {
    if (!isOperationName(op)) {
      return { ok: false, error: { code: 'INVALID_PARAMETER', message: `Unknown operation '${op}'.` } };
    }
    const def = operations[op];
    const ended = this.#monitor.begin(op, input, {
      inputBytes: context.inputBytes,
      connectionId: context.connectionId,
    });
    let envelope: Envelope<unknown>;
    try {
      const parsed: unknown = def.input.parse(input ?? {});
      await this.#gate;
      const handler = this.#contextual[op] as (input: unknown, context: CallContext) => Promise<unknown>;
      let result: Promise<unknown>;
      try {
        result = handler(parsed, context);
      } finally {
        // The handler's synchronous part has run (a refusal of a synchronous operation included): before any
        // other call goes on, what it opened in passing goes (R-S1).
        this.#engine?.releaseOpenedSubqueues();
      }
      envelope = { ok: true, value: await result };
    } catch (error) {
      envelope = { ok: false, error: toErrorBody(error) };
      this.#unexpected(op, input, error);
    }
    ended(
      envelope.ok ? { ok: true, replyItems: replyItemsOf(envelope.value) } : { ok: false, code: envelope.error.code },
    );
    // Reading another computer's queue reads this computer's outgoing queue for it: an admin action (R-P1).
    if (def.admin || this.#readsOutgoingQueue(op, input)) this.#auditCall(op, input, envelope, context);
    // Stop after this reply has been handed to the transport (which then flushes it before closing).
    if (op === 'serviceStop' && envelope.ok) setImmediate(() => this.requestStop());
    return envelope;
  }

  /** Every engine event, across restarts. */
  subscribe(listener: (event: QkEvent) => void): Unsubscribe {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Registers what to do when a client asks the service to stop (the process host decides how; runService stops). */
  onStopRequested(listener: StopListener): Unsubscribe {
    this.#stopListeners.add(listener);
    return () => {
      this.#stopListeners.delete(listener);
    };
  }

  /** Registers what to do when the store turns out broken (runService stops the service and the process). */
  onFatalError(listener: FatalListener): Unsubscribe {
    this.#fatalListeners.add(listener);
    return () => {
      this.#fatalListeners.delete(listener);
    };
  }

  /** Lets the engine give back what it holds only to go faster; the heap trimmer calls it on a quiet moment. */
  releaseMemory(): void {
    this.#engine?.releaseMemory();
  }

  /** Asks whoever hosts the service to stop it; `call('serviceStop')` does this once its reply is on its way. */
  requestStop(): void {
    for (const listener of [...this.#stopListeners]) listener();
  }

  /**
   * Restarts the queue manager in place, as restarting the MSMQ service does: pending settings apply, express
   * messages are lost, the duplicate cache starts empty. Calls made meanwhile wait for it.
   */
  restart(): Promise<ServiceStatus> {
    if (this.#closing) return Promise.reject(new QkError('SERVICE_NOT_AVAILABLE', 'The service is stopping.'));
    this.#restarting ??= this.#doRestart().finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }

  async #doRestart(): Promise<ServiceStatus> {
    let open!: () => void;
    this.#gate = new Promise((resolve) => (open = resolve));
    try {
      const old = this.#engine;
      this.#unsubscribeEngine();
      this.#engine = null;
      this.#engineError = new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager is restarting.');
      this.transactions.clear();
      this.#network?.engineStopping();
      await old?.close();
      try {
        this.#engine = ServiceHost.#openEngine(this.#options);
        this.#identity = { name: this.#engine.name, id: this.#engine.id };
        this.#engineError = null;
      } catch (error) {
        this.#engineError = new QkError(
          'SERVICE_NOT_AVAILABLE',
          `The queue manager could not start again: ${toErrorBody(error).message}`,
        );
        throw error;
      }
      this.#subscribeEngine();
      this.#network?.engineRestarted();
      this.#emit({ type: 'serviceRestarted' });
      return this.#engine.status();
    } finally {
      open();
    }
  }

  /** Closes the queue manager (it flushes) and releases the data-folder lock. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#monitor.stop();
      // A failed restart was answered (and logged) on its own call; closing only waits for it to end.
      await this.#restarting?.catch(() => undefined);
      this.#unsubscribeEngine();
      this.#unsubscribeNetwork();
      // Sessions end before the engine closes, so no delivery lands in a store that is going away.
      await this.#network?.close();
      this.transactions.dispose();
      const engine = this.#engine;
      this.#engine = null;
      this.#engineError = new QkError('SERVICE_NOT_AVAILABLE', 'The service has stopped.');
      try {
        await engine?.close();
      } finally {
        await this.#audit.close();
        this.#lock.release();
        this.#listeners.clear();
        this.#stopListeners.clear();
        this.#fatalListeners.clear();
      }
    })();
    return this.#closing;
  }

  #requireEngine(): QueueManagerApi {
    if (this.#engine) return this.#engine;
    throw this.#engineError ?? new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager is not running.');
  }

  #requireNetwork(): NetworkNode {
    if (this.#network) return this.#network;
    throw new QkError(
      'SERVICE_NOT_AVAILABLE',
      'This service runs without a network (it was not started by qk service start).',
    );
  }

  #subscribeEngine(): void {
    const engine = this.#engine;
    if (!engine) return;
    // Engine events are structurally the contract's events (core/engine/src/types.ts says so).
    this.#unsubscribeEngine = engine.on((event) => this.#emit(event));
  }

  #emit(event: QkEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One broken subscriber must not stop the others or the engine.
        this.#logger.error({ err: error, event: event.type }, 'An event subscriber failed');
      }
    }
  }

  /**
   * Logs an error that is not a refusal the contract describes (a bug, or the store failing), with the
   * operation and the queue it named (never message bodies); a broken store stops the service.
   */
  #unexpected(op: OperationName, input: unknown, error: unknown): void {
    if (isQkError(error) && error.code !== 'INTERNAL' && error.code !== 'STORE_CORRUPT') return;
    if (!isQkError(error) && toErrorBody(error).code !== 'INTERNAL') return;
    this.#logger.error({ err: error, op, target: auditTarget(input) }, `The operation ${op} failed unexpectedly`);
    if (isFatalStoreError(error)) for (const listener of [...this.#fatalListeners]) listener(error);
  }

  #readsOutgoingQueue(op: OperationName, input: unknown): boolean {
    const path = queueReadPath(op, input);
    return path !== undefined && this.#engine !== null && this.#engine.isRemotePath(path);
  }

  #auditCall(op: OperationName, input: unknown, envelope: Envelope<unknown>, context: CallContext): void {
    this.#audit.record({
      op,
      target: auditTarget(input),
      ok: envelope.ok,
      code: envelope.ok ? undefined : envelope.error.code,
      connectionId: context.connectionId,
    });
  }
}
