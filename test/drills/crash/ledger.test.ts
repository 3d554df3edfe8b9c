/**
 * The crash drill's bookkeeping must itself tell a loss, a duplicate and an allowed doubt apart; otherwise a
 * green drill proves nothing. Each case below is a history a crash could leave, and what the ledger must say.
 */
import { describe, expect, test } from 'vitest';
import { Ledger, type QueueKey } from './ledger.js';

function queues(partial: Partial<Record<QueueKey, string[]>>): Record<QueueKey, string[]> {
  return { plain: [], xact: [], purge: [], ...partial };
}

function sent(ledger: Ledger, tag: string, queue: QueueKey, outcome: 'ok' | 'refused' | 'no-reply' = 'ok'): void {
  ledger.sendEnded(ledger.sendStarted([{ tag, queue }]), outcome);
}

describe('crash drill ledger', () => {
  test('a confirmed message in its queue is accounted for; one gone without a receive is lost', () => {
    const ledger = new Ledger();
    sent(ledger, 'a', 'plain');
    sent(ledger, 'b', 'plain');
    const anomalies = ledger.verify(queues({ plain: ['a'] }));
    expect(anomalies.map((a) => a.kind)).toEqual(['lost']);
    ledger.tally();
    expect(ledger.figures).toMatchObject({ confirmedSends: 2, present: 1, lost: 1 });
  });

  test('a plain receive without a reply may have taken one message, not two', () => {
    const ledger = new Ledger();
    for (const tag of ['a', 'b', 'c']) sent(ledger, tag, 'plain');
    ledger.receiveInterrupted('plain', 1);
    const anomalies = ledger.verify(queues({ plain: ['c'] }));
    expect(anomalies.map((a) => a.kind)).toEqual(['lost']);
    ledger.tally();
    expect(ledger.figures).toMatchObject({ takenByInterruptedReceives: 1, lost: 1 });
  });

  test('a message received and still in the queue is a duplicate; so is one delivered to two clients', () => {
    const ledger = new Ledger();
    sent(ledger, 'a', 'plain');
    sent(ledger, 'b', 'plain');
    ledger.received('a');
    ledger.received('b');
    ledger.received('b');
    const anomalies = ledger.verify(queues({ plain: ['a'] }));
    expect(anomalies.every((a) => a.kind === 'duplicated')).toBe(true);
    expect(ledger.figures.duplicated).toBe(2);
  });

  test('a committed transaction’s message must not come back; an uncommitted one’s must', () => {
    const ledger = new Ledger();
    for (const tag of ['a', 'b']) sent(ledger, tag, 'xact');
    ledger.txBegun('T1');
    ledger.received('a', 'T1');
    ledger.txCommitSent('T1');
    ledger.txCommitEnded('T1', 'ok');
    ledger.txBegun('T2');
    ledger.received('b', 'T2');
    ledger.crashed();
    // a came back after its commit; b, received in a transaction the crash aborted, is missing.
    const anomalies = ledger.verify(queues({ xact: ['a'] }));
    expect(anomalies.map((x) => x.kind).sort()).toEqual(['duplicated', 'lost']);
  });

  test('a commit without a reply is judged from the queue, for all its messages alike', () => {
    const committed = new Ledger();
    for (const tag of ['a', 'b']) sent(committed, tag, 'xact');
    committed.txBegun('T');
    committed.received('a', 'T');
    committed.received('b', 'T');
    committed.txCommitSent('T');
    committed.crashed();
    expect(committed.verify(queues({}))).toEqual([]);
    committed.tally();
    expect(committed.figures).toMatchObject({ consumed: 2, commitsInDoubt: 1, commitsInDoubtResolvedCommitted: 1 });

    const torn = new Ledger();
    for (const tag of ['a', 'b']) sent(torn, tag, 'xact');
    torn.txBegun('T');
    torn.received('a', 'T');
    torn.received('b', 'T');
    torn.txCommitSent('T');
    torn.txCommitEnded('T', 'no-reply');
    expect(torn.verify(queues({ xact: ['b'] })).map((x) => x.kind)).toContain('torn-transaction');
  });

  test('messages sent in a transaction exist only if it committed', () => {
    const ledger = new Ledger();
    ledger.txBegun('T');
    ledger.sendEnded(ledger.sendStarted([{ tag: 'in-aborted', queue: 'xact' }], 'T'), 'ok');
    ledger.txAborted('T');
    ledger.txBegun('U');
    ledger.sendEnded(ledger.sendStarted([{ tag: 'in-committed', queue: 'xact' }], 'U'), 'ok');
    ledger.txCommitSent('U');
    ledger.txCommitEnded('U', 'ok');
    const anomalies = ledger.verify(queues({ xact: ['in-aborted'] }));
    expect(anomalies.map((x) => x.kind).sort()).toEqual(['aborted-send-stored', 'lost']);
  });

  test('a batch without a reply is all there or all gone', () => {
    const ledger = new Ledger();
    const batch = ledger.sendStarted([
      { tag: 'a', queue: 'plain' },
      { tag: 'b', queue: 'purge' },
      { tag: 'c', queue: 'plain' },
    ]);
    ledger.sendEnded(batch, 'no-reply');
    const anomalies = ledger.verify(queues({ plain: ['a'] }));
    expect(anomalies.map((x) => x.kind).sort()).toEqual(['lost', 'lost', 'torn-batch']);

    const none = new Ledger();
    none.sendEnded(
      none.sendStarted([
        { tag: 'a', queue: 'plain' },
        { tag: 'b', queue: 'plain' },
      ]),
      'no-reply',
    );
    expect(none.verify(queues({}))).toEqual([]);
    none.tally();
    expect(none.figures).toMatchObject({ inDoubtSends: 2, inDoubtNotStored: 2 });
  });

  test('a purge takes what was sent before it; a message confirmed before a confirmed purge must be gone', () => {
    const ledger = new Ledger();
    sent(ledger, 'early', 'purge');
    sent(ledger, 'kept', 'purge');
    const purge = ledger.purgeStarted('purge');
    ledger.purgeEnded(purge, 'ok');
    sent(ledger, 'late', 'purge');
    const anomalies = ledger.verify(queues({ purge: ['kept', 'late'] }));
    expect(anomalies.map((x) => x.kind)).toEqual(['survived-purge']);
    ledger.tally();
    expect(ledger.figures).toMatchObject({ purged: 1, present: 2 });
    // Gone later with no purge since it was last seen: lost, not purged.
    expect(ledger.verify(queues({ purge: ['kept'] })).map((x) => x.kind)).toEqual(['lost']);
  });

  test('a message judged gone that shows up again is a duplicate; a message the drill never sent is a phantom', () => {
    const ledger = new Ledger();
    sent(ledger, 'a', 'plain');
    ledger.receiveInterrupted('plain', 1);
    expect(ledger.verify(queues({}))).toEqual([]);
    const anomalies = ledger.verify(queues({ plain: ['a', 'stranger'] }));
    expect(anomalies.map((x) => x.kind).sort()).toEqual(['duplicated', 'phantom']);
  });
});
