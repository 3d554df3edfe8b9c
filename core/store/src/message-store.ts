/**
 * Message SQL. Recoverable messages live in `main` (the WAL file); express messages in `mem`, an attached
 * in-memory database with the same table, so they are lost when the service stops (R-V1) yet are queried
 * with the same statements. Rows are read in raw mode (arrays) on every path.
 */
import type Database from 'better-sqlite3';
import {
  allColumns,
  columnsWithoutBody,
  fromRaw,
  isPlain,
  MESSAGE_COLUMNS,
  plainValues,
  toParams,
} from './message-rows.js';
import type { BrowseQuery, MessageRecord, MessageTable, QueueUsage, StoredMessage } from './records.js';
import type { Db } from './open-database.js';
import type { Buckets, DeadBucket } from './buckets.js';
import { LIMIT } from './sql-limit.js';
import { arrivalOf, lookupIdRangeOf, PRIORITY_LEVELS } from './lookup-ids.js';
import type { RowCache } from './row-cache.js';

const TABLES: readonly MessageTable[] = ['main', 'mem'];
const NOT_DEAD = 'queue_id NOT IN (SELECT bucket FROM main.dead_buckets)';
/** Whether a message leaving unreceived owes something (its first parameter: XactDeadLetterAlways). */
const OWING = '((ack & 12) <> 0 AND admin_queue IS NOT NULL) OR (transactional = 1 AND ((journal & 1) <> 0 OR ? = 1))';
/** Expired messages handled per call; the engine calls again at once while calls come back full. */
export const EXPIRY_BATCH = 5_000;

interface TableStatements {
  insert: Database.Statement;
  insertPlain: Database.Statement;
  get: Database.Statement;
  remove: Database.Statement;
  removeMany: Database.Statement;
  removeRange: Database.Statement;
  setStatus: Database.Statement;
  firstReadyIds: Database.Statement;
  expired: Database.Statement;
  anyExpired: Database.Statement;
  byCorrelation: Database.Statement;
  byMessageId: Database.Statement;
  byConversation: Database.Statement;
  deadReady: Database.Statement;
  deadDue: Database.Statement;
  deadRetained: Database.Statement;
  rebucket: Database.Statement;
  rows: Database.Statement;
  moveTo: Database.Statement;
  addAbort: Database.Statement;
  nextSamePriority: Database.Statement;
  nextLowerPriority: Database.Statement;
  previousSamePriority: Database.Statement;
  previousHigherPriority: Database.Statement;
  retainedAfter: Database.Statement;
  readySince: Database.Statement;
  usage: Database.Statement;
  classCounts: Database.Statement;
  maxLookupIdUpTo: Database.Statement;
}

function prepareTable(db: Db, t: MessageTable): TableStatements {
  const placeholders = MESSAGE_COLUMNS.map(() => '?').join(', ');
  const all = allColumns();
  const raw = (sql: string): Database.Statement => db.prepare(sql).raw(true);
  return {
    insert: db.prepare(`INSERT INTO ${t}.messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${placeholders})`),
    insertPlain: db.prepare(`INSERT INTO ${t}.messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${plainValues()})`),
    get: raw(`SELECT ${all} FROM ${t}.messages WHERE lookup_id = ?`),
    remove: db.prepare(`DELETE FROM ${t}.messages WHERE lookup_id = ?`),
    removeMany: db.prepare(`DELETE FROM ${t}.messages WHERE lookup_id IN (SELECT value FROM json_each(?))`),
    removeRange: db.prepare(`DELETE FROM ${t}.messages WHERE lookup_id BETWEEN ? AND ?`),
    setStatus: db.prepare(`UPDATE ${t}.messages SET status = ?, expires_ms = NULL WHERE lookup_id = ?`),
    firstReadyIds: raw(
      `SELECT lookup_id, priority FROM ${t}.messages WHERE queue_id = ? AND status = 1 ORDER BY priority DESC, lookup_id ${LIMIT}`,
    ),
    // Rows of purged buckets are gone for expiry too (buckets.ts): they owe what a purge owes, not a timeout.
    expired: raw(
      `SELECT ${all} FROM ${t}.messages WHERE expires_ms <= ? AND ${NOT_DEAD} ORDER BY expires_ms LIMIT ${EXPIRY_BATCH}`,
    ),
    anyExpired: raw(`SELECT 1 FROM ${t}.messages WHERE expires_ms <= ? AND ${NOT_DEAD} LIMIT 1`),
    byCorrelation: raw(`SELECT ${all} FROM ${t}.messages WHERE correlation_id = ? ORDER BY lookup_id`),
    byMessageId: raw(`SELECT ${all} FROM ${t}.messages WHERE msg_id = ? ORDER BY lookup_id`),
    byConversation: raw(`SELECT ${columnsWithoutBody()} FROM ${t}.messages WHERE conversation = ?`),
    // A purged bucket's rows in bounded chunks, on the two partial indexes (buckets.ts), ids and sizes only:
    // deleting a million messages never builds a million row objects. Whether a ready one owes something is
    // read in the same pass — a NACK asked for: NEG_RECEIVE for a destination queue (R-P3, R-Q1), NEG_ARRIVAL
    // for an outgoing one (R-P6); a transactional one going to a transactional dead-letter queue (R-D2; all
    // of them when the first parameter is 1, XactDeadLetterAlways, R-D3) — so only those are read again whole.
    deadReady: raw(`SELECT lookup_id, size, ${OWING} FROM ${t}.messages WHERE queue_id = ? AND status = 1 ${LIMIT}`),
    // The purged rows whose deadline has passed go first: until they are gone, every expiry probe reads past
    // them on the deadline index (a restart after a long stop, a purge of messages about to expire).
    deadDue: raw(
      `SELECT lookup_id, size, ${OWING}
         FROM ${t}.messages INDEXED BY messages_expiry WHERE expires_ms <= ? AND queue_id = ? AND status = 1 ${LIMIT}`,
    ),
    deadRetained: raw(`SELECT lookup_id, size FROM ${t}.messages WHERE queue_id = ? AND status <> 1 ${LIMIT}`),
    rows: raw(`SELECT ${all} FROM ${t}.messages WHERE lookup_id IN (SELECT value FROM json_each(?))`),
    rebucket: db.prepare(`UPDATE ${t}.messages SET queue_id = ? WHERE lookup_id IN (SELECT value FROM json_each(?))`),
    moveTo: db.prepare(
      `UPDATE ${t}.messages SET queue_id = ?, move_count = move_count + 1, abort_count = 0, last_move_ms = ? WHERE lookup_id = ?`,
    ),
    addAbort: db.prepare(`UPDATE ${t}.messages SET abort_count = abort_count + 1 WHERE lookup_id = ?`),
    nextSamePriority: raw(
      `SELECT lookup_id, priority FROM ${t}.messages WHERE queue_id = ? AND status = 1 AND priority = ? AND lookup_id > ? ORDER BY priority DESC, lookup_id ${LIMIT}`,
    ),
    nextLowerPriority: raw(
      `SELECT lookup_id, priority FROM ${t}.messages WHERE queue_id = ? AND status = 1 AND priority < ? ORDER BY priority DESC, lookup_id ${LIMIT}`,
    ),
    previousSamePriority: raw(
      `SELECT lookup_id, priority FROM ${t}.messages WHERE queue_id = ? AND status = 1 AND priority = ? AND lookup_id < ? ORDER BY priority ASC, lookup_id DESC ${LIMIT}`,
    ),
    previousHigherPriority: raw(
      `SELECT lookup_id, priority FROM ${t}.messages WHERE queue_id = ? AND status = 1 AND priority > ? ORDER BY priority ASC, lookup_id DESC ${LIMIT}`,
    ),
    // Messages that arrived after a number are few: the primary key finds them in each priority's range of
    // lookup IDs, whatever the queue's size.
    readySince: raw(
      `SELECT lookup_id, priority FROM ${t}.messages WHERE lookup_id > ? AND lookup_id <= ? AND queue_id = ? AND status = 1 ORDER BY lookup_id ${LIMIT}`,
    ),
    retainedAfter: raw(
      `SELECT lookup_id, priority FROM ${t}.messages WHERE queue_id = ? AND status <> 1 AND lookup_id > ? ORDER BY lookup_id ${LIMIT}`,
    ),
    usage: db.prepare(
      `SELECT queue_id AS queueId, count(*) AS count, total(size) AS bytes, total(status <> 1) AS retained FROM ${t}.messages GROUP BY queue_id`,
    ),
    classCounts: db.prepare(
      `SELECT class AS classCode, count(*) AS count FROM ${t}.messages WHERE queue_id = ? GROUP BY class`,
    ),
    maxLookupIdUpTo: db.prepare(`SELECT max(lookup_id) AS id FROM ${t}.messages WHERE lookup_id <= ?`).pluck(true),
  };
}

const SORT_SQL: Record<BrowseQuery['sort']['column'], string> = {
  queue: 'priority DESC, lookup_id ASC',
  lookupId: 'lookup_id',
  priority: 'priority',
  class: 'class',
  label: 'label COLLATE NOCASE',
  size: 'size',
  sentTime: 'sent_ms',
  arrivedTime: 'arrived_ms',
};

/** A chunk of messages to remove: ids and sizes, and the whole rows of those that owe a NACK. */
export interface RemovalChunk {
  lookupIds: number[];
  bytes: number;
  owing: StoredMessage[];
}

/** Every message statement of the store. */
export class MessageStore {
  private readonly tables: Record<MessageTable, TableStatements>;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Db,
    private readonly buckets: Buckets,
    private readonly cache: RowCache,
  ) {
    this.tables = { main: prepareTable(db, 'main'), mem: prepareTable(db, 'mem') };
  }

  insert(table: MessageTable, message: MessageRecord): void {
    const bucket = this.buckets.of(message.queueId);
    const params = toParams(message);
    params[1] = bucket;
    if (isPlain(message)) {
      // Arguments, not an array: better-sqlite3 binds an array's elements more slowly.
      const m = message;
      this.tables[table].insertPlain.run(
        m.lookupId,
        bucket,
        m.status,
        m.priority,
        m.msgId,
        m.label,
        m.body,
        m.size,
        m.delivery,
        m.destQueue,
        m.sourceMachine,
        m.sourceMachineId,
        m.sentMs,
        m.arrivedMs,
        m.ttrq,
        m.expiresMs,
        m.bodySize,
        m.timerBaseMs,
      );
    } else this.tables[table].insert.run(params);
    // After the statement: a row it refused is not held.
    this.cache.put(table, message.lookupId, params);
  }

  get(lookupId: number, table?: MessageTable): StoredMessage | undefined {
    for (const t of table ? [table] : TABLES) {
      const row = this.cache.get(t, lookupId) ?? (this.tables[t].get.get(lookupId) as unknown[] | undefined);
      if (row) return this.buckets.liveRow(row) ? fromRaw(row, t) : undefined;
    }
    return undefined;
  }

  /** Removes one row; false when it was already gone. */
  remove(table: MessageTable, lookupId: number): boolean {
    this.cache.forget(table, lookupId);
    return this.tables[table].remove.run(lookupId).changes > 0;
  }

  /** Removes many rows in one statement; returns how many there were. */
  removeMany(table: MessageTable, lookupIds: readonly number[]): number {
    if (lookupIds.length === 0) return 0;
    const s = this.tables[table];
    const runs = consecutiveRuns(lookupIds);
    if (runs === null) {
      this.cache.forgetMany(table, lookupIds);
      return s.removeMany.run(JSON.stringify(lookupIds)).changes;
    }
    let removed = 0;
    for (const [first, last] of runs) {
      this.cache.forgetRange(table, first, last);
      removed += s.removeRange.run(first, last).changes;
    }
    return removed;
  }

  setStatus(table: MessageTable, lookupId: number, status: number): boolean {
    this.cache.forget(table, lookupId);
    return this.tables[table].setStatus.run(status, lookupId).changes > 0;
  }

  /**
   * The first `limit` ready messages of a queue in receive order (R-O1), both tables merged. The order is
   * found on the covering index; only the rows that are returned are read.
   */
  firstReady(queueId: number, limit: number, skip?: (lookupId: number) => boolean): StoredMessage[] {
    let picks: { id: number; priority: number; table: MessageTable }[] = [];
    for (const t of TABLES) {
      for (const [id, priority] of this.tables[t].firstReadyIds.all(this.buckets.of(queueId), Math.floor(limit)) as [
        number,
        number,
      ][])
        picks.push({ id, priority, table: t });
    }
    if (picks.length > limit) picks.sort((a, b) => b.priority - a.priority || a.id - b.id).splice(limit);
    else if (picks.length > 1) picks.sort((a, b) => b.priority - a.priority || a.id - b.id);
    // Rows the caller would throw away (held by others) are never read: their bodies are most of the cost.
    if (skip) picks = picks.filter((p) => !skip(p.id));
    if (picks.length === 0) return [];
    if (picks.length === 1) {
      const only = picks[0] as (typeof picks)[number];
      const m = this.get(only.id, only.table);
      return m ? [m] : [];
    }
    const rows = this.rowsByIds(
      picks.map((p) => [p.id, p.table] as [number, MessageTable]),
      true,
    );
    return picks.map((p) => rows.get(p.id)).filter((m): m is StoredMessage => m !== undefined);
  }

  /** Which tables hold a message whose timer has run out by `nowMs` (one index probe each). */
  tablesWithExpired(nowMs: number): MessageTable[] {
    return TABLES.filter((t) => this.tables[t].anyExpired.get(nowMs) !== undefined);
  }

  /** Messages whose timer has run out by `nowMs` (at most EXPIRY_BATCH per table per call). */
  expired(nowMs: number): StoredMessage[] {
    return TABLES.flatMap((t) => this.live(this.tables[t].expired.all(nowMs), t));
  }

  byCorrelation(correlationId: string): StoredMessage[] {
    return TABLES.flatMap((t) => this.live(this.tables[t].byCorrelation.all(correlationId), t));
  }

  byMessageId(msgId: string): StoredMessage[] {
    return TABLES.flatMap((t) => this.live(this.tables[t].byMessageId.all(msgId), t));
  }

  /** Messages of a conversation, without bodies. */
  byConversation(conversation: string): StoredMessage[] {
    return TABLES.flatMap((t) => this.live(this.tables[t].byConversation.all(conversation), t));
  }

  /** Raw rows as messages, leaving out those of purged buckets (buckets.ts). */
  private live(rows: unknown[], table: MessageTable): StoredMessage[] {
    const messages: StoredMessage[] = [];
    for (const row of rows as unknown[][]) if (this.buckets.liveRow(row)) messages.push(fromRaw(row, table));
    return messages;
  }

  /**
   * Up to `limit` rows of a purged bucket, ready ones first (with whole rows of those that owe something,
   * their queue id the one they were purged from); retained ones once no ready one is left.
   */
  deadChunk(
    table: MessageTable,
    dead: DeadBucket,
    limit: number,
    xactDeadLetterAlways: boolean,
    nowMs: number,
  ): RemovalChunk {
    const s = this.tables[table];
    const always = xactDeadLetterAlways ? 1 : 0;
    let ready = s.deadDue.all(always, nowMs, dead.bucket, limit) as [number, number, number][];
    if (ready.length === 0) ready = s.deadReady.all(always, dead.bucket, limit) as [number, number, number][];
    if (ready.length === 0) {
      const retained = s.deadRetained.all(dead.bucket, limit) as [number, number][];
      return { lookupIds: retained.map((r) => r[0]), bytes: retained.reduce((sum, r) => sum + r[1], 0), owing: [] };
    }
    const owingIds = ready.filter((r) => r[2] === 1).map((r) => r[0]);
    const owing: StoredMessage[] = [];
    if (owingIds.length > 0) {
      const rows = s.rows.all(JSON.stringify(owingIds)) as unknown[][];
      for (const row of rows) owing.push({ ...fromRaw(row, table), queueId: dead.queueId });
    }
    return { lookupIds: ready.map((r) => r[0]), bytes: ready.reduce((sum, r) => sum + r[1], 0), owing };
  }

  /** Moves rows into their queue's current bucket: messages a purge leaves to the receive holding them (R-P2). */
  rebucket(table: MessageTable, lookupIds: readonly number[], queueId: number): void {
    this.cache.forgetMany(table, lookupIds);
    if (lookupIds.length > 0) this.tables[table].rebucket.run(this.buckets.of(queueId), JSON.stringify(lookupIds));
  }

  /**
   * Moves a message to another queue of its family (MoveMessage, R-S3): same row and lookup ID, move count
   * up, abort count back to 0 (R-S7). False when it was already gone.
   */
  moveTo(table: MessageTable, lookupId: number, queueId: number, nowMs: number): boolean {
    this.cache.forget(table, lookupId);
    return this.tables[table].moveTo.run(this.buckets.of(queueId), nowMs, lookupId).changes > 0;
  }

  /** Counts an aborted receiving transaction against a message (PROPID_M_ABORT_COUNT, R-S7). */
  addAbort(table: MessageTable, lookupId: number): void {
    this.cache.forget(table, lookupId);
    this.tables[table].addAbort.run(lookupId);
  }

  /**
   * Up to `limit` ready messages of a queue after (`forward`) or before a position in queue order (R-O1:
   * priority, then lookup ID), nearest first, both tables merged; from either end when `from` is null. Only
   * lookup IDs, priorities and tables: the caller reads the rows it keeps.
   */
  neighbors(
    queueId: number,
    from: { priority: number; lookupId: number } | null,
    forward: boolean,
    limit: number,
  ): { lookupId: number; priority: number; table: MessageTable }[] {
    const found: { lookupId: number; priority: number; table: MessageTable }[] = [];
    queueId = this.buckets.of(queueId);
    for (const t of TABLES) {
      const s = this.tables[t];
      const start = from ?? { priority: forward ? 8 : -1, lookupId: 0 };
      const same = from
        ? ((forward ? s.nextSamePriority : s.previousSamePriority).all(
            queueId,
            from.priority,
            from.lookupId,
            limit,
          ) as [number, number][])
        : [];
      const rest =
        same.length < limit
          ? ((forward ? s.nextLowerPriority : s.previousHigherPriority).all(
              queueId,
              start.priority,
              limit - same.length,
            ) as [number, number][])
          : [];
      for (const [lookupId, priority] of [...same, ...rest]) found.push({ lookupId, priority, table: t });
    }
    const order = forward
      ? (a: (typeof found)[number], b: (typeof found)[number]) => b.priority - a.priority || a.lookupId - b.lookupId
      : (a: (typeof found)[number], b: (typeof found)[number]) => a.priority - b.priority || b.lookupId - a.lookupId;
    return found.sort(order).slice(0, limit);
  }

  /**
   * Ready messages of a queue that entered it after arrival number `afterArrival` (arrival numbers only grow),
   * in queue order: where a cursor waiting at the end of a queue goes when something arrives (R-C4).
   */
  readySince(
    queueId: number,
    afterArrival: number,
    limit: number,
  ): { lookupId: number; priority: number; table: MessageTable }[] {
    const bucket = this.buckets.of(queueId);
    const found = TABLES.flatMap((t) =>
      PRIORITY_LEVELS.flatMap((priority) => {
        const [first, last] = lookupIdRangeOf(priority);
        const rows = this.tables[t].readySince.all(first + afterArrival, last, bucket, limit) as [number, number][];
        return rows.map(([lookupId, rowPriority]) => ({ lookupId, priority: rowPriority, table: t }));
      }),
    );
    return found.sort((a, b) => b.priority - a.priority || a.lookupId - b.lookupId).slice(0, limit);
  }

  /** Up to `limit` retained (status 0/3) messages of a queue after a lookup ID, in lookup-ID order. */
  retainedAfter(queueId: number, afterLookupId: number, limit: number): { lookupId: number; table: MessageTable }[] {
    const found = TABLES.flatMap((t) =>
      (this.tables[t].retainedAfter.all(this.buckets.of(queueId), afterLookupId, limit) as [number, number][]).map(
        ([lookupId]) => ({
          lookupId,
          table: t,
        }),
      ),
    );
    return found.sort((a, b) => a.lookupId - b.lookupId).slice(0, limit);
  }

  /** Whole rows for (lookup ID, table) pairs, in the order given; rows that are gone are left out. */
  rows(ids: readonly { lookupId: number; table: MessageTable }[], withBody = true): StoredMessage[] {
    const rows = this.rowsByIds(
      ids.map((i) => [i.lookupId, i.table] as [number, MessageTable]),
      withBody,
    );
    return ids.map((i) => rows.get(i.lookupId)).filter((m): m is StoredMessage => m !== undefined);
  }

  /** Message count, bytes and retained count per queue, over both tables. */
  usage(): QueueUsage[] {
    const byQueue = new Map<number, QueueUsage>();
    for (const t of TABLES) {
      for (const bucketUsage of this.tables[t].usage.all() as QueueUsage[]) {
        const queueId = this.buckets.queueOf(bucketUsage.queueId);
        // A purged bucket's rows count for nobody (buckets.ts).
        if (queueId === undefined) continue;
        const u = { ...bucketUsage, queueId };
        const seen = byQueue.get(queueId);
        if (seen) {
          seen.count += u.count;
          seen.bytes += u.bytes;
          seen.retained += u.retained;
        } else byQueue.set(queueId, u);
      }
    }
    return [...byQueue.values()];
  }

  /** Messages of a queue per class, both tables, most frequent first. */
  classCounts(queueId: number): { classCode: number; count: number }[] {
    const counts = new Map<number, number>();
    for (const t of TABLES) {
      for (const row of this.tables[t].classCounts.all(this.buckets.of(queueId)) as {
        classCode: number;
        count: number;
      }[])
        counts.set(row.classCode, (counts.get(row.classCode) ?? 0) + row.count);
    }
    return [...counts]
      .map(([classCode, count]) => ({ classCode, count }))
      .sort((a, b) => b.count - a.count || a.classCode - b.classCode);
  }

  /** The largest arrival number of a stored lookup ID (R-L1): one seek per priority on the primary key. */
  maxArrival(): number {
    let max = 0;
    for (const priority of PRIORITY_LEVELS) {
      const [first, last] = lookupIdRangeOf(priority);
      const id = this.tables.main.maxLookupIdUpTo.get(last) as number | null;
      if (id !== null && id >= first) max = Math.max(max, arrivalOf(id));
    }
    return max;
  }

  /** A page of a queue for browsing: every status, sorted and filtered by the service (never in memory). */
  browse(asked: BrowseQuery): { total: number; messages: StoredMessage[] } {
    const query = { ...asked, queueId: this.buckets.of(asked.queueId) };
    const simple = query.sort.column === 'queue' && !query.hasRetained && !hasFilter(query.filter);
    if (simple) return { total: query.knownTotal, messages: this.browseQueueOrder(query) };
    const { sql, params } = sourceSql(query);
    const total = hasFilter(query.filter)
      ? (this.statement(`SELECT count(*) AS n FROM (${sql})`, false).get(...params) as { n: number }).n
      : query.knownTotal;
    const direction = query.sort.descending ? 'DESC' : 'ASC';
    const order =
      query.sort.column === 'queue'
        ? query.sort.descending
          ? 'priority ASC, lookup_id DESC'
          : SORT_SQL.queue
        : `${SORT_SQL[query.sort.column]} ${direction}, lookup_id ${direction}`;
    // Sort narrow rows (the sort key and the lookup ID), then read only the page's rows: sorting a million
    // full rows by label took seconds longer than sorting their keys.
    const page = this.statement(`SELECT lookup_id, tbl FROM (${sql}) ORDER BY ${order} ${LIMIT} OFFSET ?`, true).all(
      ...params,
      query.limit,
      query.offset,
    ) as [number, MessageTable][];
    const rows = this.rowsByIds(page, query.includeBody);
    return { total, messages: page.map((p) => rows.get(p[0])).filter((m): m is StoredMessage => m !== undefined) };
  }

  /** Rows for (lookup ID, table) pairs, one statement per table. */
  private rowsByIds(
    ids: readonly [number, MessageTable, ...unknown[]][],
    withBody: boolean,
  ): Map<number, StoredMessage> {
    const cols = withBody ? allColumns() : columnsWithoutBody();
    const rows = new Map<number, StoredMessage>();
    for (const t of TABLES) {
      const wanted = ids.filter((i) => i[1] === t).map((i) => i[0]);
      if (wanted.length === 0) continue;
      const found = this.statement(
        `SELECT ${cols} FROM ${t}.messages WHERE lookup_id IN (SELECT value FROM json_each(?))`,
        true,
      ).all(JSON.stringify(wanted)) as unknown[][];
      for (const row of found) if (this.buckets.liveRow(row)) rows.set(row[0] as number, fromRaw(row, t));
    }
    return rows;
  }

  /**
   * Receive-order pages of a queue without retained messages. The page is located on the covering index
   * first (lookup IDs only, both tables merged by SQLite), from whichever end is nearer, so the last page
   * of a million costs what the first does; then its rows are read by primary key.
   */
  private browseQueueOrder(query: BrowseQuery): StoredMessage[] {
    const { queueId, offset, limit, knownTotal } = query;
    if (offset >= knownTotal) return [];
    const descending = query.sort.descending === true;
    const fromEnd = offset + limit / 2 > knownTotal / 2;
    // Walking from the far end of the index is the same walk in the opposite direction.
    const scanDescending = descending !== fromEnd;
    const scanOffset = fromEnd ? Math.max(0, knownTotal - offset - limit) : offset;
    const scanLimit = fromEnd ? Math.min(limit, knownTotal - offset) : limit;
    const order = scanDescending ? 'priority ASC, lookup_id DESC' : 'priority DESC, lookup_id ASC';
    // Merging the two tables costs three times a walk of one; most queues hold one kind of delivery only.
    const present = TABLES.filter((t) =>
      this.statement(`SELECT 1 FROM ${t}.messages WHERE queue_id = ? AND status = 1 LIMIT 1`, true).get(queueId),
    );
    const sql =
      present.length === 1
        ? `SELECT lookup_id, '${present[0]}', priority FROM ${present[0]}.messages WHERE queue_id = ? AND status = 1 ORDER BY ${order} ${LIMIT} OFFSET ?`
        : `SELECT lookup_id, 'main', priority FROM main.messages WHERE queue_id = ? AND status = 1
           UNION ALL
           SELECT lookup_id, 'mem', priority FROM mem.messages WHERE queue_id = ? AND status = 1
           ORDER BY ${order} ${LIMIT} OFFSET ?`;
    const args = present.length === 1 ? [queueId, scanLimit, scanOffset] : [queueId, queueId, scanLimit, scanOffset];
    const ids = this.statement(sql, true).all(...args) as [number, MessageTable, number][];
    if (fromEnd) ids.reverse();
    const rows = this.rowsByIds(ids, query.includeBody);
    return ids.map((i) => rows.get(i[0])).filter((m): m is StoredMessage => m !== undefined);
  }

  private statement(sql: string, raw: boolean): Database.Statement {
    const key = `${raw ? 'r' : 'o'}:${sql}`;
    let stmt = this.statements.get(key);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (raw) stmt.raw(true);
      if (this.statements.size > 200) this.statements.clear();
      this.statements.set(key, stmt);
    }
    return stmt;
  }
}

function hasFilter(filter: BrowseQuery['filter']): boolean {
  return Boolean(
    filter.label ||
    filter.bodyText ||
    (filter.classCodes && filter.classCodes.length > 0) ||
    filter.arrivedFromMs !== undefined ||
    filter.arrivedToMs !== undefined ||
    filter.correlationId !== undefined ||
    filter.appSpecific !== undefined ||
    filter.sourceMachine ||
    filter.delivery !== undefined,
  );
}

/** All messages of one queue from both tables and both statuses (each branch on its own index), filtered, as narrow rows. */
function sourceSql(query: BrowseQuery): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const conditionParams: unknown[] = [];
  const { filter } = query;
  if (filter.label) {
    conditions.push('instr(lower(label), lower(?)) > 0');
    conditionParams.push(filter.label);
  }
  if (filter.bodyText) {
    conditions.push('instr(lower(CAST(body AS TEXT)), lower(?)) > 0');
    conditionParams.push(filter.bodyText);
  }
  if (filter.classCodes && filter.classCodes.length > 0) {
    conditions.push(`class IN (${filter.classCodes.map(() => '?').join(', ')})`);
    conditionParams.push(...filter.classCodes);
  }
  if (filter.arrivedFromMs !== undefined) {
    conditions.push('arrived_ms >= ?');
    conditionParams.push(filter.arrivedFromMs);
  }
  if (filter.arrivedToMs !== undefined) {
    conditions.push('arrived_ms <= ?');
    conditionParams.push(filter.arrivedToMs);
  }
  if (filter.correlationId !== undefined) {
    conditions.push('correlation_id = ?');
    conditionParams.push(filter.correlationId);
  }
  if (filter.appSpecific !== undefined) {
    conditions.push('app_specific = ?');
    conditionParams.push(filter.appSpecific);
  }
  if (filter.sourceMachine) {
    conditions.push('instr(lower(source_machine), lower(?)) > 0');
    conditionParams.push(filter.sourceMachine);
  }
  const extra = conditions.map((c) => ` AND ${c}`).join('');
  // Narrow branches carry only what sorting needs; rows are read afterwards by lookup ID.
  const cols = 'lookup_id, priority, class, label, size, sent_ms, arrived_ms';
  const branches: string[] = [];
  const params: unknown[] = [];
  const tables = filter.delivery === undefined ? TABLES : [filter.delivery === 'express' ? 'mem' : 'main'];
  for (const t of tables) {
    for (const status of ['status = 1', 'status <> 1']) {
      branches.push(`SELECT ${cols}, '${t}' AS tbl FROM ${t}.messages WHERE queue_id = ? AND ${status}${extra}`);
      params.push(query.queueId, ...conditionParams);
    }
  }
  return { sql: branches.join(' UNION ALL '), params };
}

/** Runs of consecutive IDs a removal may take as a range, at most this many (past it, one list is cheaper). */
const MAX_RUNS = 8;

/**
 * Distinct lookup IDs as runs of consecutive ones ([first, last]), or null when they fall in more than MAX_RUNS.
 * The messages a lease forwards were mostly sent one after the other: a range deletes them on the table's own
 * order, about a fifth cheaper than a list SQLite must first collect. A range of consecutive distinct IDs holds
 * exactly those IDs, so nothing else can be removed by it.
 */
function consecutiveRuns(lookupIds: readonly number[]): [number, number][] | null {
  const sorted = [...lookupIds].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  let first = sorted[0] as number;
  let last = first;
  for (let i = 1; i < sorted.length; i++) {
    const id = sorted[i] as number;
    if (id === last) return null; // not distinct: let the list say what it removes
    if (id === last + 1) {
      last = id;
      continue;
    }
    runs.push([first, last]);
    if (runs.length >= MAX_RUNS) return null;
    first = last = id;
  }
  runs.push([first, last]);
  return runs;
}
