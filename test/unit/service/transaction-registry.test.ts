import { describe, expect, it } from 'vitest';
import { TransactionRegistry } from '../../../core/service/src/host/transaction-registry.js';

describe('TransactionRegistry', () => {
  it('aborts the transactions of a closed connection and no others', () => {
    const aborted: string[] = [];
    const registry = new TransactionRegistry((tx) => aborted.push(tx));
    registry.begun('a', 'ws-1');
    registry.begun('b', 'ws-2');
    registry.begun('c', 'ws-1');
    registry.connectionClosed('ws-1');
    expect(aborted.sort()).toEqual(['a', 'c']);
    expect(registry.size).toBe(1);
    registry.dispose();
  });

  it('aborts plain-HTTP transactions only after the idle limit, counted from their last use', () => {
    let now = 0;
    const aborted: string[] = [];
    const registry = new TransactionRegistry((tx) => aborted.push(tx), { idleMs: 1_000, now: () => now });
    registry.begun('http-tx', undefined);
    registry.begun('ws-tx', 'ws-1');
    now = 900;
    registry.touch('http-tx');
    now = 1_500;
    registry.sweep();
    expect(aborted).toEqual([]);
    now = 1_900;
    registry.sweep();
    expect(aborted).toEqual(['http-tx']);
    now = 100_000;
    registry.sweep();
    expect(aborted).toEqual(['http-tx']);
    registry.dispose();
  });

  it('forgets ended transactions and survives an abort that throws', () => {
    const registry = new TransactionRegistry(() => {
      throw new Error('already gone');
    });
    registry.begun('x', 'ws-1');
    registry.begun('y', 'ws-1');
    registry.ended('x');
    expect(() => registry.connectionClosed('ws-1')).not.toThrow();
    expect(registry.size).toBe(0);
    registry.dispose();
  });
});
