/**
 * MSMQ 4.0's poison-message tools in the console's store, against the real queue manager: move into a
 * subqueue and back with the move count (R-S3, R-S7), reject with its NACK (R-S8), walk with a cursor
 * (R-C2–R-C4).
 */
import { Acknowledgment } from '@qk/model';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../../../renderer/src/store/app-store.js';
import { nodeId } from '../../../../renderer/src/tree/tree-model.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { eventually, flush } from '../support/timing.js';

const ORDERS = '.\\private$\\orders';
const POISON = `${ORDERS};poison`;
const ACKS = '.\\private$\\acks';

async function started() {
  const client = createEngineClient();
  await client.queueCreate({ path: ORDERS });
  await client.queueCreate({ path: ACKS });
  for (const label of ['x', 'y', 'z'])
    await client.send({
      path: ORDERS,
      message: { label, acknowledge: Acknowledgment.NACK_RECEIVE, adminQueue: ACKS },
    });
  const store = createAppStore(client, { storage: null });
  await store.getState().start();
  store.getState().revealNode(nodeId('local', 'queueMessages', ORDERS));
  await flush();
  return { client, store };
}

afterEach(disposeEngineClients);

describe('subqueues and reject', () => {
  it('R-S3 R-S7 moves the selection into a new subqueue and back, counting each move', async () => {
    const { client, store } = await started();
    store.getState().selectIndex(0, 'replace');
    store.getState().selectIndex(2, 'toggle');
    const job = await store.getState().moveWithinQueue(POISON);
    expect(job?.summary).toBe(`Moved 2 messages to ${POISON}.`);
    expect((await client.browse({ path: POISON })).messages.map((m) => m.label)).toEqual(['x', 'z']);
    await eventually(() =>
      expect(store.getState().queues['local']?.find((q) => q.path === POISON)).toMatchObject({
        type: 'subqueue',
        parent: ORDERS,
        messageCount: 2,
      }),
    );

    store.getState().revealNode(nodeId('local', 'subqueue', POISON));
    await flush();
    store.getState().selectIndex(0, 'replace');
    await store.getState().moveWithinQueue(ORDERS);
    const back = (await client.browse({ path: ORDERS })).messages.find((m) => m.label === 'x');
    expect(back?.moveCount).toBe(2);
    expect(back?.lastMoveTime).not.toBeNull();
  });

  it('a move the target refuses is reported with its code and the message stays', async () => {
    const { client, store } = await started();
    store.getState().selectIndex(0, 'replace');
    // A journal is not in the queue's family and refuses a move (nothing is lost).
    const job = await store.getState().moveWithinQueue(`${ORDERS}\\JOURNAL$`);
    expect(job?.summary).toMatch(/^Moved 0 messages to .*; 1 message failed \([A-Z_]+ 1\)\.$/);
    expect(job?.failures).toHaveLength(1);
    expect((await client.browse({ path: ORDERS })).messages.map((m) => m.label)).toEqual(['x', 'y', 'z']);
  });

  it('R-S8 rejects the selection: it leaves the queue and its sender gets NACK_RECEIVE_REJECTED', async () => {
    const { client, store } = await started();
    store.getState().selectIndex(1, 'replace');
    const job = await store.getState().rejectSelected(await store.getState().resolveSelection());
    expect(job?.summary).toBe('Rejected 1 message.');
    expect((await client.browse({ path: ORDERS })).messages.map((m) => m.label)).toEqual(['x', 'z']);
    const nacks = (await client.browse({ path: ACKS })).messages;
    expect(nacks.map((m) => [m.classCode, m.label])).toEqual([[0xc004, 'y']]);
  });
});

describe('a queue that goes while it is shown', () => {
  it('R-S1 an emptied subqueue that closes leaves the tree on its queue, so nothing reads it again', async () => {
    const { store } = await started();
    store.getState().selectIndex(0, 'replace');
    await store.getState().moveWithinQueue(POISON);
    store.getState().revealNode(nodeId('local', 'subqueue', POISON));
    // The service's queueDeleted for the subqueue (it closes 10 s after it is empty and unused).
    store.getState().leaveDeletedQueue('local', POISON);
    expect(store.getState().selectedNodeId).toBe(nodeId('local', 'queue', ORDERS));
    expect(store.getState().target).toBeNull();
  });

  it('a queue another program deletes leaves the tree on its folder', async () => {
    const { client, store } = await started();
    await client.queueDelete({ path: ORDERS });
    await eventually(() => expect(store.getState().selectedNodeId).toBe(nodeId('local', 'private')));
    await eventually(() => expect(store.getState().queues['local']?.some((q) => q.path === ORDERS)).toBe(false));
  });
});

describe('cursor', () => {
  it('R-C2 R-C3 R-C4 walks a queue: first, next, receive, then waits at the end for an arrival', async () => {
    const { client, store } = await started();
    const s = store.getState();
    const cursor = await s.cursorOpen('local', ORDERS);
    expect((await s.cursorPeek('local', cursor, 'current', 0)).label).toBe('x');
    expect((await s.cursorPeek('local', cursor, 'next', 0)).label).toBe('y');
    expect((await s.cursorReceive('local', cursor)).label).toBe('y');
    expect((await s.cursorPeek('local', cursor, 'current', 0)).label).toBe('z');
    await expect(s.cursorPeek('local', cursor, 'next', 0)).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
    const waiting = s.cursorPeek('local', cursor, 'next', 5_000);
    await client.send({ path: ORDERS, message: { label: 'late' } });
    expect((await waiting).label).toBe('late');
    s.cursorClose('local', cursor);
    await flush();
    await expect(s.cursorPeek('local', cursor, 'current', 0)).rejects.toMatchObject({ code: 'INVALID_HANDLE' });
    expect(store.getState().notices).toEqual([]);
  });
});
