/**
 * Message SQL. Recoverable messages live in `main` (the WAL file); express messages in `mem`, an attached
 * in-memory database with the same table, so they are lost when the service stops (R-V1) yet are queried
 * with the same statements.
 */
import type Database from 'better-sqlite3';
import { allColumns, columnsWithoutBody, fromRow, MESSAGE_COLUMNS, toParams, type MessageRow } from './message-rows.js';
import type { BrowseQuery, MessageRecord, MessageTable, QueueUsage, StoredMessage } from './records.js';
import type { Db } from './open-database.js';

const TABLES: readonly MessageTable[] = ['main', 'mem'];

interface TableStatements {
  insert: Database.Statement;
  get: Database.Statement;
  remove: Database.Statement;
  removeMany: Database.Statement;
  setStatus: Database.Statement;
  firstReady: Database.Statement;
  expired: Database.Statement;
  nextExpiry: Database.Statement;
  byCorrelation: Database.Statement;
  byMessageId: Database.Statement;
  byConversation: Database.Statement;
  purgeChunkReady: Database.Statement;
  purgeChunkRetained: Database.Statement;
  usage: Database.Statement;
  maxLookupId: Database.Statement;
}

function prepareTable(db: Db, t: MessageTable): TableStatements {
  const placeholders = MESSAGE_COLUMNS.map(() => '?').join(', ');
  const all = allColumns();
  return {
    insert: db.prepare(`INSERT INTO ${t}.messages (${MESSAGE_COLUMNS.join(', ')}) VALUES (${placeholders})`),
    get: db.prepare(`SELECT ${all} FROM ${t}.messages WHERE lookup_id = ?`),
    remove: db.prepare(`DELETE FROM ${t}.messages WHERE lookup_id = ?`),
    removeMany: db.prepare(`DELETE FROM ${t}.messages WHERE lookup_id IN (SELECT value FROM json_each(?))`),
    setStatus: db.prepare(`UPDATE ${t}.messages SET status = ?, expires_ms = NULL WHERE lookup_id = ?`),
    firstReady: db.prepare(
      `SELECT ${all} FROM ${t}.messages WHERE queue_id = ? AND status = 1 ORDER BY priority DESC, lookup_id LIMIT ?`,
    ),
    expired: db.prepare(`SELECT ${all} FROM ${t}.messages WHERE expires_ms <= ? ORDER BY expires_ms LIMIT ?`),
    nextExpiry: db.prepare(`SELECT min(expires_ms) AS at FROM ${t}.messages WHERE expires_ms IS NOT NULL`),
    byCorrelation: db.prepare(`SELECT ${all} FROM ${t}.messages WHERE correlation_id = ? ORDER BY lookup_id`),
    byMessageId: db.prepare(`SELECT ${all} FROM ${t}.messages WHERE msg_id = ? ORDER BY lookup_id`),
    byConversation: db.prepare(`SELECT ${columnsWithoutBody()} FROM ${t}.messages WHERE conversation = ?`),
    purgeChunkReady: db.prepare(
      `SELECT ${all} FROM ${t}.messages WHERE queue_id = ? AND status = 1
         AND lookup_id NOT IN (SELECT value FROM json_each(?)) ORDER BY priority DESC, lookup_id LIMIT ?`,
    ),
    purgeChunkRetained: db.prepare(`SELECT ${all} FROM ${t}.messages WHERE queue_id = ? AND status <> 1 LIMIT ?`),
    usage: db.prepare(
      `SELECT queue_id AS queueId, count(*) AS count, total(size) AS bytes, total(status <> 1) AS retained FROM ${t}.messages GROUP BY queue_id`,
    ),
    maxLookupId: db.prepare(`SELECT max(lookup_id) AS id FROM ${t}.messages`),
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

/** Every message statement of the store. */
export class MessageStore {
  private readonly tables: Record<MessageTable, TableStatements>;
  private readonly browseCache = new Map<string, Database.Statement>();

  constructor(private readonly db: Db) {
    this.tables = { main: prepareTable(db, 'main'), mem: prepareTable(db, 'mem') };
  }

  insert(table: MessageTable, message: MessageRecord): void {
    this.tables[table].insert.run(toParams(message));
  }

  get(lookupId: number): StoredMessage | undefined {
    for (const t of TABLES) {
      const row = this.tables[t].get.get(lookupId) as MessageRow | undefined;
      if (row) return fromRow(row, t);
    }
    return undefined;
  }

  remove(table: MessageTable, lookupId: number): void {
    this.tables[table].remove.run(lookupId);
  }

  /** Removes many rows in one statement (purge and queue deletion work in chunks of these). */
  removeMany(table: MessageTable, lookupIds: readonly number[]): void {
    if (lookupIds.length > 0) this.tables[table].removeMany.run(JSON.stringify(lookupIds));
  }

  setStatus(table: MessageTable, lookupId: number, status: number): void {
    this.tables[table].setStatus.run(status, lookupId);
  }

  /** The first `limit` ready messages of a queue in receive order (R-O1), from both tables merged. */
  firstReady(queueId: number, limit: number): StoredMessage[] {
    const main = (this.tables.main.firstReady.all(queueId, limit) as MessageRow[]).map((r) => fromRow(r, 'main'));
    const mem = (this.tables.mem.firstReady.all(queueId, limit) as MessageRow[]).map((r) => fromRow(r, 'mem'));
    if (mem.length === 0) return main;
    if (main.length === 0) return mem;
    return [...main, ...mem].sort(queueOrder).slice(0, limit);
  }

  /** Messages whose timer has run out by `nowMs`. */
  expired(nowMs: number, limit: number): StoredMessage[] {
    return TABLES.flatMap((t) => (this.tables[t].expired.all(nowMs, limit) as MessageRow[]).map((r) => fromRow(r, t)));
  }

  /** When the next message expires, or null. */
  nextExpiry(): number | null {
    const times = TABLES.map((t) => (this.tables[t].nextExpiry.get() as { at: number | null }).at).filter((x): x is number => x !== null);
    return times.length ? Math.min(...times) : null;
  }

  byCorrelation(correlationId: string): StoredMessage[] {
    return TABLES.flatMap((t) => (this.tables[t].byCorrelation.all(correlationId) as MessageRow[]).map((r) => fromRow(r, t)));
  }

  byMessageId(msgId: string): StoredMessage[] {
    return TABLES.flatMap((t) => (this.tables[t].byMessageId.all(msgId) as MessageRow[]).map((r) => fromRow(r, t)));
  }

  /** Messages of a conversation, without bodies. */
  byConversation(conversation: string): StoredMessage[] {
    return TABLES.flatMap((t) => (this.tables[t].byConversation.all(conversation) as MessageRow[]).map((r) => fromRow(r, t)));
  }

  /** The next chunk of a queue's ready messages to remove, leaving out `skip` (messages locked by a receive). */
  readyChunk(table: MessageTable, queueId: number, skip: readonly number[], limit: number): StoredMessage[] {
    const rows = this.tables[table].purgeChunkReady.all(queueId, JSON.stringify(skip), limit) as MessageRow[];
    return rows.map((r) => fromRow(r, table));
  }

  /** The next chunk of a queue's retained (status 0 and 3) messages. */
  retainedChunk(table: MessageTable, queueId: number, limit: number): StoredMessage[] {
    return (this.tables[table].purgeChunkRetained.all(queueId, limit) as MessageRow[]).map((r) => fromRow(r, table));
  }

  /** Message count, bytes and retained count per queue, over both tables. */
  usage(): QueueUsage[] {
    const byQueue = new Map<number, QueueUsage>();
    for (const t of TABLES) {
      for (const u of this.tables[t].usage.all() as QueueUsage[]) {
        const seen = byQueue.get(u.queueId);
        if (seen) {
          seen.count += u.count;
          seen.bytes += u.bytes;
          seen.retained += u.retained;
        } else byQueue.set(u.queueId, { ...u });
      }
    }
    return [...byQueue.values()];
  }

  maxLookupId(): number {
    return (this.tables.main.maxLookupId.get() as { id: number | null }).id ?? 0;
  }

  /** A page of a queue for browsing: every status, sorted and filtered by the service (never in memory). */
  browse(query: BrowseQuery): { total: number; messages: StoredMessage[] } {
    const simple = query.sort.column === 'queue' && !query.hasRetained && !hasFilter(query.filter);
    if (simple) return { total: query.knownTotal, messages: this.browseQueueOrder(query) };
    const { sql, params } = sourceSql(query);
    const total = hasFilter(query.filter)
      ? (this.statement(`SELECT count(*) AS n FROM (${sql})`).get(...params) as { n: number }).n
      : query.knownTotal;
    const direction = query.sort.descending ? 'DESC' : 'ASC';
    const order =
      query.sort.column === 'queue'
        ? query.sort.descending
          ? 'priority ASC, lookup_id DESC'
          : SORT_SQL.queue
        : `${SORT_SQL[query.sort.column]} ${direction}, lookup_id ${direction}`;
    const rows = this.statement(`SELECT * FROM (${sql}) ORDER BY ${order} LIMIT ? OFFSET ?`).all(
      ...params,
      query.limit,
      query.offset,
    ) as (MessageRow & { tbl: MessageTable })[];
    return { total, messages: rows.map((r) => fromRow(r, r.tbl)) };
  }

  /**
   * Receive-order pages of a queue without retained messages. The page is located on the covering index
   * first (lookup IDs only), from whichever end is nearer, so the last page of a million costs what the
   * middle one does; then its rows are read by primary key.
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
    const ids = this.statement(
      `SELECT lookup_id, tbl FROM (
         SELECT lookup_id, priority, 'main' AS tbl FROM main.messages WHERE queue_id = ? AND status = 1
         UNION ALL
         SELECT lookup_id, priority, 'mem' AS tbl FROM mem.messages WHERE queue_id = ? AND status = 1
       ) ORDER BY ${order} LIMIT ? OFFSET ?`,
    ).all(queueId, queueId, scanLimit, scanOffset) as { lookup_id: number; tbl: MessageTable }[];
    if (fromEnd) ids.reverse();
    const cols = query.includeBody ? allColumns() : columnsWithoutBody();
    const rows = new Map<number, StoredMessage>();
    for (const t of TABLES) {
      const wanted = ids.filter((i) => i.tbl === t).map((i) => i.lookup_id);
      if (wanted.length === 0) continue;
      const found = this.statement(
        `SELECT ${cols} FROM ${t}.messages WHERE lookup_id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(wanted)) as MessageRow[];
      for (const row of found) rows.set(row.lookup_id, fromRow(row, t));
    }
    return ids.map((i) => rows.get(i.lookup_id)).filter((m): m is StoredMessage => m !== undefined);
  }

  private statement(sql: string): Database.Statement {
    let stmt = this.browseCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      if (this.browseCache.size > 200) this.browseCache.clear();
      this.browseCache.set(sql, stmt);
    }
    return stmt;
  }
}

function queueOrder(a: StoredMessage, b: StoredMessage): number {
  return b.priority - a.priority || a.lookupId - b.lookupId;
}

function hasFilter(filter: BrowseQuery['filter']): boolean {
  return Boolean(
    filter.label || filter.bodyText || (filter.classCodes && filter.classCodes.length > 0) || filter.arrivedFromMs !== undefined || filter.arrivedToMs !== undefined,
  );
}

/** All messages of one queue from both tables and both statuses (each branch on its own index), filtered. */
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
  const extra = conditions.map((c) => ` AND ${c}`).join('');
  const cols = query.includeBody ? allColumns() : columnsWithoutBody();
  const branches: string[] = [];
  const params: unknown[] = [];
  for (const t of TABLES) {
    for (const status of ['status = 1', 'status <> 1']) {
      branches.push(`SELECT ${cols}, '${t}' AS tbl FROM ${t}.messages WHERE queue_id = ? AND ${status}${extra}`);
      params.push(query.queueId, ...conditionParams);
    }
  }
  return { sql: branches.join(' UNION ALL '), params };
}
