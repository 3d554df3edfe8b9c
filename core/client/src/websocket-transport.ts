/**
 * Calls and events over one WebSocket, through the call protocol of core/rpc: any number of calls in flight
 * (past the service's limit they wait here), results in any order, and cancel — a cancelled receive takes
 * nothing; one whose message was already on its way resolves with it rather than lose it.
 */
import type WebSocket from 'ws';
import { eventSchema, WEBSOCKET_PATH, type QkEvent } from '@qk/api';
import { QkError } from '@qk/model';
import { RpcClient, type RpcStreamCall } from '@qk/rpc';
import { wsTransport } from '@qk/rpc/node';
import { SendCoalescer } from './send-coalescer.js';
import { unreachable, unwrap, type Transport } from './transport.js';

/** The WebSocket URL of a service URL. */
export function websocketUrl(url: string): string {
  return `${url.replace(/^http/, 'ws')}${WEBSOCKET_PATH}`;
}

/** A reply may be as large as the service sends (one message at MaxMessageSize, escaped twice). */
const MAX_INCOMING_FRAME_BYTES = 64 * 1024 * 1024;

/** One open WebSocket connection to a service. */
export class WebSocketTransport implements Transport {
  readonly #ws: WebSocket;
  readonly #rpc: RpcClient;
  readonly #sends: SendCoalescer;
  #closed: Promise<void>;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    const transport = wsTransport(ws);
    this.#rpc = new RpcClient(transport);
    this.#sends = new SendCoalescer(async (op, input) => unwrap(await this.#rpc.call(op, input)));
    this.#closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data: Buffer) => this.#rpc.frame(data.toString('utf8')));
    ws.on('close', (code, reason) =>
      this.#rpc.closed(
        `The connection to the service closed (${code}${reason.length ? ` ${reason.toString()}` : ''}).`,
      ),
    );
    ws.on('error', () => {
      // 'close' follows and fails what is pending.
    });
  }

  /** Opens the connection; rejects with UNAUTHORIZED for a wrong token, SERVICE_NOT_AVAILABLE when nobody answers. */
  static async open(
    url: string,
    token: string,
    options: { unreachableHint?: string | undefined } = {},
  ): Promise<WebSocketTransport> {
    const hint = options.unreachableHint ?? `No Queuekeeper service is answering at ${url}`;
    const { default: WebSocketClass } = await import('ws');
    return new Promise((resolve, reject) => {
      const ws = new WebSocketClass(websocketUrl(url), {
        headers: { authorization: `Bearer ${token}` },
        perMessageDeflate: false,
        maxPayload: MAX_INCOMING_FRAME_BYTES,
      });
      const fail = (error: QkError): void => {
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
        reject(error);
      };
      ws.once('open', () => {
        ws.removeAllListeners();
        resolve(new WebSocketTransport(ws));
      });
      ws.once('unexpected-response', (_request, response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        fail(
          status === 401
            ? new QkError('UNAUTHORIZED', `The service at ${url} refused the token.`)
            : status === 403
              ? new QkError('ACCESS_DENIED', `The service at ${url} refused this connection (HTTP 403).`)
              : unreachable(`${hint}: HTTP ${status} instead of a WebSocket`, undefined),
        );
      });
      ws.once('error', (error) => fail(unreachable(hint, error)));
    });
  }

  async call(op: string, input: unknown, signal?: AbortSignal): Promise<unknown> {
    // A send that can be cancelled keeps a call of its own, so its cancel frame names it alone.
    if (op === 'send' && signal === undefined) return this.#sends.send(input);
    this.#sends.flush();
    return unwrap(await this.#rpc.call(op, input, signal));
  }

  /** A streamed call (a streaming receive): items as they come, within the credit granted. */
  stream(
    op: string,
    input: unknown,
    options: { credit: number; onItem: (value: unknown) => void; signal?: AbortSignal | undefined },
  ): RpcStreamCall {
    this.#sends.flush();
    return this.#rpc.stream(op, input, options);
  }

  /** Receives every engine event until the returned disposer is called (events this client cannot read are skipped). */
  subscribe(listener: (event: QkEvent) => void): () => void {
    return this.#rpc.subscribe((raw) => {
      const parsed = eventSchema.safeParse(raw);
      if (parsed.success) listener(parsed.data);
    });
  }

  /** Told when the service dropped events because this client read too slowly. */
  onEventsLost(listener: (count: number) => void): () => void {
    return this.#rpc.onEventsLost(listener);
  }

  /** Calls waiting for their result. */
  get inFlight(): number {
    return this.#rpc.inFlight;
  }

  async close(): Promise<void> {
    if (this.#ws.readyState === this.#ws.CLOSED) return;
    this.#sends.flush();
    this.#ws.close(1000, 'client closing');
    const timer = setTimeout(() => this.#ws.terminate(), 1_000);
    await this.#closed;
    clearTimeout(timer);
  }
}
