import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { visibleTreeRows } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { eventually, flush } from '../support/timing.js';

afterEach(disposeEngineClients);

describe('Connect to another computer', () => {
  it('adds the remote service as a second root whose events update its own queues', async () => {
    const local = createEngineClient('ALPHA');
    const remote = createEngineClient('BETA');
    await remote.queueCreate({ path: '.\\private$\\beta-orders' });
    const made: Array<[string, string]> = [];
    const store = createAppStore(local, {
      storage: null,
      createRemoteClient: (url, token) => {
        made.push([url, token]);
        return remote;
      },
    });
    await store.getState().start();
    await store.getState().connectComputer('http://10.0.0.2:8185', 'secret');
    expect(made).toEqual([['http://10.0.0.2:8185', 'secret']]);
    const s = store.getState();
    expect(s.computers.map((c) => [c.name, c.local])).toEqual([
      ['ALPHA', true],
      ['BETA', false],
    ]);
    const remoteKey = s.computers[1]?.key ?? '';
    const rows = visibleTreeRows(s.computers, s.queues, { ...s.expanded, [`${remoteKey}|private`]: true });
    expect(rows.filter((r) => r.level === 1).map((r) => r.label)).toEqual([
      'ALPHA (this computer)',
      'BETA (connected)',
    ]);
    expect(rows.some((r) => r.label === 'beta-orders')).toBe(true);

    await remote.sendBatch({
      messages: Array.from({ length: 4 }, () => ({ path: '.\\private$\\beta-orders', message: {} })),
    });
    await eventually(() =>
      expect(store.getState().queues[remoteKey]?.find((q) => q.path === '.\\private$\\beta-orders')?.messageCount).toBe(
        4,
      ),
    );
    expect(store.getState().queues['local']?.some((q) => q.path === '.\\private$\\beta-orders')).toBe(false);

    // The same computer twice is refused; disconnecting removes the root and closes its client.
    await expect(store.getState().connectComputer('http://10.0.0.2:8185', 'secret')).rejects.toThrow(
      'already in the tree',
    );
    store.getState().disconnectComputer(remoteKey);
    await flush();
    expect(store.getState().computers.map((c) => c.name)).toEqual(['ALPHA']);
    expect(remote.close).toHaveBeenCalled();
  });

  it('reloads once the event stream opens: what changed before it subscribed was told to nobody', async () => {
    const client = createEngineClient('ALPHA');
    // An event stream that opens only after the first load, as a WebSocket may.
    let opened: ((connected: boolean) => void) | null = null;
    const late = {
      ...client,
      subscribe: () => () => undefined,
      onConnectionChange: (listener: (connected: boolean) => void) => {
        opened = listener;
        return () => undefined;
      },
    };
    const store = createAppStore(late, { storage: null });
    await store.getState().start();
    await client.queueCreate({ path: '.\\private$\\early' });
    expect(store.getState().queues['local']?.some((q) => q.path === '.\\private$\\early')).toBe(false);
    (opened as ((connected: boolean) => void) | null)?.(true);
    await eventually(() =>
      expect(store.getState().queues['local']?.some((q) => q.path === '.\\private$\\early')).toBe(true),
    );
  });
});
