/**
 * The crash drill's bookkeeping: every message the clients tried to send, every receive reply, every
 * transaction and purge — and, after each restart, what the queues hold. The rules:
 *
 * - A confirmed send is accounted for exactly once: in its queue, or received for good (a plain receive whose
 *   reply arrived, or a receive in a transaction whose commit was confirmed).
 * - A send with no reply may or may not have happened: stored or not, but never twice. A batch is all or none.
 * - A receive in a transaction that was aborted, or never committed before the crash, takes nothing.
 * - A commit with no reply may or may not have happened — for all the transaction's messages alike.
 * - A plain receive with no reply may have taken its message (at most one; a batch at most `max`): a confirmed
 *   message that is gone is put down to such receives while the queue has any unused, and is lost after that.
 * - A purge takes what was sent before it ended; what was confirmed before a confirmed purge began is gone.
 *
 * The ledger is fed by the workload as calls start and end (a logical clock orders them) and judged by
 * `verify()` with nothing in flight.
 */

export type QueueKey = 'plain' | 'xact' | 'purge';

type SendState = 'pending' | 'confirmed' | 'in-doubt' | 'refused' | 'in-tx';
/** Where a message was found to be at the latest verification. */
type Settled = 'open' | 'present' | 'consumed' | 'purged' | 'taken-in-doubt' | 'never-stored' | 'lost';
type TxState = 'open' | 'commit-sent' | 'commit-in-doubt' | 'committed' | 'aborted';

interface Tx {
  id: string;
  state: TxState;
  /** Tags received in it. */
  received: string[];
  /** Tags sent in it. */
  sent: string[];
}

interface Receipt {
  tx: Tx | null;
  /** How and in which trial it was received, for the anomaly's detail. */
  how: string;
}

interface MessageRecord {
  tag: string;
  queue: QueueKey;
  batch: number | null;
  send: SendState;
  tx: Tx | null;
  sendStart: number;
  sendEnd: number | null;
  receipts: Receipt[];
  settled: Settled;
  /** Logical time of the latest verification that found it in its queue. */
  lastSeen: number;
  flagged: boolean;
  survivedPurgeReported: boolean;
}

interface Purge {
  queue: QueueKey;
  start: number;
  /** Logical time of the confirmation; Infinity while (or if) it never came. */
  end: number;
  confirmed: boolean;
}

/** Counters over the whole drill. */
export interface LedgerFigures {
  confirmedSends: number;
  inDoubtSends: number;
  inDoubtStored: number;
  inDoubtNotStored: number;
  present: number;
  consumed: number;
  purged: number;
  takenByInterruptedReceives: number;
  interruptedReceiveBudget: number;
  lost: number;
  duplicated: number;
  tornBatches: number;
  tornTransactions: number;
  survivedPurge: number;
  abortedSendsStored: number;
  phantoms: number;
  commitsInDoubt: number;
  commitsInDoubtResolvedCommitted: number;
}

/** What one verification found wrong, for the failure message. */
export interface Anomaly {
  kind:
    'lost' | 'duplicated' | 'torn-batch' | 'torn-transaction' | 'survived-purge' | 'aborted-send-stored' | 'phantom';
  detail: string;
}

export class Ledger {
  private clock = 0;
  /** The trial the workload is in (set by the drill), for anomaly details. */
  trial = 0;
  private batches = 0;
  private readonly messages = new Map<string, MessageRecord>();
  private readonly txs = new Map<string, Tx>();
  private readonly purges: Purge[] = [];
  /** Messages a plain receive without reply may have taken, per queue, since the last verification. */
  private readonly budget: Record<QueueKey, number> = { plain: 0, xact: 0, purge: 0 };
  readonly anomalies: Anomaly[] = [];
  readonly figures: LedgerFigures = {
    confirmedSends: 0,
    inDoubtSends: 0,
    inDoubtStored: 0,
    inDoubtNotStored: 0,
    present: 0,
    consumed: 0,
    purged: 0,
    takenByInterruptedReceives: 0,
    interruptedReceiveBudget: 0,
    lost: 0,
    duplicated: 0,
    tornBatches: 0,
    tornTransactions: 0,
    survivedPurge: 0,
    abortedSendsStored: 0,
    phantoms: 0,
    commitsInDoubt: 0,
    commitsInDoubtResolvedCommitted: 0,
  };

  /** A send (one message or a batch) is about to go out; returns its tags' records' key. */
  sendStarted(items: { tag: string; queue: QueueKey }[], txId?: string): string[] {
    const start = ++this.clock;
    const batch = items.length > 1 ? ++this.batches : null;
    const tx = txId === undefined ? null : this.tx(txId);
    for (const { tag, queue } of items) {
      if (this.messages.has(tag)) throw new Error(`tag ${tag} used twice by the workload`);
      this.messages.set(tag, {
        tag,
        queue,
        batch,
        send: 'pending',
        tx,
        sendStart: start,
        sendEnd: null,
        receipts: [],
        settled: 'open',
        lastSeen: 0,
        flagged: false,
        survivedPurgeReported: false,
      });
      tx?.sent.push(tag);
    }
    return items.map((i) => i.tag);
  }

  /** The send's reply came (`ok` or `refused`), or never did (`no-reply`). */
  sendEnded(tags: string[], outcome: 'ok' | 'refused' | 'no-reply'): void {
    const end = ++this.clock;
    for (const tag of tags) {
      const record = this.record(tag);
      record.sendEnd = end;
      if (record.tx) record.send = outcome === 'refused' ? 'refused' : 'in-tx';
      else record.send = outcome === 'ok' ? 'confirmed' : outcome === 'refused' ? 'refused' : 'in-doubt';
      if (record.send === 'confirmed') this.figures.confirmedSends += 1;
      if (record.send === 'in-doubt') this.figures.inDoubtSends += 1;
    }
  }

  /** A receive's reply carried this message (in `txId` when it was a receive in a transaction). */
  received(tag: string, txId?: string, how = 'receive'): void {
    this.clock += 1;
    const record = this.messages.get(tag);
    if (!record) {
      this.anomaly('phantom', `received a message the drill never sent: ${tag}`);
      this.figures.phantoms += 1;
      return;
    }
    const holding = record.receipts.find((r) => r.tx === null || r.tx.state !== 'aborted');
    if (holding) {
      this.flagDuplicate(
        record,
        `delivered again while ${holding.tx ? `held by transaction ${holding.tx.id}` : 'already received'}`,
      );
    }
    const tx = txId === undefined ? null : this.tx(txId);
    record.receipts.push({
      tx,
      how: `${how} in trial ${this.trial}${tx ? ` (transaction ${tx.id}, ${tx.state})` : ''}`,
    });
    tx?.received.push(tag);
  }

  /** A plain (or single-message transaction) receive got no reply: it may have taken up to `max` messages. */
  receiveInterrupted(queue: QueueKey, max = 1): void {
    this.budget[queue] += max;
    this.figures.interruptedReceiveBudget += max;
  }

  txBegun(id: string): void {
    this.txs.set(id, { id, state: 'open', received: [], sent: [] });
  }

  txCommitSent(id: string): void {
    this.tx(id).state = 'commit-sent';
  }

  /** The commit's reply: ok (committed), refused (aborted), no-reply (in doubt until verification). */
  txCommitEnded(id: string, outcome: 'ok' | 'refused' | 'no-reply'): void {
    const tx = this.tx(id);
    tx.state = outcome === 'ok' ? 'committed' : outcome === 'refused' ? 'aborted' : 'commit-in-doubt';
    if (tx.state === 'commit-in-doubt') this.figures.commitsInDoubt += 1;
  }

  /** An abort was asked for; whatever its reply, the transaction's messages go back (a crash aborts too). */
  txAborted(id: string): void {
    this.tx(id).state = 'aborted';
  }

  purgeStarted(queue: QueueKey): Purge {
    const purge: Purge = { queue, start: ++this.clock, end: Infinity, confirmed: false };
    this.purges.push(purge);
    return purge;
  }

  purgeEnded(purge: Purge, outcome: 'ok' | 'refused' | 'no-reply'): void {
    const end = ++this.clock;
    if (outcome === 'ok') {
      purge.end = end;
      purge.confirmed = true;
    } else if (outcome === 'refused') {
      this.purges.splice(this.purges.indexOf(purge), 1);
    }
  }

  /** The service went down: transactions still open are aborted with it. */
  crashed(): void {
    for (const tx of this.txs.values()) {
      if (tx.state === 'open') tx.state = 'aborted';
      if (tx.state === 'commit-sent') {
        tx.state = 'commit-in-doubt';
        this.figures.commitsInDoubt += 1;
      }
    }
  }

  /**
   * Judges the queues' contents (the tags found in each, one entry per copy) with nothing in flight.
   * Returns the anomalies of this verification.
   */
  verify(contents: Record<QueueKey, string[]>): Anomaly[] {
    const firstNew = this.anomalies.length;
    this.clock += 1;
    const found = new Map<string, number>();
    for (const [queue, tags] of Object.entries(contents) as [QueueKey, string[]][]) {
      for (const tag of tags) {
        const record = this.messages.get(tag);
        if (record?.queue === queue) {
          found.set(tag, (found.get(tag) ?? 0) + 1);
        } else {
          this.anomaly('phantom', `found ${tag} in ${queue}, where the drill never sent it`);
          this.figures.phantoms += 1;
        }
      }
    }
    this.resolveTransactionsInDoubt(found);
    this.resolveBatchesInDoubt(found);
    for (const record of this.messages.values()) this.judge(record, found.get(record.tag) ?? 0);
    this.budget.plain = this.budget.xact = this.budget.purge = 0;
    return this.anomalies.slice(firstNew);
  }

  /** Counts of where confirmed messages are now, for the figures. */
  tally(): void {
    const f = this.figures;
    f.present = f.consumed = f.purged = f.takenByInterruptedReceives = 0;
    f.inDoubtStored = f.inDoubtNotStored = 0;
    for (const r of this.messages.values()) {
      if (r.settled === 'present') f.present += 1;
      if (r.settled === 'consumed') f.consumed += 1;
      if (r.settled === 'purged') f.purged += 1;
      if (r.settled === 'taken-in-doubt') f.takenByInterruptedReceives += 1;
      if (r.send === 'in-doubt') {
        if (r.settled === 'never-stored') f.inDoubtNotStored += 1;
        else f.inDoubtStored += 1;
      }
    }
  }

  private resolveTransactionsInDoubt(found: Map<string, number>): void {
    for (const tx of this.txs.values()) {
      if (tx.state !== 'commit-in-doubt') continue;
      // Committed: what it received is gone and what it sent is there; aborted: the other way round.
      const committedSigns = [
        ...tx.received.map((t) => (found.get(t) ?? 0) === 0),
        ...tx.sent.map((t) => (found.get(t) ?? 0) > 0 || this.record(t).receipts.length > 0),
      ];
      const committed = committedSigns.filter(Boolean).length;
      if (committed > 0 && committed < committedSigns.length) {
        this.anomaly('torn-transaction', `transaction ${tx.id} was committed for some of its messages only`);
        this.figures.tornTransactions += 1;
      }
      tx.state = committed * 2 >= committedSigns.length && committed > 0 ? 'committed' : 'aborted';
      if (tx.state === 'committed') this.figures.commitsInDoubtResolvedCommitted += 1;
    }
    for (const tx of this.txs.values()) {
      for (const tag of tx.sent) {
        const record = this.record(tag);
        if (record.send !== 'in-tx') continue;
        if (tx.state === 'committed') {
          record.send = 'confirmed';
          this.figures.confirmedSends += 1;
        } else if (tx.state === 'aborted') {
          record.send = 'refused';
        }
      }
    }
  }

  private resolveBatchesInDoubt(found: Map<string, number>): void {
    const batches = new Map<number, MessageRecord[]>();
    for (const r of this.messages.values()) {
      if (r.batch === null || r.send !== 'in-doubt' || r.settled !== 'open') continue;
      batches.set(r.batch, [...(batches.get(r.batch) ?? []), r]);
    }
    for (const members of batches.values()) {
      const stored = members.filter((r) => (found.get(r.tag) ?? 0) > 0 || r.receipts.length > 0);
      // One message of the batch is there: the service took the whole batch, so every member must be.
      if (stored.length > 0) for (const r of members) r.send = 'confirmed';
      if (stored.length > 0 && stored.length < members.length) {
        const missing = members.length - stored.length;
        this.figures.tornBatches += 1;
        this.anomaly(
          'torn-batch',
          `a batch of ${members.length} with no reply has ${missing} members missing (checked below as confirmed)`,
        );
      }
    }
  }

  private judge(record: MessageRecord, found: number): void {
    if (record.send === 'pending') throw new Error(`send of ${record.tag} never ended in the workload`);
    const consumed = record.receipts.filter((r) => r.tx === null || r.tx.state === 'committed').length;
    if (record.send === 'refused') {
      if (found + consumed > 0) {
        this.figures.abortedSendsStored += 1;
        this.anomaly(
          'aborted-send-stored',
          `${record.tag}: its send was refused or its transaction aborted, yet it is there`,
        );
      }
      return;
    }
    if (found + consumed >= 2) {
      this.flagDuplicate(
        record,
        `found ${found} time(s) in ${record.queue} and received for good ${consumed} time(s): ${record.receipts.map((r) => r.how).join('; ')}`,
      );
      return;
    }
    const wasGone = ['purged', 'taken-in-doubt', 'never-stored', 'lost'].includes(record.settled);
    if (found + consumed === 1) {
      // Nothing brings a message back once it was judged gone: no receipt, no copy in the queue.
      if (wasGone) {
        this.flagDuplicate(record, `came back after it was judged ${record.settled}`);
        return;
      }
      if (found > 0) {
        this.checkPurges(record);
        record.lastSeen = this.clock;
      }
      record.settled = found > 0 ? 'present' : 'consumed';
      return;
    }
    if (wasGone) return;
    if (record.send === 'in-doubt') {
      record.settled = 'never-stored';
    } else if (this.purgedBy(record)) {
      record.settled = 'purged';
    } else if (this.budget[record.queue] > 0) {
      this.budget[record.queue] -= 1;
      record.settled = 'taken-in-doubt';
    } else {
      record.settled = 'lost';
      this.figures.lost += 1;
      this.anomaly('lost', `${record.tag} (${record.queue}): confirmed, not in its queue, never received`);
    }
  }

  /** A message confirmed before a confirmed purge of its queue began must not be there after it. */
  private checkPurges(record: MessageRecord): void {
    if (record.sendEnd === null) return;
    const sendEnd = record.sendEnd;
    const survived = this.purges.some((p) => p.queue === record.queue && p.confirmed && p.start > sendEnd);
    if (survived && record.receipts.length === 0 && !record.survivedPurgeReported) {
      record.survivedPurgeReported = true;
      this.figures.survivedPurge += 1;
      this.anomaly('survived-purge', `${record.tag}: sent before a confirmed purge of ${record.queue}, still there`);
    }
  }

  /** A purge that ran after the message was sent and since it was last seen may have taken it. */
  private purgedBy(record: MessageRecord): boolean {
    const since = Math.max(record.sendStart, record.lastSeen);
    return this.purges.some((p) => p.queue === record.queue && p.end > since);
  }

  private flagDuplicate(record: MessageRecord, why: string): void {
    if (!record.flagged) this.figures.duplicated += 1;
    record.flagged = true;
    this.anomaly('duplicated', `${record.tag} (${record.queue}): ${why}`);
  }

  private anomaly(kind: Anomaly['kind'], detail: string): void {
    this.anomalies.push({ kind, detail });
  }

  private record(tag: string): MessageRecord {
    const record = this.messages.get(tag);
    if (!record) throw new Error(`unknown tag ${tag}`);
    return record;
  }

  private tx(id: string): Tx {
    const tx = this.txs.get(id);
    if (!tx) throw new Error(`unknown transaction ${id}`);
    return tx;
  }
}
