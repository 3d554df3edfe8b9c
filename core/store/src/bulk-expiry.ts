/**
 * Expiry in sets (issue 11: 100,000 due at once within a second). Most expiring messages owe nothing of their
 * own: no acknowledgment, no transaction, at most a dead-letter copy in this computer's DEADLETTER$ (R-X7,
 * R-D1). Those are found as narrow rows; the ones to dead-letter become their dead letters by one UPDATE (a
 * new lookup ID, queue and class), the others go by one DELETE, without ever reading a body into JavaScript. Everything else expires one by one.
 */
import type Database from 'better-sqlite3';
import type { Buckets } from './buckets.js';
import type { MessageTable } from './records.js';
import type { Db } from './open-database.js';
import { LIMIT } from './sql-limit.js';
import type { RowCache } from './row-cache.js';

/** A due message that needs no per-message work beyond its dead-letter copy. */
export interface PlainExpired {
  lookupId: number;
  queueId: number;
  size: number;
  priority: number;
  msgId: string;
  /** It asked to be dead-lettered (MQMSG_DEADLETTER, journal bit 1). */
  deadLetter: boolean;
}

interface Statements {
  plainDue: Database.Statement;
  move: Database.Statement;
}

export class BulkExpiry {
  private readonly tables: Record<MessageTable, Statements>;

  constructor(
    db: Db,
    private readonly buckets: Buckets,
    private readonly cache: RowCache,
  ) {
    const prepare = (t: MessageTable): Statements => ({
      // Ready, nontransactional (R-X8 makes a transactional one a dequeue of its own), and no NACK asked for
      // (the acknowledgment level's bit given as the second parameter, R-A4).
      plainDue: db
        .prepare(
          `SELECT lookup_id, queue_id, size, priority, msg_id, journal & 1 FROM ${t}.messages
             WHERE expires_ms <= ? AND status = 1 AND transactional = 0 AND (admin_queue IS NULL OR (ack & ?) = 0)
               AND queue_id NOT IN (SELECT bucket FROM main.dead_buckets)
             ORDER BY expires_ms ${LIMIT}`,
        )
        .raw(true),
      // The dead letter is the same row with a new lookup ID, queue, class, arrival and no timer — what a
      // copy by place() plus the original's deletion leave — so the row is moved, not copied and deleted
      // (half the work). A new lookup ID is above every stored one of its priority (and the priorities' IDs
      // do not overlap, R-L1): no key collides on the way.
      move: db.prepare(
        `UPDATE ${t}.messages SET lookup_id = j.value ->> 1, queue_id = @queue, status = 1, class = @classCode,
           arrived_ms = @now, expires_ms = NULL
         FROM json_each(@renumbered) j WHERE ${t}.messages.lookup_id = j.value ->> 0`,
      ),
    });
    this.tables = { main: prepare('main'), mem: prepare('mem') };
  }

  /** Up to `limit` due messages of a table that owe nothing per message, earliest deadline first. */
  plainDue(table: MessageTable, nowMs: number, negativeReceiveBit: number, limit: number): PlainExpired[] {
    const rows = this.tables[table].plainDue.all(nowMs, negativeReceiveBit, limit) as [
      number,
      number,
      number,
      number,
      string,
      number,
    ][];
    return rows.map(([lookupId, bucket, size, priority, msgId, deadLetter]) => ({
      lookupId,
      queueId: this.buckets.queueOf(bucket) ?? bucket,
      size,
      priority,
      msgId,
      deadLetter: deadLetter === 1,
    }));
  }

  /**
   * Turns messages of a table into dead letters in a queue, in one statement: `originals[i]` leaves its queue
   * and its dead letter, lookup ID `lookupIds[i]`, is ready there, of class `classCode`, arrived at `nowMs`,
   * with no timer (R-D4) — the row place() would insert, in the table of its delivery (unchanged).
   */
  moveAsDeadLetters(
    table: MessageTable,
    originals: readonly number[],
    lookupIds: readonly number[],
    queueId: number,
    classCode: number,
    nowMs: number,
  ): void {
    if (originals.length === 0) return;
    // The originals leave and their dead letters take new lookup IDs (a phantom may be held under one).
    this.cache.forgetMany(table, originals);
    this.cache.forgetMany(table, lookupIds);
    this.tables[table].move.run({
      queue: this.buckets.of(queueId),
      classCode,
      now: nowMs,
      renumbered: JSON.stringify(originals.map((original, i) => [original, lookupIds[i]])),
    });
  }
}
