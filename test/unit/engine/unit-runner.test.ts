/**
 * The engine's unit runner on a real store: group commit (durable work queued in one turn of the event loop is
 * committed together), savepoints (a refused part rolls back alone, with its in-memory effects), answers only
 * after the commit, and what a full disk does to a batch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { QkError } from '@qk/model';
import { Store } from '@qk/store';
import { Effects } from '../../../core/engine/src/effects.js';
import { Sequences } from '../../../core/engine/src/identity.js';
import { UnitRunner } from '../../../core/engine/src/unit-runner.js';

let dir: string;
let store: Store;
let effects: Effects;
let runner: UnitRunner;
/** Outermost transactions the store ran (each one is a commit; nested ones are savepoints). */
let commits: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-unit-runner-'));
  store = Store.open(dir);
  let depth = 0;
  commits = 0;
  const transaction = store.transaction.bind(store);
  store.transaction = <T>(work: () => T): T => {
    if (depth === 0) commits++;
    depth++;
    try {
      return transaction(work);
    } finally {
      depth--;
    }
  };
  effects = new Effects();
  runner = new UnitRunner(store, effects, new Sequences(store));
});

afterEach(() => {
  runner.close();
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A part of a unit of work that stores one row. */
const write = (key: string) => () => store.queues.setMeta(key, 'stored');
const stored = (key: string): boolean => store.queues.getMeta(key) === 'stored';
/** Stores its row, then is refused: the row must go with it. */
const refused = (key: string, error: Error) => () => {
  store.queues.setMeta(key, 'stored');
  throw error;
};

describe('group commit', () => {
  test('durable work queued in the same turn is committed together, each caller answered with its own result', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `group-${i}`);
    const answers = keys.map((key) => runner.runDurable(() => (write(key)(), key)));
    expect(keys.some(stored)).toBe(false); // nothing runs before the turn ends
    expect(await Promise.all(answers)).toEqual(keys);
    expect(commits).toBe(1);
    expect(keys.every(stored)).toBe(true);
  });

  test('work queued after a commit goes into the next one', async () => {
    await runner.runDurable(write('first'));
    await runner.runDurable(write('second'));
    expect(commits).toBe(2);
  });

  test('one commit takes at most 5,000 parts; the rest go in the next', async () => {
    const answers = Array.from({ length: 5_001 }, (_, i) => runner.runDurable(() => i));
    expect((await Promise.all(answers)).at(-1)).toBe(5_000);
    expect(commits).toBe(2);
  });

  test('a caller hears of success only after the commit: after-commit effects have run by then', async () => {
    const order: string[] = [];
    const answer = runner.runDurable(() => {
      effects.afterCommit(() => order.push('after commit'));
      return 'done';
    });
    order.push('queued');
    await answer.then(() => order.push('answered'));
    expect(order).toEqual(['queued', 'after commit', 'answered']);
  });

  test('a commit the store defers (its checkpoint worker is finishing a long WAL) waits, joined by work queued meanwhile', async () => {
    let resume: (() => void) | null = null;
    store.deferCommit = (go) => {
      resume = go;
      store.deferCommit = () => false;
      return true;
    };
    const first = runner.runDurable(write('first'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resume).not.toBeNull();
    expect(stored('first')).toBe(false);
    // The event loop went on; what is queued meanwhile goes into the same commit.
    const second = runner.runDurable(write('second'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(commits).toBe(0);
    resume!();
    await Promise.all([first, second]);
    expect(commits).toBe(1);
    expect(stored('first') && stored('second')).toBe(true);
  });

  test('close commits what was accepted and refuses new work', async () => {
    const accepted = runner.runDurable(write('accepted'));
    runner.close();
    expect(stored('accepted')).toBe(true);
    await expect(accepted).resolves.toBeUndefined();
    expect(() => runner.runDurable(write('late'))).toThrow(expect.objectContaining({ code: 'SERVICE_NOT_AVAILABLE' }));
    expect(() => runner.runNow(write('late'))).toThrow(expect.objectContaining({ code: 'SERVICE_NOT_AVAILABLE' }));
  });
});

describe('savepoints', () => {
  test('a refused part rolls back alone: its row, its in-memory change and its after-commit effect go, the others stay', async () => {
    let counter = 0;
    const heard: string[] = [];
    const part = (key: string, fail: boolean) => () => {
      counter++;
      effects.onRollback(() => counter--);
      effects.afterCommit(() => heard.push(key));
      write(key)();
      if (fail) throw new QkError('QUOTA_EXCEEDED', `${key} is refused`);
      return key;
    };
    const results = await Promise.allSettled([
      runner.runDurable(part('a', false)),
      runner.runDurable(part('b', true)),
      runner.runDurable(part('c', false)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({ reason: { code: 'QUOTA_EXCEEDED', message: 'b is refused' } });
    expect(commits).toBe(1);
    expect([stored('a'), stored('b'), stored('c')]).toEqual([true, false, true]);
    expect(counter).toBe(2);
    expect(heard).toEqual(['a', 'c']);
  });

  test('a later part of the same commit sees the in-memory changes of the parts before it (quotas count them)', async () => {
    let bytes = 0;
    const QUOTA = 10;
    const add = (size: number) => () => {
      if (bytes + size > QUOTA) throw new QkError('QUOTA_EXCEEDED', 'over the quota');
      bytes += size;
      effects.onRollback(() => (bytes -= size));
      return size;
    };
    const results = await Promise.allSettled([runner.runDurable(add(6)), runner.runDurable(add(6))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(bytes).toBe(6);
  });

  test('runNow runs in its own transaction; a refusal rolls back its rows and effects and reaches the caller', () => {
    let counter = 0;
    const failure = new QkError('INVALID_PARAMETER', 'no');
    expect(() =>
      runner.runNow(() => {
        counter++;
        effects.onRollback(() => counter--);
        refused('now', failure)();
      }),
    ).toThrow(failure);
    expect(stored('now')).toBe(false);
    expect(counter).toBe(0);
    expect(runner.runNow(() => (write('now')(), 'ok'))).toBe('ok');
    expect(stored('now')).toBe(true);
  });
});

describe('a full disk', () => {
  const diskFull = (): Error => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

  test('fails the whole commit (it is no one part’s fault): every part is refused with MESSAGE_STORAGE_FAILED, nothing stored', async () => {
    const heard: string[] = [];
    const results = await Promise.allSettled([
      runner.runDurable(() => {
        write('before')();
        effects.afterCommit(() => heard.push('before'));
      }),
      runner.runDurable(refused('full', diskFull())),
    ]);
    for (const result of results) {
      expect(result).toMatchObject({ status: 'rejected', reason: { code: 'MESSAGE_STORAGE_FAILED' } });
    }
    expect([stored('before'), stored('full')]).toEqual([false, false]);
    expect(heard).toEqual([]);
  });

  test('deletions go again on the space reserve; the sends of the same commit are refused', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }): void => {
      warnings.push(warning.code ?? '');
    };
    process.on('warning', onWarning);
    try {
      let attempts = 0;
      const deletion = runner.runDurable(
        () => {
          attempts++;
          if (attempts === 1) throw diskFull();
          write('deleted')();
          return 'room made';
        },
        { freesSpace: true },
      );
      const send = runner.runDurable(write('sent'));
      // The send is refused at once; the deletion is answered once its sync ends.
      await Promise.all([
        expect(deletion).resolves.toBe('room made'),
        expect(send).rejects.toMatchObject({ code: 'MESSAGE_STORAGE_FAILED' }),
      ]);
      expect([stored('deleted'), stored('sent')]).toEqual([true, false]);
      expect(store.hasSpaceReserve).toBe(false);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings).toContain('QK_SPACE_RESERVE_RELEASED');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('answers wait for the disk', () => {
  /** Holds the store's syncs: each is answered only when the test says so. */
  function holdSyncs(): { calls: number; syncNowCalls: number; finish(error?: Error): void } {
    const held: ((error: Error | null) => void)[] = [];
    const state = {
      calls: 0,
      syncNowCalls: 0,
      finish(error?: Error): void {
        const done = held.shift();
        if (!done) throw new Error('no sync is in flight');
        done(error ?? null);
      },
    };
    store.sync = (done) => {
      state.calls++;
      held.push(done);
    };
    const syncNow = store.syncNow.bind(store);
    store.syncNow = () => {
      state.syncNowCalls++;
      syncNow();
    };
    return state;
  }
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const settled = async (promise: Promise<unknown>): Promise<boolean> => {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    await turn();
    return done;
  };

  test('durable work is committed (readable) at once but answered only once its sync has ended', async () => {
    const syncs = holdSyncs();
    const answer = runner.runDurable(() => (write('synced')(), 'ok'));
    await turn();
    expect(stored('synced')).toBe(true);
    expect(syncs.calls).toBe(1);
    expect(await settled(answer)).toBe(false);
    syncs.finish();
    await expect(answer).resolves.toBe('ok');
  });

  /** `a` committed with its sync held, and `b` queued while that sync is on its way. */
  async function bQueuedDuringTheSyncOfA() {
    const syncs = holdSyncs();
    const first = runner.runDurable(write('a'));
    await turn();
    const queued = runner.runDurable(write('b'));
    await turn();
    return { syncs, first, queued };
  }

  test('durable work queued while a sync is on its way is committed (readable) at once, and answered after the next sync', async () => {
    const { syncs, first, queued: second } = await bQueuedDuringTheSyncOfA();
    const third = runner.runDurable(write('c'));
    await turn();
    // A receiver can take b and c now; their senders hear of them only once a sync that began after their
    // commit has ended: the next one, which cannot begin before the one on its way ends.
    expect(commits).toBe(3);
    expect(stored('b') && stored('c')).toBe(true);
    expect(syncs.calls).toBe(1);
    expect(await settled(second)).toBe(false);
    syncs.finish();
    await first;
    expect(await settled(second)).toBe(false);
    expect(syncs.calls).toBe(2);
    syncs.finish();
    await expect(Promise.all([second, third])).resolves.toEqual([undefined, undefined]);
    expect(syncs.calls).toBe(2);
  });

  test('a removal answered on commit does not wait for the sync on its way; the send committed meanwhile still does', async () => {
    const { syncs, first, queued: send } = await bQueuedDuringTheSyncOfA();
    const removal = runner.runDurable(() => (write('received')(), 'removed'), { answerOnCommit: true });
    await expect(removal).resolves.toBe('removed');
    expect(stored('b') && stored('received')).toBe(true);
    expect(await settled(send)).toBe(false); // b is answered after a sync that began after its commit
    syncs.finish();
    await first;
    expect(await settled(send)).toBe(false);
    syncs.finish();
    await send;
  });

  test('close puts on disk what was committed while a sync was on its way, and answers it', async () => {
    const { syncs, first, queued } = await bQueuedDuringTheSyncOfA();
    expect(stored('b')).toBe(true);
    runner.close();
    expect(syncs.syncNowCalls).toBe(1);
    await expect(queued).resolves.toBeUndefined();
    syncs.finish();
    await first;
  });

  test('answerOnCommit: the removal of a receive is answered in the turn of its commit, before the sync', async () => {
    const syncs = holdSyncs();
    const removal = runner.runDurable(() => (write('received')(), 'removed'), { answerOnCommit: true });
    const send = runner.runDurable(write('sent'));
    await expect(removal).resolves.toBe('removed');
    expect(await settled(send)).toBe(false);
    syncs.finish();
    await send;
  });

  test('a refused part is answered at once; only what was committed waits', async () => {
    holdSyncs();
    const refusal = runner.runDurable(refused('no', new QkError('QUOTA_EXCEEDED', 'over')));
    await expect(refusal).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
  });

  test('express work in the group commit is answered on commit: no disk keeps it, so it waits for no sync', async () => {
    const syncs = holdSyncs();
    const durable = runner.runDurable(write('durable'));
    const express = runner.runDurable(() => 'express', { express: true });
    await expect(express).resolves.toBe('express');
    expect(syncs.calls).toBe(1);
    syncs.finish();
    await expect(durable).resolves.toBeUndefined();
  });

  test('a failed sync refuses its callers with MESSAGE_STORAGE_FAILED, and every durable call after it', async () => {
    const syncs = holdSyncs();
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }): void => {
      warnings.push(warning.code ?? '');
    };
    process.on('warning', onWarning);
    try {
      const answer = runner.runDurable(write('unsure'));
      await turn();
      syncs.finish(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      await expect(answer).rejects.toMatchObject({ code: 'MESSAGE_STORAGE_FAILED' });
      expect(() => runner.runDurable(write('later'))).toThrow(
        expect.objectContaining({ code: 'MESSAGE_STORAGE_FAILED' }),
      );
      expect(() => runner.runNow(write('later'))).toThrow(expect.objectContaining({ code: 'MESSAGE_STORAGE_FAILED' }));
      // Express work keeps no disk: it goes on, at once or with the group commit (an express receive's removal).
      expect(runner.runNow(() => 'express', { express: true })).toBe('express');
      await expect(runner.runDurable(() => 'express removal', { answerOnCommit: true, express: true })).resolves.toBe(
        'express removal',
      );
      await turn();
      expect(warnings).toContain('QK_STORE_SYNC_FAILED');
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('runNow puts its commit on disk before it returns, except for express work and work that wrote nothing', () => {
    const syncs = holdSyncs();
    runner.runNow(write('admin'));
    expect(syncs.syncNowCalls).toBe(1);
    runner.runNow(() => (write('express only')(), 'no disk'), { express: true });
    expect(syncs.syncNowCalls).toBe(1);
    expect(runner.runNow(() => store.queues.getMeta('admin'))).toBe('stored');
    expect(syncs.syncNowCalls).toBe(1);
  });

  test('close syncs what was committed and answers every caller', async () => {
    const syncs = holdSyncs();
    const accepted = runner.runDurable(write('closing'));
    runner.close();
    expect(syncs.syncNowCalls).toBe(1);
    await expect(accepted).resolves.toBeUndefined();
  });
});
