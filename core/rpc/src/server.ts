/**
 * The service's end of one connection: validates frames, runs calls, answers each exactly once, cancels,
 * limits calls in flight, and applies backpressure. No reply can crash the process: every send path catches,
 * answers with an error frame where it still can, and logs.
 */
import { QkError, silentLogger, type Envelope, type ErrorBody } from '@qk/model';
import {
  asksForBatchedFrames,
  clientFrameSchema,
  idOf,
  MAX_CREDIT,
  parseJson,
  presentedToken,
  wellFormedCall,
} from './frames.js';
import { DEFAULT_LIMITS, resultText, utf8Length, type ConnectionLimits } from './limits.js';
import { describeFailure, type RpcLogger } from './logger.js';
import type { FrameSink, FrameTransport } from './transport.js';

/** What a call gets from the connection besides its input. */
export interface RpcCallContext {
  /** Aborts when the client cancels the call or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * Prepares the call's successful result — serialized, within the reply budget, the connection open, the
   * call not cancelled — and resolves with the step that writes it; rejects (OPERATION_CANCELLED,
   * SERVICE_NOT_AVAILABLE, INSUFFICIENT_RESOURCES) when it cannot go, having sent nothing. A receive commits
   * its removal between the two. Once prepared, a cancel has lost the race: the result is written. When the
   * write step runs, what the call returns afterwards is not sent; when it never runs (the removal failed),
   * the call's returned error is its answer.
   */
  deliver: (value: unknown) => Promise<() => Promise<void>>;
  /** The call's id on its connection (a streamed call is named by it, e.g. to commit what it sent). */
  readonly id: number;
  /** A streamed call's items: as many as the client's credit allows, each before the call's result. */
  readonly stream: RpcStream;
}

/**
 * The items of a streamed call. The client grants credit (`credit` frames); each item uses one. Like
 * `deliver`, an item is prepared first — serialized, within the reply budget, the call still running — and
 * written by the step it resolves with, so a receive can commit its removal in between.
 */
export interface RpcStream {
  /** Items the client will take now. */
  credit(): number;
  /** Resolves once the client has granted credit and its connection has room; rejects when the call ends. */
  ready(): Promise<void>;
  /** Prepares one item, using one credit; resolves with the step that writes it. */
  prepare(value: unknown): Promise<() => Promise<void>>;
}

/** What the connection serves. */
export interface RpcHandler {
  call(op: string, input: unknown, context: RpcCallContext): Promise<Envelope<unknown>>;
  /** Events for a `subscribe` frame; absent = subscriptions are refused. */
  subscribe?(listener: (event: unknown) => void): () => void;
  /** Calls whose reply carries what they took (receives): they do not start while the reader is behind. */
  isDestructive?(op: string): boolean;
  /** The connection ended (its calls have been aborted). */
  closed?(): void;
}

export interface RpcServerOptions {
  handler: RpcHandler;
  logger?: RpcLogger | undefined;
  limits?: Partial<ConnectionLimits> | undefined;
  /** When given, the first frame must be `{type:"auth",token}` and pass this check. */
  authenticate?: ((token: string) => boolean) | undefined;
  /** How long an unauthenticated connection may stay without its auth frame. */
  authTimeoutMs?: number | undefined;
  /** For log lines. */
  connectionId?: string | undefined;
}

interface Call {
  readonly id: number;
  readonly op: string;
  /** Made only when something asks for the call's signal (see signalOf): most calls never do. */
  aborter: AbortController | null;
  /** The client cancelled the call or the connection closed. */
  cancelled: boolean;
  readonly inputBytes: number;
  /** A result was prepared by deliver (it may still not be written). */
  prepared: boolean;
  /** The call's one answer has been handed to the transport. */
  answered: boolean;
  /** Its prepared result could not be written (logged where it happened). */
  lost: boolean;
  /** Items the client granted and that were not yet used. */
  credit: number;
  /** Waiting for credit (or room) to send items. */
  readonly creditWaiters: Set<() => void>;
}

/** Frames of one turn on their way into one `frames` frame; every send of them settles with its write. */
interface FrameBatch {
  readonly frames: string[];
  readonly written: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * A `frames` frame stops growing at this many frames, so the reader starts on the first part of a long turn
 * while this end makes the rest, as FRAMES_PER_WRITE lets it at the socket (node/ws-transport.ts).
 */
const BATCH_FRAMES = 128;
/**
 * Frames longer than this go on their own (after what is batched before them): what batching saves is a
 * per-frame cost, small beside a large frame's, and a reader waiting for a few large replies (a hundred sends'
 * results each) would only get them later — W5's sends without waiting went 6 % slower with them batched.
 * It also bounds a `frames` frame to BATCH_FRAMES × 4 KB.
 */
const BATCH_FRAME_CHARS = 4 * 1024;

/** WebSocket close codes used here (1008 policy violation). */
const CLOSE_UNAUTHORIZED = 1008;
const DEFAULT_AUTH_TIMEOUT_MS = 10_000;

/** Serves one connection; the transport pushes its frames into the returned sink. */
export function serveRpc(transport: FrameTransport, options: RpcServerOptions): FrameSink {
  return new RpcServerConnection(transport, options);
}

class RpcServerConnection implements FrameSink {
  readonly #transport: FrameTransport;
  readonly #handler: RpcHandler;
  readonly #log: RpcLogger;
  readonly #limits: ConnectionLimits;
  readonly #authenticate: ((token: string) => boolean) | undefined;
  readonly #connection: string | undefined;
  readonly #calls = new Map<number, Call>();
  /** Destructive calls waiting for the reader to catch up. */
  readonly #waitingForRoom = new Set<() => void>();
  #authenticated: boolean;
  #authTimer: ReturnType<typeof setTimeout> | undefined;
  #inputBytes = 0;
  #reading = true;
  #closed = false;
  #unsubscribe: (() => void) | undefined;
  #eventsLost = 0;
  /** The client reads `frames` frames (a call said so): what is sent in one turn leaves together. */
  #batching = false;
  #batch: FrameBatch | null = null;

  constructor(transport: FrameTransport, options: RpcServerOptions) {
    this.#transport = transport;
    this.#handler = options.handler;
    this.#log = options.logger ?? silentLogger;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#authenticate = options.authenticate;
    this.#connection = options.connectionId;
    this.#authenticated = options.authenticate === undefined;
    if (!this.#authenticated) {
      this.#authTimer = setTimeout(
        () => this.#refuse('No auth frame arrived in time: send {"type":"auth","token":…} first.'),
        options.authTimeoutMs ?? DEFAULT_AUTH_TIMEOUT_MS,
      );
      (this.#authTimer as { unref?: () => void }).unref?.();
    }
  }

  frame(text: string): void {
    if (this.#closed) return;
    const raw = parseJson(text);
    if (!this.#authenticated) return this.#authenticateWith(raw, text);
    if (raw === undefined) return this.#frameError('INVALID_PARAMETER', 'A frame must be one JSON object.');
    const call = wellFormedCall(raw);
    if (call) {
      if (!this.#batching) this.#batching = asksForBatchedFrames(raw);
      return this.#startCall(call.id, call.op, call.input, utf8Length(text));
    }
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success) {
      const id = idOf(raw);
      const issue = parsed.error.issues[0];
      const message = `Invalid frame${issue ? ` (${issue.path.join('.') || 'frame'}: ${issue.message})` : ''}; expected {"type":"call","id":N,"op":"…","input":{…}}, cancel, subscribe or unsubscribe.`;
      // Answer the call it meant to be, unless that id already belongs to a call (it gets one answer only).
      if (id !== undefined && !this.#calls.has(id)) this.#sendResult(id, failure('INVALID_PARAMETER', message));
      else this.#frameError('INVALID_PARAMETER', message);
      return;
    }
    const frame = parsed.data;
    switch (frame.type) {
      case 'call':
        if (!this.#batching) this.#batching = asksForBatchedFrames(raw);
        return this.#startCall(frame.id, frame.op, frame.input, utf8Length(text));
      case 'cancel':
        cancelCall(this.#calls.get(frame.id));
        return;
      case 'credit':
        return this.#grant(frame.id, frame.count);
      case 'subscribe':
        return this.#subscribe();
      case 'unsubscribe':
        this.#unsubscribe?.();
        this.#unsubscribe = undefined;
        return;
      case 'auth':
        return this.#frameError('INVALID_PARAMETER', 'This connection is authenticated already.');
    }
  }

  closed(reason?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#authTimer);
    // Every call still running learns it now: a receive waiting or delivering gives its message back.
    for (const call of this.#calls.values()) cancelCall(call);
    for (const wake of this.#waitingForRoom) wake();
    this.#waitingForRoom.clear();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    try {
      this.#handler.closed?.();
    } catch (error) {
      this.#log.error({ ...this.#context(), ...describeFailure(error) }, 'closing a connection failed');
    }
    if (reason) this.#log.info({ ...this.#context(), reason }, 'connection closed');
  }

  // ── authentication ─────────────────────────────────────────────────────────────────────────────────

  #authenticateWith(raw: unknown, text: string): void {
    const token = presentedToken(raw, text);
    if (token === undefined || !(this.#authenticate as (token: string) => boolean)(token)) {
      return this.#refuse(
        token !== undefined
          ? 'The token was refused.'
          : 'The first frame must be {"type":"auth","token":…} (or send the token as Authorization: Bearer).',
      );
    }
    this.#authenticated = true;
    clearTimeout(this.#authTimer);
    // #send has logged why a frame could not leave; the connection is closing, nobody else to tell.
    this.#send('{"type":"ready"}').catch(() => undefined);
  }

  #refuse(message: string): void {
    if (this.#closed) return;
    this.#log.warn({ ...this.#context() }, `unauthenticated connection refused: ${message}`);
    this.closed();
    const text = JSON.stringify({ type: 'error', error: { code: 'UNAUTHORIZED', message } });
    const close = (): void => this.#transport.close(CLOSE_UNAUTHORIZED, 'unauthorized');
    this.#transport.send(text).then(close, close);
  }

  // ── calls ──────────────────────────────────────────────────────────────────────────────────────────

  #startCall(id: number, op: string, input: unknown, inputBytes: number): void {
    if (this.#calls.has(id)) return this.#frameError('INVALID_PARAMETER', `Call id ${id} is already in flight.`);
    if (this.#calls.size >= this.#limits.maxCallsInFlight) {
      return this.#sendResult(
        id,
        failure(
          'TOO_MANY_CALLS',
          `This connection has ${this.#calls.size} calls in flight, the most it may; wait for some to answer.`,
        ),
      );
    }
    const call: Call = {
      id,
      op,
      aborter: null,
      cancelled: false,
      inputBytes,
      prepared: false,
      answered: false,
      lost: false,
      credit: 0,
      creditWaiters: new Set(),
    };
    this.#calls.set(id, call);
    this.#inputBytes += inputBytes;
    this.#adjustReading();
    this.#run(call, input)
      .finally(() => {
        this.#calls.delete(id);
        this.#inputBytes -= inputBytes;
        this.#adjustReading();
      })
      .catch((error: unknown) =>
        this.#log.error({ ...this.#context(), op, ...describeFailure(error) }, 'a call failed outside its envelope'),
      );
  }

  async #run(call: Call, input: unknown): Promise<void> {
    let envelope: Envelope<unknown>;
    try {
      if (this.#handler.isDestructive?.(call.op)) await this.#roomToDeliver(call);
      envelope = await this.#handler.call(
        call.op,
        input ?? {},
        new CallContext(call, (value) => this.#deliver(call, value), {
          credit: () => call.credit,
          ready: () => this.#streamReady(call),
          prepare: (value) => this.#prepareItem(call, value),
        }),
      );
    } catch (error) {
      const known = error instanceof QkError;
      if (!known) this.#log.error({ ...this.#context(call), ...describeFailure(error) }, 'call failed unexpectedly');
      envelope = known
        ? failure(error.code, error.message)
        : failure('INTERNAL', `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!call.answered) {
      call.answered = true;
      return this.#sendResult(call.id, envelope);
    }
    // Its result went out already (a receive); it gets no second answer.
    if (!envelope.ok && !call.lost)
      this.#log.warn({ ...this.#context(call), error: envelope.error }, 'call failed after its reply was sent');
  }

  /** A destructive call starts only once the reader has taken enough of what it was sent. */
  #roomToDeliver(call: Call): Promise<void> {
    if (this.#roomForRemovals()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const wake = (): void => {
        this.#waitingForRoom.delete(wake);
        signalOf(call).removeEventListener('abort', wake);
        if (call.cancelled) reject(cancelled(call.op));
        else resolve();
      };
      this.#waitingForRoom.add(wake);
      signalOf(call).addEventListener('abort', wake, { once: true });
    });
  }

  async #deliver(call: Call, value: unknown): Promise<() => Promise<void>> {
    if (call.prepared || call.answered) throw new QkError('INTERNAL', `Call ${call.id} was answered already.`);
    // What is committed before it is written must not pile up unread: a reply is prepared only while the
    // reader keeps up (a receive holds its message meanwhile; if the reader is gone, the message goes back).
    await this.#roomToDeliver(call);
    if (this.#closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed before the reply left.');
    if (call.cancelled) throw cancelled(call.op);
    const result = resultText(call.id, { ok: true, value }, this.#limits.maxReplyBytes);
    if ('error' in result) throw result.error;
    call.prepared = true;
    return async () => {
      call.answered = true;
      try {
        await this.#send(result.text);
      } catch (error) {
        call.lost = true;
        // The caller has committed what this reply carried (a receive's removal): say so loudly.
        this.#log.error(
          { ...this.#context(call), ...describeFailure(error) },
          'a reply could not be written after its call took effect (the connection closed): it is lost to this caller',
        );
        throw error;
      }
    };
  }

  // ── streamed calls ─────────────────────────────────────────────────────────────────────────────────

  /** Credit for a call's stream; credit for a call that has ended (or never was) is ignored. */
  #grant(id: number, count: number): void {
    const call = this.#calls.get(id);
    if (!call || call.answered) return;
    if (call.credit + count > MAX_CREDIT)
      return this.#frameError('INVALID_PARAMETER', `A call may hold at most ${MAX_CREDIT} items of credit.`);
    call.credit += count;
    for (const wake of [...call.creditWaiters]) wake();
  }

  #streamReady(call: Call): Promise<void> {
    if (call.cancelled || this.#closed) return Promise.reject(cancelled(call.op));
    if (call.credit > 0 && this.#roomForRemovals()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (call.cancelled || this.#closed) {
          stop();
          reject(cancelled(call.op));
        } else if (call.credit > 0 && this.#roomForRemovals()) {
          stop();
          resolve();
        }
      };
      const stop = (): void => {
        call.creditWaiters.delete(check);
        this.#waitingForRoom.delete(check);
        signalOf(call).removeEventListener('abort', check);
      };
      call.creditWaiters.add(check);
      // Woken as the reader catches up, too: credit without room is no use yet.
      this.#waitingForRoom.add(check);
      signalOf(call).addEventListener('abort', check, { once: true });
    });
  }

  async #prepareItem(call: Call, value: unknown): Promise<() => Promise<void>> {
    if (call.prepared || call.answered) throw new QkError('INTERNAL', `Call ${call.id} was answered already.`);
    if (this.#closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed before the item left.');
    if (call.cancelled) throw cancelled(call.op);
    if (call.credit <= 0) throw new QkError('INTERNAL', `Call ${call.id} has no credit for another item.`);
    let text: string;
    try {
      text = JSON.stringify({ type: 'item', id: call.id, value });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new QkError('INSUFFICIENT_RESOURCES', `The item could not be serialized (${why}).`);
    }
    // Counting UTF-8 bytes is needed only where the text could be too large at 3 bytes a code unit.
    if (text.length * 3 > this.#limits.maxReplyBytes && utf8Length(text) > this.#limits.maxReplyBytes)
      throw new QkError('INSUFFICIENT_RESOURCES', 'An item is larger than a reply may be.');
    call.credit--;
    return async () => {
      try {
        await this.#send(text);
      } catch (error) {
        this.#log.error(
          { ...this.#context(call), ...describeFailure(error) },
          'an item could not be written after its call took effect (the connection closed): it is lost to this caller',
        );
        throw error;
      }
    };
  }

  // ── sending ────────────────────────────────────────────────────────────────────────────────────────

  /** Sends a result; a result that cannot be serialized or is too large becomes an error result. */
  #sendResult(id: number, envelope: Envelope<unknown>): void {
    let result = resultText(id, envelope, this.#limits.maxReplyBytes);
    if ('error' in result) {
      this.#log.warn({ ...this.#context(), callId: id, reason: result.error.message }, 'reply replaced by an error');
      result = resultText(id, failure(result.error.code, result.error.message), this.#limits.maxReplyBytes);
    }
    if ('error' in result) return; // Unreachable: an error envelope is small and serializable.
    // #send has logged a frame that could not leave; the connection is gone, nobody else to tell.
    void this.#send(result.text).catch(() => undefined);
  }

  #frameError(code: ErrorBody['code'], message: string): void {
    void this.#send(JSON.stringify({ type: 'error', error: { code, message } })).catch(() => undefined);
  }

  #subscribe(): void {
    if (this.#unsubscribe) return;
    if (!this.#handler.subscribe) return this.#frameError('INVALID_PARAMETER', 'This connection has no events.');
    this.#unsubscribe = this.#handler.subscribe((event) => this.#sendEvent(event));
  }

  /** Events go to a reader that keeps up; one that is behind is told how many it missed once it catches up. */
  #sendEvent(event: unknown): void {
    if (this.#closed) return;
    if (this.#overHighWater()) {
      this.#eventsLost++;
      return;
    }
    this.#flushEventsLost();
    let text: string;
    try {
      text = JSON.stringify({ type: 'event', event });
    } catch (error) {
      this.#log.error({ ...this.#context(), ...describeFailure(error) }, 'an event could not be serialized');
      return;
    }
    void this.#send(text).catch(() => undefined);
  }

  #flushEventsLost(): void {
    if (this.#eventsLost === 0 || !this.#unsubscribe) return;
    const count = this.#eventsLost;
    this.#eventsLost = 0;
    void this.#send(JSON.stringify({ type: 'eventsLost', count })).catch(() => undefined);
  }

  /**
   * Every frame leaves through here; to a client that reads `frames` frames, with the others of its turn.
   * Failures are logged, never thrown past the caller's catch.
   */
  async #send(text: string): Promise<void> {
    if (!this.#batching) return this.#write(text);
    // #write says so too, but only at the flush: nothing is queued for a connection that is gone.
    if (this.#closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed before the reply left.');
    return this.#batched(text);
  }

  /** Adds a frame to this turn's `frames` frame; resolves once that is written. */
  #batched(text: string): Promise<void> {
    if (text.length > BATCH_FRAME_CHARS) {
      this.#flush();
      return this.#write(text);
    }
    let batch = this.#batch;
    if (batch && batch.frames.length >= BATCH_FRAMES) {
      this.#flush();
      batch = null;
    }
    if (!batch) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const written = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const started: FrameBatch = { frames: [], written, resolve, reject };
      batch = this.#batch = started;
      // Once the promise jobs already queued have run: the hundred replies a commit releases go together.
      queueMicrotask(() => {
        if (this.#batch === started) this.#flush();
      });
    }
    batch.frames.push(text);
    return batch.written;
  }

  #flush(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = null;
    const [only] = batch.frames;
    const text =
      batch.frames.length === 1 && only !== undefined ? only : `{"type":"frames","frames":[${batch.frames.join(',')}]}`;
    this.#write(text).then(batch.resolve, batch.reject);
  }

  async #write(text: string): Promise<void> {
    if (this.#closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed before the reply left.');
    try {
      const sending = this.#transport.send(text);
      this.#adjustReading();
      await sending;
    } catch (error) {
      this.#log.info({ ...this.#context(), ...describeFailure(error) }, 'a frame could not be sent');
      // A transport fails a send only once its connection is gone. Its close may be reported later, after its
      // buffer has emptied: calls waiting for room must not take that for a reader catching up and commit
      // removals whose replies can no longer leave. So the connection counts as closed from here.
      this.closed('a frame could not be sent');
      throw new QkError('SERVICE_NOT_AVAILABLE', 'The connection closed before the reply left.');
    } finally {
      this.#adjustReading();
    }
  }

  // ── backpressure ───────────────────────────────────────────────────────────────────────────────────

  #overHighWater(): boolean {
    return this.#transport.bufferedBytes() > this.#limits.highWaterBytes;
  }

  /** Whether a reply that takes messages away may be prepared now (deliverHighWaterBytes, never above the other). */
  #roomForRemovals(): boolean {
    const mark = Math.min(this.#limits.deliverHighWaterBytes, this.#limits.highWaterBytes);
    return this.#transport.bufferedBytes() <= mark;
  }

  /** Reading stops while the reader is behind or inputs in flight are too large; it resumes below half. */
  #adjustReading(): void {
    if (this.#closed) return;
    const buffered = this.#transport.bufferedBytes();
    const behind = buffered > this.#limits.highWaterBytes || this.#inputBytes > this.#limits.maxInputBytesInFlight;
    const caughtUp =
      buffered <= this.#limits.highWaterBytes / 2 && this.#inputBytes <= this.#limits.maxInputBytesInFlight / 2;
    if (this.#reading && behind) {
      this.#reading = false;
      this.#transport.setReading(false);
    } else if (!this.#reading && caughtUp) {
      this.#reading = true;
      this.#transport.setReading(true);
    }
    if (this.#roomForRemovals()) for (const wake of [...this.#waitingForRoom]) wake();
    if (!this.#overHighWater()) this.#flushEventsLost();
  }

  #context(call?: Call): object {
    return {
      ...(this.#connection ? { connection: this.#connection } : {}),
      ...(call ? { callId: call.id, op: call.op } : {}),
    };
  }
}

/**
 * What a handler gets of its call. A class, for its getter: an object literal with a getter took V8 about
 * 0.6 µs to make, for every call (issue 11).
 */
class CallContext implements RpcCallContext {
  constructor(
    private readonly call: Call,
    readonly deliver: RpcCallContext['deliver'],
    readonly stream: RpcStream,
  ) {}

  get signal(): AbortSignal {
    return signalOf(this.call);
  }

  get id(): number {
    return this.call.id;
  }
}

/**
 * A call's abort signal, made the first time it is asked for — a receive that waits, a handler that passes it
 * on — and aborted at once if the call was cancelled before. A send never asks: no AbortController per call.
 */
function signalOf(call: Call): AbortSignal {
  if (!call.aborter) {
    call.aborter = new AbortController();
    if (call.cancelled) call.aborter.abort();
  }
  return call.aborter.signal;
}

function cancelCall(call: Call | undefined): void {
  if (!call || call.cancelled) return;
  call.cancelled = true;
  call.aborter?.abort();
}

function failure(code: ErrorBody['code'], message: string): Envelope<never> {
  return { ok: false, error: { code, message } };
}

function cancelled(op: string): QkError {
  return new QkError('OPERATION_CANCELLED', `The ${op} call was cancelled.`);
}
