/**
 * A ConsoleClient on the real queue manager, in process: every operation goes through ServiceHost.call
 * (the contract's schemas, the engine, SQLite in a temp folder), so store and component tests see exactly
 * the rules the service applies — nothing restated here can drift from the engine. Each operation is a
 * vitest spy (calls can be counted and one answer replaced); a few knobs let tests hold browse answers
 * and inject events.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi, type Mock } from 'vitest';
import { operationNames, type ApiClient, type OperationName, type QkEvent } from '@qk/api';
import { ServiceHost } from '@qk/service';
import { unwrap, type ConsoleClient } from '../../../../renderer/src/client/console-client.js';

/** Every operation as a spy with the contract's signature. */
export type SpiedApi = { [N in OperationName]: Mock<ApiClient[N]> };

/** The client and its knobs. */
export type EngineClient = SpiedApi & {
  subscribe: ConsoleClient['subscribe'];
  close: Mock<() => void>;
  /** The computer name the queue manager was opened with. */
  name: string;
  /** Hands an event to the console's listeners as if the service had sent it. */
  emit(event: QkEvent): void;
  /** While true, browse answers wait for releaseBrowse() (to test what is in flight). */
  holdBrowse: boolean;
  releaseBrowse(): void;
  /** Starts this computer's networking without a peer listener (peers, routes, outgoing queues, offline mode). */
  startNetwork(): Promise<void>;
  /** Closes the queue manager and removes its folder. */
  dispose(): Promise<void>;
};

const open = new Set<EngineClient>();

/** Opens a queue manager named `name` on a fresh temp folder and returns a console client for it. */
export function createEngineClient(name = 'ALPHA'): EngineClient {
  const dataDir = mkdtempSync(join(tmpdir(), 'qk-renderer-'));
  const host = ServiceHost.open({ dataDir, name });
  const listeners = new Set<(event: QkEvent) => void>();
  const held: Array<() => void> = [];
  const unsubscribeHost = host.subscribe((event) => listeners.forEach((l) => l(event)));

  function spy<N extends OperationName>(op: N): Mock<ApiClient[N]> {
    const call = async (input: Parameters<ApiClient[N]>[0]) => {
      if (op === 'browse' && client.holdBrowse) await new Promise<void>((resolve) => held.push(resolve));
      return unwrap(await host.call(op, input)) as Awaited<ReturnType<ApiClient[N]>>;
    };
    return vi.fn(call as ApiClient[N]);
  }
  const api = Object.fromEntries(operationNames.map((op) => [op, spy(op)])) as SpiedApi;

  const client: EngineClient = {
    ...api,
    name,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: vi.fn(),
    emit: (event) => listeners.forEach((l) => l(event)),
    holdBrowse: false,
    releaseBrowse: () => held.splice(0).forEach((release) => release()),
    startNetwork: async () => void (await host.startNetwork({})),
    async dispose() {
      open.delete(client);
      client.holdBrowse = false;
      client.releaseBrowse();
      unsubscribeHost();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  // The contract's check: a missing or mistyped operation fails to compile here, not at run time.
  client satisfies ConsoleClient;
  open.add(client);
  return client;
}

/** Closes every client a test opened (call in afterEach). */
export async function disposeEngineClients(): Promise<void> {
  await Promise.all([...open].map((c) => c.dispose()));
}
