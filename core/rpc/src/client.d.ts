/**
 * The caller's end of one connection: correlates results by id, queues calls past the connection's limit
 * instead of having them refused, and cancels. A cancelled call that was sent waits for the service's final
 * answer: OPERATION_CANCELLED when the cancel came in time (a cancelled receive takes nothing), else the
 * call's own result — a message that was already on its way is handed over rather than lost.
 */
import { type Envelope } from '@qk/model';
import { type RpcLogger } from './logger.js';
import type { FrameSink, FrameTransport } from './transport.js';
export interface RpcClientOptions {
  logger?: RpcLogger | undefined;
  /** Calls sent at once; later ones wait here (default: what the service accepts per connection). */
  maxCallsInFlight?: number | undefined;
  /** Sends `{"type":"auth","token"}` first (transports that cannot carry a header: the browser's WebSocket). */
  token?: string | undefined;
}
/** Calls and events over one connection; the transport pushes its frames into this (it is the FrameSink). */
export declare class RpcClient implements FrameSink {
  #private;
  constructor(transport: FrameTransport, options?: RpcClientOptions);
  /** Resolves once the service accepted the connection (at once when it was authenticated by a header). */
  get ready(): Promise<void>;
  /** Calls sent and not yet answered, and calls waiting to be sent. */
  get inFlight(): number;
  /** Calls one operation; resolves with its envelope (never rejects: failures are envelopes too). */
  call(op: string, input: unknown, signal?: AbortSignal): Promise<Envelope<unknown>>;
  /** Receives every event until the returned disposer runs; the first listener subscribes the connection. */
  subscribe(listener: (event: unknown) => void): () => void;
  /** Told when the service dropped events because this reader was behind (refresh what you show). */
  onEventsLost(listener: (count: number) => void): () => void;
  frame(text: string): void;
  /** The connection ended: every call not answered fails (SERVICE_NOT_AVAILABLE unless told otherwise). */
  closed(reason?: string, code?: 'SERVICE_NOT_AVAILABLE' | 'UNAUTHORIZED'): void;
}
