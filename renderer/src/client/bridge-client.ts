/** ConsoleClient over the Electron preload bridge (`window.queuekeeper`). */
import { operationNames, type ApiClient, type OperationName, type QueuekeeperBridge } from '@qk/api';
import { ApiError, unwrap, type ConsoleClient, type EventListener } from './console-client.js';

/** Wraps the preload bridge: envelopes become values or ApiErrors. */
export function createBridgeClient(bridge: QueuekeeperBridge): ConsoleClient {
  let closed = false;
  const disposers = new Set<() => void>();
  const api = {} as Record<OperationName, (input: unknown) => Promise<unknown>>;
  for (const name of operationNames) {
    api[name] = async (input: unknown) => {
      if (closed)
        throw new ApiError({ code: 'SERVICE_NOT_AVAILABLE', message: 'The connection to the service is closed.' });
      const call = bridge[name] as (input: unknown) => Promise<Parameters<typeof unwrap>[0]>;
      return unwrap(await call(input ?? {}));
    };
  }
  return {
    ...(api as unknown as ApiClient),
    subscribe(listener: EventListener) {
      const dispose = bridge.onEvent(listener);
      disposers.add(dispose);
      return () => {
        disposers.delete(dispose);
        dispose();
      };
    },
    close() {
      closed = true;
      for (const dispose of disposers) dispose();
      disposers.clear();
    },
  };
}
