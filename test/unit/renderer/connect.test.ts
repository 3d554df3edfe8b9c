import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/app-store.js';
import { visibleTreeRows } from '../../../renderer/src/tree/tree-model.js';
import { createFakeClient, flush, queue } from './fake-client.js';

describe('Connect to another computer', () => {
  it('adds the remote service as a second root whose events update its own queues', async () => {
    const local = createFakeClient();
    const remote = createFakeClient({ queues: [queue('.\\private$\\beta-orders')] });
    remote.serviceStatus.mockResolvedValue({ ...(await remote.serviceStatus({})), name: 'BETA', id: 'guid-beta' });
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
    const rows = visibleTreeRows(s.computers, s.queues, { ...s.expanded, [`${s.computers[1]?.key}|private`]: true });
    expect(rows.filter((r) => r.level === 1).map((r) => r.label)).toEqual([
      'ALPHA (this computer)',
      'BETA (connected)',
    ]);
    expect(rows.some((r) => r.label === 'beta-orders')).toBe(true);

    remote.emit({
      type: 'queueChanged',
      path: '.\\private$\\beta-orders',
      messageCount: 4,
      bytes: 40,
      journalMessageCount: 0,
      journalBytes: 0,
    });
    await new Promise((r) => setTimeout(r, 150));
    const remoteKey = s.computers[1]?.key ?? '';
    expect(store.getState().queues[remoteKey]?.find((q) => q.path === '.\\private$\\beta-orders')?.messageCount).toBe(
      4,
    );
    expect(store.getState().queues['local']?.some((q) => q.path === '.\\private$\\beta-orders')).toBe(false);

    // The same computer twice is refused; disconnecting removes the root and closes its client.
    await expect(store.getState().connectComputer('http://10.0.0.2:8185', 'secret')).rejects.toThrow(
      'already in the tree',
    );
    store.getState().disconnectComputer(s.computers[1]?.key ?? '');
    await flush();
    expect(store.getState().computers.map((c) => c.name)).toEqual(['ALPHA']);
    expect(remote.close).toHaveBeenCalled();
  });
});
