/** Messages between the Electron main process and the utility process that hosts the service. */
import type { Envelope, QkEvent } from '@qk/api';

/** Main → host. */
export type ToHost = { type: 'call'; id: number; op: string; input: unknown } | { type: 'stop' };

/** Host → main. */
export type FromHost =
  | { type: 'ready'; name: string; id: string; url: string }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; envelope: Envelope<unknown> }
  | { type: 'event'; event: QkEvent }
  | { type: 'stopped' };

/** What the main process needs of the host, wherever it runs. */
export interface HostApi {
  call(op: string, input: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (event: QkEvent) => void): () => void;
  stop(): Promise<void>;
}
