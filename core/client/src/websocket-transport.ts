/**
 * Calls and events over one WebSocket: every call gets an id, so any number can be in flight and their
 * results may come back in any order.
 */
import type WebSocket from 'ws';
import { serverFrameSchema, WEBSOCKET_PATH, type QkEvent } from '@qk/api';
import { QkError } from '@qk/model';
import { unreachable, unwrap, type Transport } from './transport.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A frame's text, whichever of ws's buffer shapes it came in. */
function frameText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
}

/** The WebSocket URL of a service URL. */
export function websocketUrl(url: string): string {
  return `${url.replace(/^http/, 'ws')}${WEBSOCKET_PATH}`;
}

/** One open WebSocket connection to a service. */
export class WebSocketTransport implements Transport {
  readonly #ws: WebSocket;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(event: QkEvent) => void>();
  #nextId = 1;
  #closedError: QkError | undefined;
  #closed: Promise<void>;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    this.#closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data) => this.#onFrame(frameText(data)));
    ws.on('close', (code, reason) => {
      this.#closedError = new QkError(
        'SERVICE_NOT_AVAILABLE',
        `The connection to the service closed (${code}${reason.length ? ` ${reason.toString()}` : ''}).`,
      );
      for (const pending of this.#pending.values()) pending.reject(this.#closedError);
      this.#pending.clear();
    });
    ws.on('error', () => {
      // 'close' follows and rejects what is pending.
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
        maxPayload: 64 * 1024 * 1024,
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
            : unreachable(`${hint}: HTTP ${status} instead of a WebSocket`, undefined),
        );
      });
      ws.once('error', (error) => fail(unreachable(hint, error)));
    });
  }

  call(op: string, input: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      // Cancelling stops waiting here only: the frame protocol has no cancel, so the service finishes the call.
      const onAbort = (): void => {
        this.#pending.delete(id);
        reject(new QkError('OPERATION_CANCELLED', `The ${op} call was cancelled.`));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      this.#ws.send(JSON.stringify({ type: 'call', id, op, input: input ?? {} }), (error) => {
        if (error) this.#settle(id, (p) => p.reject(unreachable('Could not send to the service', error)));
      });
    });
  }

  /** Receives every engine event until the returned disposer is called. */
  subscribe(listener: (event: QkEvent) => void): () => void {
    if (this.#listeners.size === 0 && !this.#closedError) this.#ws.send(JSON.stringify({ type: 'subscribe' }));
    this.#listeners.add(listener);
    return () => {
      if (!this.#listeners.delete(listener)) return;
      if (this.#listeners.size === 0 && !this.#closedError && this.#ws.readyState === this.#ws.OPEN) {
        this.#ws.send(JSON.stringify({ type: 'unsubscribe' }));
      }
    };
  }

  /** Calls waiting for their result. */
  get inFlight(): number {
    return this.#pending.size;
  }

  async close(): Promise<void> {
    if (this.#ws.readyState === this.#ws.CLOSED) return;
    this.#ws.close(1000, 'client closing');
    const timer = setTimeout(() => this.#ws.terminate(), 1_000);
    await this.#closed;
    clearTimeout(timer);
  }

  #settle(id: number, action: (pending: Pending) => void): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    action(pending);
  }

  #onFrame(text: string): void {
    let frame;
    try {
      frame = serverFrameSchema.parse(JSON.parse(text));
    } catch {
      return; // A frame we do not understand (a newer service): ignore rather than tear down every call.
    }
    if (frame.type === 'event') {
      for (const listener of [...this.#listeners]) {
        try {
          listener(frame.event);
        } catch {
          // A throwing listener must not break the connection for the others.
        }
      }
      return;
    }
    this.#settle(frame.id, (pending) => {
      try {
        pending.resolve(unwrap(frame));
      } catch (error) {
        // unwrap throws the service's QkError; anything else is a bug here, still reported to the caller.
        pending.reject(error instanceof Error ? error : new QkError('INTERNAL', String(error)));
      }
    });
  }
}
