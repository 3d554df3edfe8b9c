/**
 * The network drill's book of transactional sends (docs/network.md, R-E1–R-E3), and its judge of the destination
 * queue. A source's transactional unit is a single-message transaction (`send` with `transactional`) or a
 * transaction of several messages (transactionBegin, sends, transactionCommit). What the judge asks of the
 * queue, per source:
 *
 * - a confirmed transaction is there whole; one never committed (its commit refused, or never asked because a
 *   send in it failed, or aborted) is not there at all; one whose commit had no answer is whole or absent —
 *   never partly there (R-E2);
 * - no message of a transaction twice (R-E3);
 * - a transaction's messages one right after another, in the order they were sent; and a transaction whose
 *   commit was answered before another's was asked comes before it (R-E1: the source's commit order). The
 *   single-message ones take part in that order only against transactions of several messages: their own
 *   stream order is the drill's older check.
 *
 * Messages are never taken from the queue, so the judge sees everything every time; what it reported once it
 * does not report again. A final look cannot tell a transaction that arrived whole from one whose parts came
 * in two deliveries, so the queue is also watched while messages flow (`QueueWatch`): a transaction partly
 * there at any moment is torn too.
 */

/** What a unit's commit came to. */
export type UnitOutcome =
  /** The commit (or the single send) answered yes. */
  | 'confirmed'
  /** Not committed: the commit was refused, or never asked (a send in it failed). */
  | 'refused'
  /** Aborted on purpose. */
  | 'aborted'
  /** The commit had no answer (the computer was killed): whole or absent. */
  | 'inDoubt';

export interface XactUnit {
  /** `ALPHA-t12` for a transaction of several messages, the label for a single one. */
  readonly key: string;
  readonly source: string;
  /** Its messages' labels in the order they were sent. */
  readonly labels: readonly string[];
  outcome: UnitOutcome;
  /** performance.now() when the commit (the single send) was asked. */
  askedAt: number;
  /** performance.now() when it was answered yes; Infinity otherwise. */
  answeredAt: number;
}

export type XactFindingKind = 'lost' | 'partly' | 'partlyVisible' | 'uncommittedPresent' | 'duplicate' | 'outOfOrder';

export interface XactFinding {
  kind: XactFindingKind;
  key: string;
  /** Messages it concerns (lost, present without a commit, extra copies); 1 for partly and out of order. */
  count: number;
  detail: string;
}

export interface XactFigures {
  /** Transactions of several messages, by outcome. */
  confirmed: number;
  confirmedMessages: number;
  refused: number;
  aborted: number;
  inDoubt: number;
  /** The largest confirmed transaction, in messages. */
  largest: number;
  /** Confirmed transactions larger than a usual lease (1,000 messages). */
  overLease: number;
  lost: number;
  partly: number;
  /** Transactions a watch saw partly there at some moment (each once). */
  partlyVisible: number;
  uncommittedPresent: number;
  duplicated: number;
  outOfOrder: number;
}

/** Messages in a usual lease (core/network outbound-session LEASE_MESSAGES). */
const LEASE_MESSAGES = 1_000;

const isMulti = (unit: XactUnit): boolean => unit.labels.length > 1;

export class XactBook {
  readonly #units: XactUnit[] = [];
  readonly #byLabel = new Map<string, { unit: XactUnit; index: number }>();
  /** What was reported, by kind and key: the count reported. */
  readonly #reported = new Map<string, XactFinding>();

  /** Books a unit before its commit is asked; its outcome and times are filled in as they come. */
  add(unit: XactUnit): XactUnit {
    this.#units.push(unit);
    unit.labels.forEach((label, index) => this.#byLabel.set(label, { unit, index }));
    return unit;
  }

  /** Whether a label is one of a transaction of several messages (judged here, not by the drill's older checks). */
  inMulti(label: string): boolean {
    const at = this.#byLabel.get(label);
    return at !== undefined && isMulti(at.unit);
  }

  /** A watch of the destination queue, for `judgeWatch`. */
  watch(): QueueWatch {
    return new QueueWatch((label) => this.#byLabel.get(label));
  }

  /** The transactions a watch's last read found partly there; returns what was not reported before. */
  judgeWatch(watch: QueueWatch): XactFinding[] {
    const fresh: XactFinding[] = [];
    for (const { unit, there } of watch.torn())
      this.#report(fresh, {
        kind: 'partlyVisible',
        key: unit.key,
        count: 1,
        detail: `${there} of ${unit.labels.length} there at one moment (${unit.outcome})`,
      });
    return fresh;
  }

  #report(fresh: XactFinding[], finding: XactFinding): void {
    const id = `${finding.kind}:${finding.key}`;
    const before = this.#reported.get(id);
    if (before && before.count >= finding.count) return;
    this.#reported.set(id, finding);
    fresh.push(before ? { ...finding, count: finding.count - before.count } : finding);
  }

  /** Judges the destination queue (its labels in receive order); returns what was not reported before. */
  judge(queue: readonly string[]): XactFinding[] {
    const fresh: XactFinding[] = [];
    const report = (finding: XactFinding): void => this.#report(fresh, finding);
    const copies = new Map<string, number>();
    for (const label of queue) if (this.#byLabel.has(label)) copies.set(label, (copies.get(label) ?? 0) + 1);
    for (const unit of this.#units) {
      if (!isMulti(unit)) continue;
      const n = unit.labels.length;
      const there = unit.labels.filter((l) => copies.has(l)).length;
      if (there > 0 && there < n)
        report({ kind: 'partly', key: unit.key, count: 1, detail: `${there} of ${n} there (${unit.outcome})` });
      if (unit.outcome === 'confirmed' && there < n)
        report({ kind: 'lost', key: unit.key, count: n - there, detail: `${n - there} of ${n} confirmed missing` });
      if ((unit.outcome === 'refused' || unit.outcome === 'aborted') && there > 0)
        report({
          kind: 'uncommittedPresent',
          key: unit.key,
          count: there,
          detail: `${there} of ${n} there, not committed (${unit.outcome})`,
        });
      for (const label of unit.labels) {
        const times = copies.get(label) ?? 0;
        if (times > 1) report({ kind: 'duplicate', key: label, count: times - 1, detail: `${times} times` });
      }
    }
    for (const finding of this.#order(queue)) report(finding);
    return fresh;
  }

  /** Each source's order: a transaction's messages together and in send order; commits in commit order. */
  #order(queue: readonly string[]): XactFinding[] {
    const found: XactFinding[] = [];
    interface Walk {
      previous: { unit: XactUnit; index: number } | undefined;
      seen: Set<XactUnit>;
      /** The latest-asked unit placed so far, single and several. */
      single: XactUnit | undefined;
      multi: XactUnit | undefined;
    }
    const walks = new Map<string, Walk>();
    for (const label of queue) {
      const at = this.#byLabel.get(label);
      if (!at) continue;
      const { unit, index } = at;
      let walk = walks.get(unit.source);
      if (!walk) {
        walk = { previous: undefined, seen: new Set(), single: undefined, multi: undefined };
        walks.set(unit.source, walk);
      }
      const previous = walk.previous;
      walk.previous = at;
      if (isMulti(unit) && index > 0 && !(previous?.unit === unit && previous.index === index - 1)) {
        const after = previous ? previous.unit.labels[previous.index] : 'nothing';
        found.push({ kind: 'outOfOrder', key: label, count: 1, detail: `${label} right after ${after}` });
      }
      if (walk.seen.has(unit)) continue;
      walk.seen.add(unit);
      // Placed ahead of this unit, yet asked to commit only after this one's commit was answered.
      const ahead = [walk.multi, isMulti(unit) ? walk.single : undefined].filter(
        (u): u is XactUnit => u !== undefined && u.askedAt > unit.answeredAt,
      );
      const first = ahead[0];
      if (first)
        found.push({
          kind: 'outOfOrder',
          key: label,
          count: 1,
          detail: `${unit.key} placed after ${first.key}, whose commit was asked ${(first.askedAt - unit.answeredAt).toFixed(1)} ms after ${unit.key}'s was answered`,
        });
      if (isMulti(unit)) {
        if (!walk.multi || unit.askedAt > walk.multi.askedAt) walk.multi = unit;
      } else if (!walk.single || unit.askedAt > walk.single.askedAt) walk.single = unit;
    }
    return found;
  }

  /** The transactions of several messages of one source (or all), and what the judge reported so far. */
  figures(source?: string): XactFigures {
    const units = this.#units.filter((u) => isMulti(u) && (source === undefined || u.source === source));
    const confirmed = units.filter((u) => u.outcome === 'confirmed');
    const reported = [...this.#reported.values()].filter(
      (f) => source === undefined || this.#sourceOf(f.key) === source,
    );
    const sum = (kind: XactFindingKind): number =>
      reported.filter((f) => f.kind === kind).reduce((total, f) => total + f.count, 0);
    return {
      confirmed: confirmed.length,
      confirmedMessages: confirmed.reduce((total, u) => total + u.labels.length, 0),
      refused: units.filter((u) => u.outcome === 'refused').length,
      aborted: units.filter((u) => u.outcome === 'aborted').length,
      inDoubt: units.filter((u) => u.outcome === 'inDoubt').length,
      largest: confirmed.reduce((most, u) => Math.max(most, u.labels.length), 0),
      overLease: confirmed.filter((u) => u.labels.length > LEASE_MESSAGES).length,
      lost: sum('lost'),
      partly: sum('partly'),
      partlyVisible: sum('partlyVisible'),
      uncommittedPresent: sum('uncommittedPresent'),
      duplicated: sum('duplicate'),
      outOfOrder: sum('outOfOrder'),
    };
  }

  #sourceOf(key: string): string | undefined {
    return this.#byLabel.get(key)?.unit.source ?? this.#units.find((u) => u.key === key)?.source;
  }
}

/**
 * What a reader of the destination queue has seen, in receive order, read by pages from where it stopped. The
 * queue only grows at its end (every message has the same priority and none is taken), so once a read reaches
 * the end, everything seen was there at that moment: a transaction of several messages seen in part was partly
 * there then. (A read that spans pages can miss a tear, never invent one.)
 */
export class QueueWatch {
  /** Messages read so far: the offset of the next read. */
  length = 0;
  readonly #unitAt: (label: string) => { unit: XactUnit; index: number } | undefined;
  readonly #seen = new Set<string>();
  readonly #there = new Map<XactUnit, number>();
  readonly #open = new Set<XactUnit>();

  constructor(unitAt: (label: string) => { unit: XactUnit; index: number } | undefined) {
    this.#unitAt = unitAt;
  }

  /** The next page of the queue, as read. */
  append(labels: readonly string[]): void {
    this.length += labels.length;
    for (const label of labels) {
      if (this.#seen.has(label)) continue; // a copy: the judge counts duplicates
      this.#seen.add(label);
      const unit = this.#unitAt(label)?.unit;
      if (!unit || !isMulti(unit)) continue;
      const there = (this.#there.get(unit) ?? 0) + 1;
      this.#there.set(unit, there);
      if (there < unit.labels.length) this.#open.add(unit);
      else this.#open.delete(unit);
    }
  }

  /** The transactions partly there as far as the reads went. */
  torn(): { unit: XactUnit; there: number }[] {
    return [...this.#open].map((unit) => ({ unit, there: this.#there.get(unit) ?? 0 }));
  }
}
