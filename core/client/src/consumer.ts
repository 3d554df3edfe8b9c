/**
 * The client end of a streaming receive (issue 11): the service pushes a queue's messages as they arrive,
 * never more on their way than the credit this consumer grants; the handler sees them one at a time, in
 * receive order, and credit goes back as it finishes each. A transactional consumer commits what it handled
 * (one by one, or every `commitEvery`); a handler that throws puts back what was not committed.
 */
import { QkError, type Envelope, type MessageInfo, type MessageProperty } from '@qk/model';

/** How a consumer takes messages. */
export interface ConsumeOptions {
  /** Messages on their way to this consumer at most (default 100, at most 1,000). */
  credit?: number | undefined;
  /**
   * Receive inside transactions this consumer commits once the handler has finished with messages: every
   * `commitEvery` messages, and whenever none is waiting. A handler that throws, or close() before a
   * commit, puts back what was not committed. The queue must be transactional (R-M4).
   */
  transactional?: boolean | undefined;
  /** Transactional: commit after this many handled messages (default 1: one by one). */
  commitEvery?: number | undefined;
  /** Take at most this many messages, then stop (credit never runs past it, so none is taken and left over). */
  max?: number | undefined;
  /**
   * The message properties the handler needs (with `id` and `lookupId`, always there); the others are left out
   * of every message, which spares the service and this end most of each message's cost. Default: all.
   */
  properties?: readonly MessageProperty[] | undefined;
  /**
   * Stop once the queue has had no message for this many milliseconds (0: take what is there, then stop), as a
   * receive's timeout does; `timedOut` then says so. Default: wait as long as the consumer runs.
   */
  timeoutMs?: number | undefined;
  /** Stops the consumer, as close() does. */
  signal?: AbortSignal | undefined;
}

/** A consumer under way. */
export interface Consumer {
  /** Messages the handler has finished with. */
  readonly handled: number;
  /** It stopped because the queue had no message for `timeoutMs` (known once `done` has resolved). */
  readonly timedOut: boolean;
  /**
   * Settles once the consumer has stopped: resolves after close() (or its signal) or its timeout, rejects with why it
   * stopped otherwise — the queue deleted, the connection lost, the handler threw.
   */
  readonly done: Promise<void>;
  /**
   * Stops taking messages. Without a transaction every message already on its way is still handed to the
   * handler (each left the queue as it was sent); in a transaction, what was handled is committed and the
   * rest goes back. Resolves when the consumer has stopped, as `done` does.
   */
  close(): Promise<void>;
}

/** What a consumer needs of its connection: a streamed call, and the calls that end a transaction's part. */
export interface StreamingTransport {
  stream(
    op: string,
    input: unknown,
    options: { credit: number; onItem: (value: unknown) => void; signal?: AbortSignal | undefined },
  ): { id: number; result: Promise<Envelope<unknown>>; grant(count: number): void };
  call(op: string, input: unknown, signal?: AbortSignal): Promise<unknown>;
}

export const DEFAULT_CREDIT = 100;
export const MAX_CREDIT = 1_000;

export function startConsumer(
  transport: StreamingTransport,
  path: string,
  options: ConsumeOptions,
  handler: (message: MessageInfo) => unknown,
): Consumer {
  const credit = options.credit ?? DEFAULT_CREDIT;
  if (!Number.isInteger(credit) || credit < 1 || credit > MAX_CREDIT)
    throw new QkError('INVALID_PARAMETER', `credit must be a whole number from 1 to ${MAX_CREDIT}.`);
  const commitEvery = options.commitEvery ?? 1;
  if (!Number.isInteger(commitEvery) || commitEvery < 1)
    throw new QkError('INVALID_PARAMETER', 'commitEvery must be a whole number of at least 1.');
  const max = options.max ?? Infinity;
  if (max !== Infinity && (!Number.isInteger(max) || max < 1))
    throw new QkError('INVALID_PARAMETER', 'max must be a whole number of at least 1.');
  return new StreamConsumer(
    transport,
    path,
    {
      credit,
      commitEvery,
      max,
      transactional: options.transactional === true,
      properties: options.properties,
      timeoutMs: options.timeoutMs,
    },
    handler,
    options.signal,
  );
}

/**
 * Why a consumer stopped when its handler threw. Without a transaction the messages already sent to it had
 * left their queue: those the handler never saw are here, not lost.
 */
export class ConsumerError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly unhandled: MessageInfo[],
  ) {
    super(`The consumer's handler failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ConsumerError';
  }
}

interface Settings {
  credit: number;
  commitEvery: number;
  max: number;
  transactional: boolean;
  properties: readonly MessageProperty[] | undefined;
  timeoutMs: number | undefined;
}

class StreamConsumer implements Consumer {
  readonly done: Promise<void>;
  #handled = 0;
  readonly #waiting: MessageInfo[] = [];
  readonly #aborter = new AbortController();
  readonly #stream: ReturnType<StreamingTransport['stream']>;
  /** Handled and not yet given back as credit (given back in batches, to spare frames). */
  #toGrant = 0;
  /** Credit granted so far, all told (never past `max`). */
  #granted: number;
  /** Handled and not yet committed (transactional). */
  #uncommitted = 0;
  #closing = false;
  /** Why the consumer stops early: its handler threw (`handler`), or a commit failed. */
  #failure: { error: unknown; handler: boolean } | undefined;
  #wake: (() => void) | undefined;
  #ended = false;
  #timedOut = false;

  private readonly transactional: boolean;

  constructor(
    private readonly transport: StreamingTransport,
    path: string,
    private readonly settings: Settings,
    private readonly handler: (message: MessageInfo) => unknown,
    signal: AbortSignal | undefined,
  ) {
    this.transactional = settings.transactional;
    this.#granted = Math.min(settings.credit, settings.max);
    this.#stream = transport.stream(
      'consume',
      {
        path,
        ...(settings.transactional ? { transactional: true } : {}),
        ...(settings.properties ? { properties: settings.properties } : {}),
        ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
      },
      { credit: this.#granted, onItem: (value) => this.#arrived(value as MessageInfo), signal: this.#aborter.signal },
    );
    // A close asked by the signal ends as `done` does, which the caller has.
    const closeQuietly = (): void => void this.close().catch(() => undefined);
    if (signal?.aborted) closeQuietly();
    else signal?.addEventListener('abort', closeQuietly, { once: true });
    this.done = this.#run();
    // Its owner may look only once the consumer has stopped: an early failure is not an unhandled one.
    this.done.catch(() => undefined);
  }

  get handled(): number {
    return this.#handled;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  async close(): Promise<void> {
    if (!this.#closing) {
      this.#closing = true;
      this.#nudge();
    }
    await this.done.catch(() => undefined);
    return this.done;
  }

  #arrived(message: MessageInfo): void {
    this.#waiting.push(message);
    this.#nudge();
  }

  #nudge(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async #run(): Promise<void> {
    let ended = false;
    const result = this.#stream.result.then((envelope) => {
      ended = true;
      this.#ended = true;
      this.#nudge();
      return envelope;
    });
    try {
      for (;;) {
        // In a transaction, what arrives once closing began is not handled: it goes back with the stream's end.
        const takeMore = !this.#closing || !this.transactional;
        const next = takeMore ? this.#waiting.shift() : undefined;
        if (next) {
          try {
            await this.handler(next);
          } catch (error) {
            this.#failure = { error, handler: true };
            break;
          }
          this.#handled++;
          this.#toGrant++;
          this.#uncommitted++;
          if (this.transactional && (this.#uncommitted >= this.settings.commitEvery || this.#waiting.length === 0))
            await this.#commit();
          if (this.#handled >= this.settings.max) this.#closing = true;
          this.#giveCredit();
          continue;
        }
        if (this.#closing && !this.#aborter.signal.aborted) {
          if (this.transactional && this.#uncommitted > 0) await this.#commit();
          this.#aborter.abort();
        }
        if (ended) break;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          if (this.#waiting.length > 0 || this.#ended || (this.#closing && !this.#aborter.signal.aborted))
            this.#nudge();
        });
      }
    } catch (error) {
      this.#failure ??= { error, handler: false };
    }
    if (this.#failure !== undefined) {
      // A transactional consumer's uncommitted messages go back with the end of its stream; without a
      // transaction, those already sent are the caller's: they go with the error.
      this.#aborter.abort();
      await result;
      if (!this.#failure.handler) throw this.#failure.error;
      throw new ConsumerError(this.#failure.error, this.transactional ? [] : this.#waiting.splice(0));
    }
    const envelope = await result;
    if (!envelope.ok && !(envelope.error.code === 'OPERATION_CANCELLED' && this.#closing))
      throw new QkError(envelope.error.code, envelope.error.message);
    if (envelope.ok) this.#timedOut = (envelope.value as { timedOut?: unknown }).timedOut === true;
  }

  /** Commits the messages handled since the last commit — the first ones sent, not those still waiting. */
  async #commit(): Promise<void> {
    const count = this.#uncommitted;
    this.#uncommitted = 0;
    if (count > 0) await this.transport.call('consumeCommit', { stream: this.#stream.id, count });
  }

  /**
   * Credit goes back in quarters of it (three quarters stay on their way, so the stream does not stall),
   * never past `max` all told.
   */
  #giveCredit(): void {
    if (this.#closing || this.#toGrant < Math.max(1, Math.floor(this.settings.credit / 4))) return;
    const count = Math.min(this.#toGrant, this.settings.max - this.#granted);
    this.#toGrant = 0;
    if (count <= 0) return;
    this.#granted += count;
    this.#stream.grant(count);
  }
}
