/**
 * Messages between the Electron main process and the utility process that hosts the service. Calls,
 * results, cancels and events are core/rpc frames (`frame`); the rest is the process's life cycle.
 */
import type { Envelope, QkEvent } from '@qk/api';

/** Main → host. */
export type ToHost = { type: 'frame'; text: string } | { type: 'stop' };

/** Host → main. */
export type FromHost =
  | { type: 'ready'; name: string; id: string; url: string }
  | { type: 'failed'; message: string }
  | { type: 'frame'; text: string }
  | { type: 'stopped' };

/** What the main process needs of the host, wherever it runs. */
export interface HostApi {
  /** Resolves with the call's envelope; aborting the signal cancels it in the service (a receive takes nothing). */
  call(op: string, input: unknown, signal?: AbortSignal): Promise<Envelope<unknown>>;
  subscribe(listener: (event: QkEvent) => void): () => void;
  stop(): Promise<void>;
}
