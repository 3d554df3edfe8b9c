/**
 * The network drill's judge of transactions must itself tell a torn, lost, repeated or reordered transaction
 * from a sound one; otherwise a green drill proves nothing. Each case is a queue a fault could leave.
 */
import { describe, expect, test } from 'vitest';
import { XactBook, type UnitOutcome, type XactUnit } from './xact-book.js';

/** A transaction of `size` messages, asked at `asked` and (when confirmed) answered one unit of time later. */
function unit(source: string, t: number, size: number, asked: number, outcome: UnitOutcome = 'confirmed'): XactUnit {
  return {
    key: `${source}-t${t}`,
    source,
    labels: Array.from({ length: size }, (_, i) => `${source}-t${t}-${i}`),
    outcome,
    askedAt: asked,
    answeredAt: outcome === 'confirmed' ? asked + 1 : Infinity,
  };
}

function single(source: string, n: number, asked: number): XactUnit {
  const label = `${source}-x-${n}`;
  return { key: label, source, labels: [label], outcome: 'confirmed', askedAt: asked, answeredAt: asked + 1 };
}

const kinds = (book: XactBook, queue: string[]): string[] => book.judge(queue).map((f) => `${f.kind} ${f.key}`);

describe('network drill: the transactions judge', () => {
  test('whole transactions in commit order, interleaved with another source and single ones, are sound', () => {
    const book = new XactBook();
    const a1 = book.add(unit('A', 1, 3, 0));
    const b1 = book.add(unit('B', 1, 2, 0));
    const s = book.add(single('A', 2, 5));
    const a2 = book.add(unit('A', 2, 2, 10));
    expect(kinds(book, [...b1.labels, ...a1.labels, ...s.labels, ...a2.labels])).toEqual([]);
    expect(book.figures()).toMatchObject({ confirmed: 3, confirmedMessages: 7, partly: 0, outOfOrder: 0 });
    expect(book.figures('A')).toMatchObject({ confirmed: 2, confirmedMessages: 5, largest: 3 });
  });

  test('a transaction partly there is torn (R-E2), whatever its commit said; the confirmed part missing is lost', () => {
    const book = new XactBook();
    const a1 = book.add(unit('A', 1, 3, 0));
    const a2 = book.add(unit('A', 2, 3, 10, 'inDoubt'));
    const a3 = book.add(unit('A', 3, 2, 20, 'inDoubt'));
    expect(kinds(book, [...a1.labels.slice(0, 2), ...a2.labels.slice(0, 1)])).toEqual([
      'partly A-t1',
      'lost A-t1',
      'partly A-t2',
    ]);
    expect(book.figures()).toMatchObject({ partly: 2, lost: 1, inDoubt: 2 });
    void a3; // in doubt and absent: allowed
  });

  test('a transaction never committed, or aborted, must not be there at all', () => {
    const book = new XactBook();
    const refused = book.add(unit('A', 1, 2, 0, 'refused'));
    const aborted = book.add(unit('A', 2, 2, 10, 'aborted'));
    expect(kinds(book, [...refused.labels, ...aborted.labels])).toEqual([
      'uncommittedPresent A-t1',
      'uncommittedPresent A-t2',
    ]);
    expect(book.figures().uncommittedPresent).toBe(4);
  });

  test('a message of a transaction twice is a duplicate, reported once however often the queue is judged', () => {
    const book = new XactBook();
    const a1 = book.add(unit('A', 1, 2, 0));
    const queue = [...a1.labels, ...a1.labels];
    expect(kinds(book, queue)).toEqual(['duplicate A-t1-0', 'duplicate A-t1-1']);
    expect(kinds(book, queue)).toEqual([]);
    expect(book.figures().duplicated).toBe(2);
  });

  test("a transaction's messages apart or out of send order are out of order", () => {
    const book = new XactBook();
    const a1 = book.add(unit('A', 1, 3, 0));
    const s = book.add(single('A', 2, 5));
    const [m0, m1, m2] = a1.labels as [string, string, string];
    expect(kinds(book, [m0, ...s.labels, m1, m2])).toEqual(['outOfOrder A-t1-1']);
    const b1 = book.add(unit('B', 1, 2, 0));
    const [n0, n1] = b1.labels as [string, string];
    expect(kinds(book, [m0, ...s.labels, m1, m2, n1, n0])).toEqual(['outOfOrder B-t1-1']);
  });

  test('a transaction placed after one that was committed only once its own commit was answered is out of order', () => {
    const book = new XactBook();
    const early = book.add(unit('A', 1, 2, 0)); // answered at 1
    const late = book.add(unit('A', 2, 2, 10)); // asked at 10
    expect(kinds(book, [...late.labels, ...early.labels])).toEqual(['outOfOrder A-t1-0']);
    // A single-message transaction against one of several, both ways.
    const book2 = new XactBook();
    const s = book2.add(single('A', 1, 0));
    const t = book2.add(unit('A', 2, 2, 10));
    expect(kinds(book2, [...t.labels, ...s.labels])).toEqual(['outOfOrder A-x-1']);
    // Commits that overlapped may land either way; another source's order is its own.
    const book3 = new XactBook();
    const x = book3.add(unit('A', 1, 2, 0));
    const y = book3.add(unit('A', 2, 2, 0.5));
    const z = book3.add(unit('B', 1, 2, 10));
    expect(kinds(book3, [...z.labels, ...y.labels, ...x.labels])).toEqual([]);
  });
});

describe('network drill: the watch of the queue while messages flow', () => {
  test('a transaction seen in part at the end of a read was torn at that moment, even if it is whole later', () => {
    const book = new XactBook();
    const a1 = book.add(unit('A', 1, 3, 0));
    const a2 = book.add(unit('A', 2, 2, 10));
    const watch = book.watch();
    watch.append([...a1.labels, a2.labels[0] as string]);
    expect(watch.length).toBe(4);
    expect(book.judgeWatch(watch).map((f) => `${f.kind} ${f.key}`)).toEqual(['partlyVisible A-t2']);
    watch.append([a2.labels[1] as string]);
    expect(book.judgeWatch(watch)).toEqual([]);
    expect(kinds(book, [...a1.labels, ...a2.labels])).toEqual([]);
    expect(book.figures()).toMatchObject({ partlyVisible: 1, partly: 0 });
  });

  test('whole transactions, copies and single messages are no tear', () => {
    const book = new XactBook();
    const a1 = book.add(unit('A', 1, 2, 0));
    const s = book.add(single('A', 2, 5));
    const watch = book.watch();
    watch.append([...a1.labels, ...s.labels, a1.labels[0] as string, 'unbooked']);
    expect(book.judgeWatch(watch)).toEqual([]);
  });
});
