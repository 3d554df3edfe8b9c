/**
 * The service's end of one connection: validates frames, runs calls, answers each exactly once, cancels,
 * limits calls in flight, and applies backpressure. No reply can crash the process: every send path catches,
 * answers with an error frame where it still can, and logs.
 */
import { type Envelope } from '@qk/model';
import { type ConnectionLimits } from './limits.js';
import { type RpcLogger } from './logger.js';
import type { FrameSink, FrameTransport } from './transport.js';
/** What a call gets from the connection besides its input. */
export interface RpcCallContext {
  /** Aborts when the client cancels the call or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * Sends the call's successful result now and resolves once the transport has taken it; rejects
   * (OPERATION_CANCELLED, SERVICE_NOT_AVAILABLE, INSUFFICIENT_RESOURCES) when it cannot, having sent nothing.
   * A receive commits its removal only after this resolves; what the call returns afterwards is not sent.
   */
  deliver(value: unknown): Promise<void>;
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
/** Serves one connection; the transport pushes its frames into the returned sink. */
export declare function serveRpc(transport: FrameTransport, options: RpcServerOptions): FrameSink;
