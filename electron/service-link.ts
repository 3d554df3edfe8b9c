/**
 * The desktop app on a data folder whose service already runs (`qk service start`, `npm start`, a system
 * service): one computer has one queue manager, so the app uses that service through its loopback API rather
 * than start a second one on the same folder (which the data-folder lock would refuse anyway).
 */
import { toErrorBody, type OperationName } from '@qk/api';
import { isQkError, QkClient, readServiceEndpoint, type ServiceEndpoint } from '@qk/client';
import type { HostApi } from './host-protocol.js';

/** The live service of `dataDir`, or null when none runs there (no service.json, or its process is gone). */
export function runningService(dataDir: string): ServiceEndpoint | null {
  try {
    return readServiceEndpoint(dataDir);
  } catch (error) {
    // Any other failure (a token only the service's user may read) is the user's to know, not a reason to start.
    if (isQkError(error) && error.code === 'SERVICE_NOT_AVAILABLE') return null;
    throw error;
  }
}

/**
 * What the app's bridge calls, over one WebSocket to the running service. `stop()` only closes the connection:
 * the service belongs to whoever started it and goes on when the app quits.
 */
export async function connectToService(endpoint: ServiceEndpoint): Promise<HostApi> {
  const client = await QkClient.connect({
    url: endpoint.url,
    token: endpoint.token,
    transport: 'ws',
    unreachableHint: endpoint.unreachableHint,
  });
  return {
    async call(op, input, signal) {
      try {
        // The IPC handler has checked `op` against the contract; the service checks the input.
        return { ok: true, value: await client.call(op as OperationName, input as never, { signal }) };
      } catch (error) {
        return { ok: false, error: toErrorBody(error) };
      }
    },
    subscribe: (listener) => client.subscribe(listener),
    stop: () => client.close(),
  };
}
