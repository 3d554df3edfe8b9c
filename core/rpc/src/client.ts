/**
 * The caller's end of one connection: correlates results by id, queues calls past the connection's limit
 * instead of having them refused, and cancels. A cancelled call that was sent waits for the service's final
 * answer: OPERATION_CANCELLED when the cancel came in time (a cancelled receive takes nothing), else the
 * call's own result — a message that was already on its way is handed over rather than lost.
 */
import { QkError, silentLogger, type Envelope } from '@qk/model';
import { batchedFrames, commonServerFrame, idOf, parseJson, serverFrameSchema } from './frames.js';
import { DEFAULT_LIMITS } from './limits.js';
import { describeFailure, type RpcLogger } from './logger.js';
import type { FrameSink, FrameTransport, SendOptions } from './transport.js';

export interface RpcClientOptions {
  logger?: RpcLogger | undefined;
  /** Calls sent at once; later ones wait here (default: what the service accepts per connection). */
  maxCallsInFlight?: number | undefined;
  /** Sends `{"type":"auth","token"}` first (transports that cannot carry a header: the browser's WebSocket). */
  token?: string | undefined;
}

interface Pending {
  readonly id: number;
  readonly op: string;
  readonly text: string;
  readonly settle: (envelope: Envelope<unknown>) => void;
  readonly signal: AbortSignal | undefined;
  sent: boolean;
  detach?: () => void;
  /** A streamed call's items, as they come. */
  readonly onItem?: ((value: unknown) => void) | undefined;
  /** Credit granted before the call went out: sent right after it. */
  unsentCredit: number;
}

/** A streamed call under way (see RpcClient.stream). */
export interface RpcStreamCall {
  /** The call's id on this connection: other calls name the stream by it (e.g. to commit what it sent). */
  readonly id: number;
  /** The call's one result, which comes after its last item. */
  readonly result: Promise<Envelope<unknown>>;
  /** Lets the service send `count` more items. */
  grant(count: number): void;
}

/** Calls and events over one connection; the transport pushes its frames into this (it is the FrameSink). */
export class RpcClient implements FrameSink {
  readonly #transport: FrameTransport;
  readonly #log: RpcLogger;
  readonly #maxInFlight: number;
  readonly #pending = new Map<number, Pending>();
  readonly #queued: Pending[] = [];
  readonly #listeners = new Set<(event: unknown) => void>();
  readonly #lostListeners = new Set<(count: number) => void>();
  #inFlight = 0;
  #nextId = 1;
  #closedWith: Envelope<never> | undefined;
  #ready: Promise<void>;
  #markReady!: () => void;
  #failReady!: (error: QkError) => void;

  constructor(transport: FrameTransport, options: RpcClientOptions = {}) {
    this.#transport = transport;
    this.#log = options.logger ?? silentLogger;
    this.#maxInFlight = options.maxCallsInFlight ?? DEFAULT_LIMITS.maxCallsInFlight;
    this.#ready = new Promise<void>((resolve, reject) => {
      this.#markReady = resolve;
      this.#failReady = reject;
    });
    // Nobody may be waiting for readiness; a refusal is also reported through every call.
    this.#ready.catch(() => undefined);
    if (options.token === undefined) this.#markReady();
    else this.#post(JSON.stringify({ type: 'auth', token: options.token }));
  }

  /** Resolves once the service accepted the connection (at once when it was authenticated by a header). */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** Calls sent and not yet answered, and calls waiting to be sent. */
  get inFlight(): number {
    return this.#inFlight + this.#queued.length;
  }

  /** Calls one operation; resolves with its envelope (never rejects: failures are envelopes too). */
  call(op: string, input: unknown, signal?: AbortSignal): Promise<Envelope<unknown>> {
    return this.#start(op, input, signal, undefined).result;
  }

  /**
   * Calls an operation that streams items before its result (a streaming receive): `onItem` gets each item as
   * it comes; the service sends no more than the credit granted (`credit` now, `grant` later). Cancelling
   * (the signal) ends the stream; its result follows the items already on their way.
   */
  stream(
    op: string,
    input: unknown,
    options: { credit: number; onItem: (value: unknown) => void; signal?: AbortSignal | undefined },
  ): RpcStreamCall {
    const started = this.#start(op, input, options.signal, options.onItem);
    const grant = (count: number): void => {
      const pending = this.#pending.get(started.id) ?? this.#queued.find((p) => p.id === started.id);
      if (!pending || count <= 0) return;
      // Credit leaves at once: the service can take the next messages while this side handles the rest.
      if (pending.sent) this.#post(JSON.stringify({ type: 'credit', id: pending.id, count }), { now: true });
      else pending.unsentCredit += count;
    };
    grant(options.credit);
    return { id: started.id, result: started.result, grant };
  }

  #start(
    op: string,
    input: unknown,
    signal: AbortSignal | undefined,
    onItem: ((value: unknown) => void) | undefined,
  ): { id: number; result: Promise<Envelope<unknown>> } {
    const id = this.#nextId++;
    if (this.#closedWith) return { id, result: Promise.resolve(this.#closedWith) };
    if (signal?.aborted) return { id, result: Promise.resolve(cancelledEnvelope(op)) };
    let text: string;
    try {
      // This end reads `frames` frames (asksForBatchedFrames): what the service sends together comes as one.
      text = JSON.stringify({ type: 'call', id, op, input: input ?? {}, batchFrames: true });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        id,
        result: Promise.resolve(failure('INVALID_PARAMETER', `The ${op} input cannot be sent as JSON: ${why}.`)),
      };
    }
    const result = new Promise<Envelope<unknown>>((resolve) => {
      const pending: Pending = {
        id,
        op,
        text,
        signal,
        sent: false,
        onItem,
        unsentCredit: 0,
        settle: (envelope) => {
          pending.detach?.();
          resolve(envelope);
        },
      };
      if (signal) {
        const onAbort = (): void => this.#cancel(pending);
        signal.addEventListener('abort', onAbort, { once: true });
        pending.detach = () => signal.removeEventListener('abort', onAbort);
      }
      if (this.#inFlight < this.#maxInFlight) this.#sendCall(pending);
      else this.#queued.push(pending);
    });
    return { id, result };
  }

  /** Receives every event until the returned disposer runs; the first listener subscribes the connection. */
  subscribe(listener: (event: unknown) => void): () => void {
    if (this.#listeners.size === 0 && !this.#closedWith) this.#post('{"type":"subscribe"}');
    this.#listeners.add(listener);
    return () => {
      if (!this.#listeners.delete(listener)) return;
      if (this.#listeners.size === 0 && !this.#closedWith) this.#post('{"type":"unsubscribe"}');
    };
  }

  /** Told when the service dropped events because this reader was behind (refresh what you show). */
  onEventsLost(listener: (count: number) => void): () => void {
    this.#lostListeners.add(listener);
    return () => {
      this.#lostListeners.delete(listener);
    };
  }

  frame(text: string): void {
    const raw = parseJson(text);
    const frames = batchedFrames(raw);
    if (!frames) return this.#dispatch(raw);
    for (const frame of frames) this.#dispatch(frame);
  }

  #dispatch(raw: unknown): void {
    const common = commonServerFrame(raw);
    if (common?.type === 'result') {
      const pending = this.#pending.get(common.id);
      if (pending) this.#finish(pending, { ok: true, value: common.value });
      return;
    }
    if (common?.type === 'item') return this.#pending.get(common.id)?.onItem?.(common.value);
    const parsed = serverFrameSchema.safeParse(raw);
    if (!parsed.success) {
      // A newer service's frame, or a result whose error code this client does not know.
      const id = idOf(raw);
      const pending = id === undefined ? undefined : this.#pending.get(id);
      if (pending && (raw as { type?: unknown }).type === 'result') {
        this.#finish(pending, failure('INTERNAL', `The service answered ${pending.op} with a malformed result.`));
      }
      return;
    }
    const frame = parsed.data;
    switch (frame.type) {
      case 'item':
        this.#pending.get(frame.id)?.onItem?.(frame.value);
        return;
      case 'result': {
        const pending = this.#pending.get(frame.id);
        if (!pending) return;
        this.#finish(pending, frame.ok ? { ok: true, value: frame.value } : { ok: false, error: frame.error });
        return;
      }
      case 'event':
        for (const listener of [...this.#listeners]) {
          try {
            listener(frame.event);
          } catch (error) {
            this.#log.error(describeFailure(error), 'an event listener failed');
          }
        }
        return;
      case 'eventsLost':
        for (const listener of [...this.#lostListeners]) listener(frame.count);
        return;
      case 'ready':
        this.#markReady();
        return;
      case 'frames':
        // Only at the top (frame): a service never nests them.
        return;
      case 'error':
        if (frame.error.code === 'UNAUTHORIZED') {
          this.#failReady(new QkError('UNAUTHORIZED', frame.error.message));
          this.closed(frame.error.message, 'UNAUTHORIZED');
        } else this.#log.warn({ error: frame.error }, 'the service refused a frame');
        return;
    }
  }

  /** The connection ended: every call not answered fails (SERVICE_NOT_AVAILABLE unless told otherwise). */
  closed(reason?: string, code: 'SERVICE_NOT_AVAILABLE' | 'UNAUTHORIZED' = 'SERVICE_NOT_AVAILABLE'): void {
    if (this.#closedWith) return;
    this.#closedWith = failure(code, reason ?? 'The connection to the service closed.');
    this.#failReady(new QkError(code, this.#closedWith.error.message));
    const closedWith = this.#closedWith;
    for (const pending of [...this.#pending.values(), ...this.#queued]) pending.settle(closedWith);
    this.#pending.clear();
    this.#queued.length = 0;
    this.#inFlight = 0;
  }

  #sendCall(pending: Pending): void {
    pending.sent = true;
    this.#inFlight++;
    this.#pending.set(pending.id, pending);
    this.#transport.send(pending.text).catch((error: unknown) => {
      if (!this.#pending.has(pending.id)) return;
      const why = error instanceof Error ? error.message : String(error);
      this.#finish(pending, failure('SERVICE_NOT_AVAILABLE', `Could not send the ${pending.op} call: ${why}.`));
    });
    if (pending.unsentCredit > 0) {
      this.#post(JSON.stringify({ type: 'credit', id: pending.id, count: pending.unsentCredit }));
      pending.unsentCredit = 0;
    }
  }

  /** A queued call is dropped here (it never reached the service); a sent one is cancelled there. */
  #cancel(pending: Pending): void {
    if (!pending.sent) {
      const at = this.#queued.indexOf(pending);
      if (at >= 0) this.#queued.splice(at, 1);
      pending.settle(cancelledEnvelope(pending.op));
      return;
    }
    if (this.#pending.has(pending.id)) this.#post(JSON.stringify({ type: 'cancel', id: pending.id }));
  }

  #finish(pending: Pending, envelope: Envelope<unknown>): void {
    this.#pending.delete(pending.id);
    this.#inFlight--;
    pending.settle(envelope);
    while (this.#inFlight < this.#maxInFlight && this.#queued.length > 0)
      this.#sendCall(this.#queued.shift() as Pending);
  }

  #post(text: string, options?: SendOptions): void {
    this.#transport.send(text, options).catch((error: unknown) => {
      this.#log.info(describeFailure(error), 'a frame could not be sent');
    });
  }
}

function failure(code: 'INTERNAL' | 'INVALID_PARAMETER' | 'SERVICE_NOT_AVAILABLE' | 'UNAUTHORIZED', message: string) {
  return { ok: false as const, error: { code, message } };
}

function cancelledEnvelope(op: string): Envelope<never> {
  return { ok: false, error: { code: 'OPERATION_CANCELLED', message: `The ${op} call was cancelled.` } };
}
