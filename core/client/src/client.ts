/** The typed Queuekeeper client: one method per operation of the contract, over HTTP or WebSocket. */
import type { ApiClient, OperationInput, OperationName, OperationOutput, QkEvent, Unsubscribe } from '@qk/api';
import type { MessageInfo } from '@qk/model';
import { startConsumer, type ConsumeOptions, type Consumer } from './consumer.js';
import { consumerIterator, deferredConsumer } from './consumer-helpers.js';
import { OPERATION_NAMES } from './contract.js';
import { readServiceEndpoint } from './data-dir.js';
import { HttpTransport, requestConsoleLink } from './http-transport.js';
import { normalizeUrl, type Transport } from './transport.js';
import type { WebSocketTransport } from './websocket-transport.js';

/** Loaded on first use (with ws and the frame schemas): a one-shot HTTP caller never pays for it. */
async function openWebSocket(
  url: string,
  token: string,
  unreachableHint: string | undefined,
): Promise<WebSocketTransport> {
  const { WebSocketTransport: Transport } = await import('./websocket-transport.js');
  return Transport.open(url, token, { unreachableHint });
}

/** How to reach a service. */
export interface ConnectOptions {
  /** `http://HOST:PORT` of the service. */
  url: string;
  token: string;
  /** `http` (default): a request per call. `ws`: one connection, many calls in flight, transactions tied to it. */
  transport?: 'http' | 'ws' | undefined;
  /** The message of SERVICE_NOT_AVAILABLE when nobody answers (e.g. naming the data folder). */
  unreachableHint?: string | undefined;
}

/** Per-call options. */
export interface CallOptions {
  /**
   * Cancels the call. Over WebSocket the service is told (a `cancel` frame) and the call ends with its final
   * answer: OPERATION_CANCELLED when the cancel came in time (a cancelled receive takes nothing), else the
   * call's own result — a message already on its way is handed over, not lost. Over HTTP the request is
   * closed: a waiting receive stops, but a reply the service had already written cannot be taken back.
   */
  signal?: AbortSignal | undefined;
}

// The interface half of the class: every contract operation as a method (assigned in the constructor), but
// `consume`, a streamed operation, which is the consumer below.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface QkClient extends Omit<ApiClient, 'consume'> {}

/** A client of one service. Calls throw QkError with the service's code; close() when done. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class QkClient {
  readonly url: string;
  readonly transportKind: 'http' | 'ws';
  readonly #token: string;
  readonly #transport: Transport;
  readonly #unreachableHint: string | undefined;
  #events: Promise<WebSocketTransport> | undefined;
  #closed = false;

  private constructor(
    url: string,
    token: string,
    transport: Transport,
    events: WebSocketTransport | undefined,
    unreachableHint: string | undefined,
  ) {
    this.url = url;
    this.#token = token;
    this.#transport = transport;
    this.transportKind = events ? 'ws' : 'http';
    this.#unreachableHint = unreachableHint;
    if (events) this.#events = Promise.resolve(events);
    const self = this as unknown as Record<string, (input?: unknown) => Promise<unknown>>;
    for (const name of OPERATION_NAMES) {
      if (name === 'consume') continue;
      self[name] = (input?: unknown) => this.#transport.call(name, input ?? {});
    }
  }

  /** Connects to a service by URL and token. For `ws` the connection is opened (and checked) before this resolves. */
  static async connect(options: ConnectOptions): Promise<QkClient> {
    const url = normalizeUrl(options.url);
    if (options.transport === 'ws') {
      const socket = await openWebSocket(url, options.token, options.unreachableHint);
      return new QkClient(url, options.token, socket, socket, options.unreachableHint);
    }
    const http = new HttpTransport(url, options.token, { unreachableHint: options.unreachableHint });
    return new QkClient(url, options.token, http, undefined, options.unreachableHint);
  }

  /**
   * Connects to the service running on a data folder, through the service.json and token it writes there.
   * SERVICE_NOT_AVAILABLE "No service is running on DIR …" when there is none or it does not answer.
   */
  static async fromDataDir(
    dataDir: string,
    options: { transport?: ConnectOptions['transport'] } = {},
  ): Promise<QkClient> {
    const endpoint = readServiceEndpoint(dataDir);
    return QkClient.connect({
      url: endpoint.url,
      token: endpoint.token,
      transport: options.transport,
      unreachableHint: endpoint.unreachableHint,
    });
  }

  /** Calls one operation by name (what the generated methods do), with per-call options. */
  call<N extends OperationName>(
    op: N,
    input: OperationInput<N>,
    options: CallOptions = {},
  ): Promise<OperationOutput<N>> {
    return this.#transport.call(op, input, options.signal) as Promise<OperationOutput<N>>;
  }

  /** Receives every event of the service (queue counters, arrivals, removals, settings, restarts). */
  subscribe(listener: (event: QkEvent) => void): Unsubscribe {
    this.#events ??= openWebSocket(this.url, this.#token, this.#unreachableHint);
    let dispose: (() => void) | undefined;
    let cancelled = false;
    this.#events.then(
      (channel) => {
        if (!cancelled) dispose = channel.subscribe(listener);
      },
      () => {
        // No event channel: the caller's calls will report why the service is unreachable.
      },
    );
    return () => {
      cancelled = true;
      dispose?.();
    };
  }

  /**
   * A streaming receive (issue 11): the service pushes the queue's messages as they arrive and `handler` gets
   * them one at a time, in receive order; at most `credit` (default 100) are on their way at once. Without
   * `transactional` each message leaves the queue as it is sent; with it, messages are committed once the
   * handler is done with them (every `commitEvery`, default 1) and a handler that throws, or close(), puts
   * back what was not committed. Runs over a WebSocket (this client's, or one opened for it).
   */
  consume(path: string, options: ConsumeOptions, handler: (message: MessageInfo) => unknown): Consumer {
    this.#events ??= openWebSocket(this.url, this.#token, this.#unreachableHint);
    return deferredConsumer(this.#events, (channel) => startConsumer(channel, path, options, handler));
  }

  /**
   * The queue's messages as an async iterator, over a streaming receive. A message counts as handled once
   * the loop asks for the next one; leaving the loop stops the stream. Without a transaction the default
   * credit is 1, so leaving the loop leaves every message not yet handed to it in the queue; in a
   * transaction the last message, not committed, goes back.
   */
  messages(path: string, options: ConsumeOptions = {}): AsyncIterableIterator<MessageInfo> {
    const credit = options.credit ?? (options.transactional ? undefined : 1);
    return consumerIterator(options.transactional === true, (handler) =>
      this.consume(path, { ...options, credit }, handler),
    );
  }

  /**
   * A one-time link that opens the console in a browser: the service's URL with a code valid for a minute,
   * exchanged once for a browser session (the token itself never goes into a URL).
   */
  async consoleLink(): Promise<{ url: string; expiresInSeconds: number }> {
    return requestConsoleLink(this.url, this.#token, this.#unreachableHint);
  }

  /** Resolves once the event channel (opened by the first subscribe) is ready; rejects if it could not open. */
  async eventsReady(): Promise<void> {
    if (this.#events) await this.#events;
  }

  /**
   * Runs `work` in a transaction: begins it, commits when `work` resolves, aborts when it throws.
   * Over HTTP an idle transaction is aborted by the service after 5 minutes; over WebSocket when the connection closes.
   */
  async transaction<T>(work: (transaction: string) => Promise<T>): Promise<T> {
    const { transaction } = await this.transactionBegin({});
    let result: T;
    try {
      result = await work(transaction);
    } catch (error) {
      // The work's own error is what the caller needs; an abort that fails too (connection gone) changes nothing:
      // the service aborts an abandoned transaction itself.
      await this.transactionAbort({ transaction }).catch(() => undefined);
      throw error;
    }
    await this.transactionCommit({ transaction });
    return result;
  }

  /** Closes the connections of this client. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // An event channel that never opened (or already broke) has nothing to close.
    const events = this.#events?.then((channel) => channel.close()).catch(() => undefined);
    await Promise.all([this.#transport.close(), events]);
  }
}
