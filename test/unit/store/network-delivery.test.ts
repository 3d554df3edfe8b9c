import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Store } from '@qk/store';

const dirs: string[] = [];
const open = (): { store: Store; dir: string } => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-store-net-'));
  dirs.push(dir);
  return { store: Store.open(dir), dir };
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('delivery state between computers', () => {
  test('transit rows: durable in main, gone with a restart in mem, orphans cleaned', () => {
    const { store, dir } = open();
    const t = (lookupId: number) => ({
      lookupId,
      hops: 2,
      stream: 's',
      seq: lookupId,
      group: null,
      previous: lookupId - 1,
    });
    store.transaction(() => {
      store.delivery.putTransit('main', t(1));
      store.delivery.putTransit('main', t(2));
      store.delivery.putTransit('mem', t(3));
    });
    expect([...store.delivery.transitOf('main', [1, 2, 9]).keys()]).toEqual([1, 2]);
    expect(store.delivery.transitOf('mem', [3]).get(3)).toEqual(t(3));
    // No message row holds these lookup IDs: the cleanup takes every one.
    expect(store.delivery.cleanupTransit()).toBe(3);
    store.transaction(() => store.delivery.putTransit('main', t(4)));
    store.close();
    const again = Store.open(dir);
    expect(again.delivery.transitOf('main', [4]).get(4)).toEqual(t(4));
    again.close();
  });

  test('sequences: the source stream per destination queue and the last number accepted per incoming stream', () => {
    const { store } = open();
    expect(store.delivery.seqOut('direct=os:beta\\private$\\q')).toBeUndefined();
    store.delivery.putSeqOut({ destKey: 'direct=os:beta\\private$\\q', stream: 'S1', nextSeq: 4, acked: 2 });
    expect(store.delivery.seqOutByStream('S1')).toEqual({
      destKey: 'direct=os:beta\\private$\\q',
      stream: 'S1',
      nextSeq: 4,
      acked: 2,
    });
    expect(store.delivery.seqIn('S1')).toBe(0);
    store.delivery.putSeqIn('S1', 'guid', 3, 1000);
    store.delivery.putSeqIn('S1', 'guid', 5, 2000);
    expect(store.delivery.seqIn('S1')).toBe(5);
    store.close();
  });

  test('sent records come due in order; control items of one dedupe key replace each other', () => {
    const { store } = open();
    store.delivery.putSent({ msgId: 'a', destKey: 'k', finalByMs: 300, record: '{}' });
    store.delivery.putSent({ msgId: 'b', destKey: 'k', finalByMs: 100, record: '{}' });
    store.delivery.putSent({ msgId: 'c', destKey: 'k', finalByMs: null, record: '{}' });
    expect(store.delivery.sentDue(200, 10).map((r) => r.msgId)).toEqual(['b']);
    expect(store.delivery.sentDue(1000, 10).map((r) => r.msgId)).toEqual(['b', 'a']);
    expect(store.delivery.removeSent('b')).toBe(true);
    expect(store.delivery.sentCount()).toBe(2);

    store.delivery.addControl('alpha', 'seq:S1', '{"through":1}', 1);
    store.delivery.addControl('alpha', null, '{"final":1}', 2);
    store.delivery.addControl('alpha', 'seq:S1', '{"through":7}', 3);
    const pending = store.delivery.pendingControl(10);
    expect(pending.map((p) => p.item)).toEqual(['{"final":1}', '{"through":7}']);
    store.delivery.removeControl(pending.map((p) => p.id));
    expect(store.delivery.controlCount()).toBe(0);
    store.close();
  });
});
