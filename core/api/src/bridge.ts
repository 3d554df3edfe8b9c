/**
 * What the Electron preload exposes on `window.queuekeeper`, the one definition the preload builds and the
 * console calls: one function per contract operation returning its envelope, and one event subscription.
 */
import type { Envelope, QkEvent } from '@qk/model';
import type { OperationInput, OperationName, OperationOutput } from './operations.js';
import type { Unsubscribe } from './events.js';

export type QueuekeeperBridge = {
  [N in OperationName]: (input: OperationInput<N>) => Promise<Envelope<OperationOutput<N>>>;
} & {
  onEvent: (listener: (event: QkEvent) => void) => Unsubscribe;
};
