/** The one interface through which the console reaches a queue manager, whatever the transport. */
import type { ApiClient, Envelope, ErrorBody, QkEvent, Unsubscribe } from '@qk/api';

/** A listener of the service's typed events. */
export type EventListener = (event: QkEvent) => void;

/** Every API operation as an async method, plus the event subscription (with a disposer). */
export type ConsoleClient = ApiClient & {
  subscribe(listener: EventListener): Unsubscribe;
  /** Releases sockets; a closed client rejects further calls. */
  close(): void;
  /** Told when the event stream drops (false) and comes back (true); events in between are lost. */
  onConnectionChange?(listener: (connected: boolean) => void): Unsubscribe;
};

/** A failed operation with the service's stable error code, as it appears to the user. */
export class ApiError extends Error {
  readonly code: string;
  constructor(body: ErrorBody | { code: string; message: string }) {
    super(body.message);
    this.name = 'ApiError';
    this.code = body.code;
  }
}

/** Code and message of anything thrown by a client call, for the error banners. */
export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  if (error instanceof Error) return { code: 'INTERNAL', message: error.message };
  return { code: 'INTERNAL', message: String(error) };
}

/** Unwraps an envelope: the value, or an ApiError carrying the service's code. */
export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.ok) return envelope.value;
  throw new ApiError(envelope.error);
}
