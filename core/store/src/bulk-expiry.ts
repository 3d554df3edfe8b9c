/**
 * Expiry in sets (issue 11: 100,000 due at once within a second). Most expiring messages owe nothing of their
 * own: no acknowledgment, no transaction, at most a dead-letter copy in this computer's DEADLETTER$ (R-X7,
 * R-D1). Those are found as narrow rows, copied into the dead-letter queue with one INSERT … SELECT and
 * deleted with one DELETE, without ever reading a body into JavaScript. Everything else expires one by one.
 */
import type Database from 'better-sqlite3';
import { MESSAGE_COLUMNS } from './message-rows.js';
import type { Buckets } from './buckets.js';
import type { MessageTable } from './records.js';
import type { Db } from './open-database.js';

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
  copy: Database.Statement;
}

/** Columns of the copy, in MESSAGE_COLUMNS order: new lookup ID, the dead-letter queue, ready, the failure class, arrived now, no timer. */
const COPY_VALUES: Record<string, string> = {
  lookup_id: 'j.value ->> 1',
  queue_id: '@queue',
  status: '1',
  class: '@classCode',
  arrived_ms: '@now',
  expires_ms: 'NULL',
};

export class BulkExpiry {
  private readonly tables: Record<MessageTable, Statements>;

  constructor(
    db: Db,
    private readonly buckets: Buckets,
  ) {
    const prepare = (t: MessageTable): Statements => ({
      // Ready, nontransactional (R-X8 makes a transactional one a dequeue of its own), and no NACK asked for
      // (the acknowledgment level's bit given as the second parameter, R-A4).
      plainDue: db
        .prepare(
          `SELECT lookup_id, queue_id, size, priority, msg_id, journal & 1 FROM ${t}.messages
             WHERE expires_ms <= ? AND status = 1 AND transactional = 0 AND (admin_queue IS NULL OR (ack & ?) = 0)
               AND queue_id NOT IN (SELECT bucket FROM main.dead_buckets)
             ORDER BY expires_ms LIMIT ?`,
        )
        .raw(true),
      // CROSS JOIN keeps SQLite from scanning the table: the pairs are walked, each original found by its key.
      copy: db.prepare(
        `INSERT INTO ${t}.messages (${MESSAGE_COLUMNS.join(', ')})
           SELECT ${MESSAGE_COLUMNS.map((c) => COPY_VALUES[c] ?? `m.${c}`).join(', ')}
           FROM json_each(@pairs) j CROSS JOIN ${t}.messages m ON m.lookup_id = j.value ->> 0`,
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
   * Copies messages of a table into a queue as dead letters in one statement: each pair is (lookup ID of the
   * original, lookup ID of its copy); the copy is ready, of class `classCode`, arrived at `nowMs`, with no timer.
   */
  copyAsDeadLetters(
    table: MessageTable,
    pairs: readonly [number, number][],
    queueId: number,
    classCode: number,
    nowMs: number,
  ): void {
    if (pairs.length > 0)
      this.tables[table].copy.run({
        queue: this.buckets.of(queueId),
        classCode,
        now: nowMs,
        pairs: JSON.stringify(pairs),
      });
  }
}
