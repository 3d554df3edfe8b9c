import { describe, expect, it } from 'vitest';
import {
  browsePathOf,
  classifyQueue,
  nodeCaption,
  nodeId,
  parseNodeId,
  visibleTreeRows,
} from '../../../../renderer/src/tree/tree-model.js';
import { queue } from '../support/messages.js';

const computers = [{ key: 'local', name: 'ALPHA', local: true, connected: true }];
const queues = {
  local: [
    queue('.\\JOURNAL$'),
    queue('.\\DEADLETTER$'),
    queue('.\\XACTDEADLETTER$'),
    queue('.\\private$\\orders', { messageCount: 12 }),
    queue('.\\private$\\Alpha'),
    queue('.\\private$\\orders\\JOURNAL$', { type: 'journal' }),
  ],
};

describe('tree model', () => {
  it('round-trips node ids, even for a queue name containing the separator', () => {
    const id = nodeId('local', 'queueMessages', '.\\private$\\a|b');
    expect(parseNodeId(id)).toEqual({ id, computer: 'local', kind: 'queueMessages', path: '.\\private$\\a|b' });
    expect(parseNodeId(nodeId('local', 'msmq'))).toMatchObject({ kind: 'msmq', path: null });
  });

  it('sorts system queues by path or format name and hides queue journals', () => {
    expect(classifyQueue(queue('.\\XACTDEADLETTER$'))).toEqual({ group: 'system', kind: 'DEADXACT' });
    expect(classifyQueue(queue('.\\DEADLETTER$'))).toEqual({ group: 'system', kind: 'DEADLETTER' });
    expect(classifyQueue(queue('.\\JOURNAL$'))).toEqual({ group: 'system', kind: 'JOURNAL' });
    expect(classifyQueue(queue('x', { formatName: 'MACHINE=abc;DEADXACT', type: 'system' }))).toEqual({
      group: 'system',
      kind: 'DEADXACT',
    });
    expect(classifyQueue(queue('.\\private$\\orders\\JOURNAL$', { type: 'journal' }))).toEqual({ group: 'hidden' });
    expect(classifyQueue(queue('.\\private$\\orders'))).toEqual({ group: 'private' });
  });

  it('shows the Computer Management layout with live counts when everything is expanded', () => {
    const expanded = Object.fromEntries(
      ['local|computer', 'local|msmq', 'local|private', 'local|system', `local|queue|.\\private$\\orders`].map((k) => [
        k,
        true,
      ]),
    );
    const rows = visibleTreeRows(computers, queues, expanded);
    expect(rows.map((r) => `${'  '.repeat(r.level - 1)}${r.label}${r.count !== null ? ` ${r.count}` : ''}`)).toEqual([
      'ALPHA (this computer)',
      '  Message Queuing',
      '    Outgoing Queues',
      '    Public Queues',
      '    Private Queues 2',
      '      Alpha 0',
      '      orders 12',
      '        Queue messages 12',
      '        Journal messages 0',
      '    System Queues',
      '      Journal messages 0',
      '      Dead-letter messages 0',
      '      Transactional dead-letter messages 0',
    ]);
    const orders = rows.find((r) => r.label === 'orders');
    expect(orders).toMatchObject({ hasMessages: true, expanded: true, posInSet: 2, setSize: 2 });
    expect(rows.find((r) => r.label === 'Outgoing Queues')?.expandable).toBe(false);
  });

  it('browses the queue, its journal, or the system queue', () => {
    expect(browsePathOf(parseNodeId(nodeId('local', 'journalMessages', '.\\private$\\orders')))).toBe(
      '.\\private$\\orders\\JOURNAL$',
    );
    expect(browsePathOf(parseNodeId(nodeId('local', 'queueMessages', '.\\private$\\orders')))).toBe(
      '.\\private$\\orders',
    );
    expect(browsePathOf(parseNodeId(nodeId('local', 'systemQueue', '.\\DEADLETTER$')))).toBe('.\\DEADLETTER$');
    expect(browsePathOf(parseNodeId(nodeId('local', 'queue', '.\\private$\\orders')))).toBeNull();
  });

  it('R-S1 lists subqueues under their queue, after its journal, and browses them by their own path', () => {
    const poison = queue('.\\private$\\orders;poison', {
      type: 'subqueue',
      parent: '.\\private$\\orders',
      messageCount: 3,
    });
    const retry = queue('.\\private$\\orders;retry', { type: 'subqueue', parent: '.\\private$\\orders' });
    expect(classifyQueue(poison)).toEqual({ group: 'subqueue', parent: '.\\private$\\orders' });
    const expanded = { 'local|computer': true, 'local|msmq': true, 'local|private': true };
    const withSubqueues = { local: [...queues.local, retry, poison] };
    const rows = visibleTreeRows(computers, withSubqueues, {
      ...expanded,
      [nodeId('local', 'queue', '.\\private$\\orders')]: true,
    });
    const under = rows.filter((r) => r.parentId === nodeId('local', 'queue', '.\\private$\\orders'));
    expect(under.map((r) => [r.label, r.count, r.posInSet, r.setSize])).toEqual([
      ['Queue messages', 12, 1, 4],
      ['Journal messages', 0, 2, 4],
      ['poison', 3, 3, 4],
      ['retry', 0, 4, 4],
    ]);
    // A subqueue is not a queue of its own in the Private Queues folder.
    expect(rows.filter((r) => r.level === 4).map((r) => r.label)).toEqual(['Alpha', 'orders']);
    const ref = parseNodeId(nodeId('local', 'subqueue', '.\\private$\\orders;poison'));
    expect(browsePathOf(ref)).toBe('.\\private$\\orders;poison');
    expect(nodeCaption(ref, 'ALPHA')).toBe('orders › poison');
  });

  it('flags a full queue or journal as full and a nearly full one as a warning, as the list does', () => {
    const list = {
      local: [
        queue('.\\private$\\full', { quotaKB: 100, bytes: 100 * 1024 }),
        queue('.\\private$\\nearly', { quotaKB: 100, bytes: 95 * 1024 }),
        queue('.\\private$\\calm', { quotaKB: 100, bytes: 10 * 1024 }),
      ],
    };
    const rows = visibleTreeRows(computers, list, {
      'local|computer': true,
      'local|msmq': true,
      'local|private': true,
    });
    expect(rows.filter((r) => r.level === 4).map((r) => [r.label, r.warning !== null, r.warningFull])).toEqual([
      ['calm', false, false],
      ['full', true, true],
      ['nearly', true, false],
    ]);
  });
});
