/**
 * SQL of delivery between computers (docs/network.md "What is durable"): hops and sequence numbers of
 * messages in transit, sequence state on both ends, the source's sent transactional messages awaiting their
 * final confirmation, and the confirmations owed to other computers.
 */
import type Database from 'better-sqlite3';
import type { Buckets } from './buckets.js';
import type { Db } from './open-database.js';
import type { ControlRecord, MessageTable, SentRecord, SeqOutRecord, TransitRecord } from './records.js';
import { LIMIT } from './sql-limit.js';

interface TransitRow {
  lookup_id: number;
  hops: number;
  stream: string | null;
  seq: number | null;
  grp: string | null;
  prev: number | null;
}

const fromTransit = (r: TransitRow): TransitRecord => ({
  lookupId: r.lookup_id,
  hops: r.hops,
  stream: r.stream,
  seq: r.seq,
  group: r.grp,
  previous: r.prev,
});

interface TableStatements {
  put: Database.Statement;
  many: Database.Statement;
  remove: Database.Statement;
  removeMany: Database.Statement;
  orphans: Database.Statement;
}

function prepareTransit(db: Db, t: MessageTable): TableStatements {
  return {
    put: db.prepare(
      `INSERT OR REPLACE INTO ${t}.transit (lookup_id, hops, stream, seq, grp, prev) VALUES (@lookupId, @hops, @stream, @seq, @group, @previous)`,
    ),
    many: db.prepare(`SELECT * FROM ${t}.transit WHERE lookup_id IN (SELECT value FROM json_each(?))`),
    remove: db.prepare(`DELETE FROM ${t}.transit WHERE lookup_id = ?`),
    removeMany: db.prepare(`DELETE FROM ${t}.transit WHERE lookup_id IN (SELECT value FROM json_each(?))`),
    orphans: db.prepare(
      `DELETE FROM ${t}.transit WHERE NOT EXISTS (SELECT 1 FROM ${t}.messages m WHERE m.lookup_id = transit.lookup_id)`,
    ),
  };
}

export class NetworkDeliveryStore {
  private readonly transitTables: Record<MessageTable, TableStatements>;
  private readonly s: Record<string, Database.Statement>;

  constructor(
    db: Db,
    private readonly buckets: Buckets,
  ) {
    this.transitTables = { main: prepareTransit(db, 'main'), mem: prepareTransit(db, 'mem') };
    this.s = {
      inStream: db.prepare(`SELECT lookup_id AS id FROM main.transit WHERE stream = ? AND seq <= ? ORDER BY seq`),
      inStreamAt: db.prepare(`SELECT lookup_id AS id FROM main.transit WHERE stream = ? AND seq = ?`),
      heldInStream: db.prepare(
        `SELECT t.seq AS seq, m.queue_id AS bucket FROM main.transit t JOIN main.messages m ON m.lookup_id = t.lookup_id
         WHERE t.stream = ? AND t.seq > ? AND t.seq < ? ORDER BY t.seq`,
      ),
      setPrevious: db.prepare(`UPDATE main.transit SET prev = ? WHERE lookup_id = ?`),
      seqOut: db.prepare(
        `SELECT dest_key AS destKey, stream, next_seq AS nextSeq, acked FROM seq_out WHERE dest_key = ?`,
      ),
      seqOutByStream: db.prepare(
        `SELECT dest_key AS destKey, stream, next_seq AS nextSeq, acked FROM seq_out WHERE stream = ?`,
      ),
      putSeqOut: db.prepare(
        `INSERT INTO seq_out (dest_key, stream, next_seq, acked) VALUES (@destKey, @stream, @nextSeq, @acked)
         ON CONFLICT(dest_key) DO UPDATE SET stream = excluded.stream, next_seq = excluded.next_seq, acked = excluded.acked`,
      ),
      seqIn: db.prepare(`SELECT last_seq AS lastSeq FROM seq_in WHERE stream = ?`),
      putSeqIn: db.prepare(
        `INSERT INTO seq_in (stream, source_id, last_seq, updated_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT(stream) DO UPDATE SET last_seq = excluded.last_seq, updated_ms = excluded.updated_ms`,
      ),
      putSent: db.prepare(
        `INSERT OR REPLACE INTO xact_sent (msg_id, dest_key, final_by_ms, record) VALUES (@msgId, @destKey, @finalByMs, @record)`,
      ),
      sent: db.prepare(
        `SELECT msg_id AS msgId, dest_key AS destKey, final_by_ms AS finalByMs, record FROM xact_sent WHERE msg_id = ?`,
      ),
      removeSent: db.prepare(`DELETE FROM xact_sent WHERE msg_id = ?`),
      sentDue: db.prepare(
        `SELECT msg_id AS msgId, dest_key AS destKey, final_by_ms AS finalByMs, record FROM xact_sent
         WHERE final_by_ms <= ? ORDER BY final_by_ms ${LIMIT}`,
      ),
      sentCount: db.prepare(`SELECT count(*) AS n FROM xact_sent`),
      // REPLACE gives the newer item a new id: a session that took the older one deletes only that one.
      addControl: db.prepare(
        `INSERT OR REPLACE INTO control_out (to_key, dedupe_key, item, created_ms) VALUES (?, ?, ?, ?)`,
      ),
      pendingControl: db.prepare(
        `SELECT id, to_key AS toKey, item, created_ms AS createdMs FROM control_out ORDER BY id ${LIMIT}`,
      ),
      removeControl: db.prepare(`DELETE FROM control_out WHERE id IN (SELECT value FROM json_each(?))`),
      controlCount: db.prepare(`SELECT count(*) AS n FROM control_out`),
    };
  }

  // ── transit ─────────────────────────────────────────────────────────────────────────────────────────

  putTransit(table: MessageTable, record: TransitRecord): void {
    this.transitTables[table].put.run(record);
  }

  /** Transit rows of the given messages (those without one made no hop and have no sequence). */
  transitOf(table: MessageTable, lookupIds: readonly number[]): Map<number, TransitRecord> {
    if (lookupIds.length === 0) return new Map();
    const rows = this.transitTables[table].many.all(JSON.stringify(lookupIds)) as TransitRow[];
    return new Map(rows.map((r) => [r.lookup_id, fromTransit(r)]));
  }

  removeTransit(table: MessageTable, lookupIds: readonly number[]): void {
    if (lookupIds.length === 1) this.transitTables[table].remove.run(lookupIds[0]);
    else if (lookupIds.length > 1) this.transitTables[table].removeMany.run(JSON.stringify(lookupIds));
  }

  /** Removes rows of messages that left their outgoing queue some other way (expiry, purge); returns how many. */
  cleanupTransit(): number {
    return this.transitTables.main.orphans.run().changes + this.transitTables.mem.orphans.run().changes;
  }

  /** Messages waiting in an outgoing queue whose number in `stream` is at most `through` (transactional: durable). */
  inStreamThrough(stream: string, through: number): number[] {
    return (this.s.inStream!.all(stream, through) as { id: number }[]).map((r) => r.id);
  }

  /** The transit rows with this number of `stream` (durable: transactional); a message gone since may still have one. */
  inStreamAt(stream: string, seq: number): number[] {
    return (this.s.inStreamAt!.all(stream, seq) as { id: number }[]).map((r) => r.id);
  }

  /**
   * The numbers of `stream` above `above` and below `below` whose messages are still stored in queue `queueId`
   * (not removed, not purged), in order: what the source may still deliver of its stream (R-E3).
   */
  heldInStream(stream: string, queueId: number, above: number, below: number): number[] {
    const rows = this.s.heldInStream!.all(stream, above, below) as { seq: number; bucket: number }[];
    const held: number[] = [];
    for (const r of rows) if (this.buckets.queueOf(r.bucket) === queueId) held.push(r.seq);
    return held;
  }

  /** A routing server's copy came again with a newer previous number (R-E3). */
  setTransitPrevious(lookupId: number, previous: number | null): void {
    this.s.setPrevious!.run(previous, lookupId);
  }

  // ── sequences ───────────────────────────────────────────────────────────────────────────────────────

  seqOut(destKey: string): SeqOutRecord | undefined {
    return this.s.seqOut!.get(destKey) as SeqOutRecord | undefined;
  }

  seqOutByStream(stream: string): SeqOutRecord | undefined {
    return this.s.seqOutByStream!.get(stream) as SeqOutRecord | undefined;
  }

  putSeqOut(record: SeqOutRecord): void {
    this.s.putSeqOut!.run(record);
  }

  /** The last number accepted on an incoming stream, 0 when it is new. */
  seqIn(stream: string): number {
    return (this.s.seqIn!.get(stream) as { lastSeq: number } | undefined)?.lastSeq ?? 0;
  }

  putSeqIn(stream: string, sourceId: string, lastSeq: number, nowMs: number): void {
    this.s.putSeqIn!.run(stream, sourceId, lastSeq, nowMs);
  }

  // ── sent transactional messages ─────────────────────────────────────────────────────────────────────

  putSent(record: SentRecord): void {
    this.s.putSent!.run(record);
  }

  sent(msgId: string): SentRecord | undefined {
    return this.s.sent!.get(msgId) as SentRecord | undefined;
  }

  removeSent(msgId: string): boolean {
    return this.s.removeSent!.run(msgId).changes > 0;
  }

  /** Records whose final confirmation is overdue, oldest first. */
  sentDue(nowMs: number, limit: number): SentRecord[] {
    return this.s.sentDue!.all(nowMs, limit) as SentRecord[];
  }

  sentCount(): number {
    return (this.s.sentCount!.get() as { n: number }).n;
  }

  // ── control items ───────────────────────────────────────────────────────────────────────────────────

  /** Owes `item` to computer `toKey`; with a dedupe key it replaces the earlier item of that key. */
  addControl(toKey: string, dedupeKey: string | null, item: string, nowMs: number): void {
    this.s.addControl!.run(toKey, dedupeKey, item, nowMs);
  }

  pendingControl(limit: number): ControlRecord[] {
    return this.s.pendingControl!.all(limit) as ControlRecord[];
  }

  removeControl(ids: readonly number[]): void {
    if (ids.length > 0) this.s.removeControl!.run(JSON.stringify(ids));
  }

  controlCount(): number {
    return (this.s.controlCount!.get() as { n: number }).n;
  }
}
