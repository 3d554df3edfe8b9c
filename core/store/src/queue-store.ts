/** Queue, identity (meta) and settings SQL. */
import type Database from 'better-sqlite3';
import type { QueueKind, QueueRecord, SettingRecord } from './records.js';
import type { Db } from './open-database.js';

interface QueueRow {
  id: number;
  kind: QueueKind;
  name: string;
  name_key: string;
  parent_id: number | null;
  number: number | null;
  guid: string | null;
  transactional: number;
  journal: number;
  quota_kb: number | null;
  journal_quota_kb: number | null;
  label: string;
  retention: number;
  created_ms: number;
  modified_ms: number;
}

function fromQueueRow(r: QueueRow): QueueRecord {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    nameKey: r.name_key,
    parentId: r.parent_id,
    number: r.number,
    guid: r.guid,
    transactional: r.transactional === 1,
    journal: r.journal === 1,
    quotaKB: r.quota_kb,
    journalQuotaKB: r.journal_quota_kb,
    label: r.label,
    retention: r.retention === 1,
    createdMs: r.created_ms,
    modifiedMs: r.modified_ms,
  };
}

export type NewQueue = Omit<QueueRecord, 'id'>;

/** The meta key of the highest queue ID ever given: IDs are never reused (see `insert`). */
const QUEUE_ID_HIGH_KEY = 'queue_id_high';

/** Queues, the computer's identity and its settings. */
export class QueueStore {
  private readonly s: Record<string, Database.Statement>;
  /** The ID the next queue gets; only ever grows, in memory even past a rolled-back insert. */
  private nextId: number;

  constructor(db: Db) {
    this.s = {
      all: db.prepare(`SELECT * FROM queues ORDER BY id`),
      insert: db.prepare(
        `INSERT INTO queues (id, kind, name, name_key, parent_id, number, guid, transactional, journal, quota_kb, journal_quota_kb, label, retention, created_ms, modified_ms)
         VALUES (@id, @kind, @name, @nameKey, @parentId, @number, @guid, @transactional, @journal, @quotaKB, @journalQuotaKB, @label, @retention, @createdMs, @modifiedMs)`,
      ),
      update: db.prepare(
        `UPDATE queues SET journal = @journal, quota_kb = @quotaKB, journal_quota_kb = @journalQuotaKB, label = @label,
           retention = @retention, modified_ms = @modifiedMs WHERE id = @id`,
      ),
      remove: db.prepare(`DELETE FROM queues WHERE id = ?`),
      metaGet: db.prepare(`SELECT value FROM meta WHERE key = ?`),
      metaSet: db.prepare(
        `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
      settingsAll: db.prepare(`SELECT name, value, pending FROM settings`),
      settingSet: db.prepare(
        `INSERT INTO settings (name, value, pending) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value, pending = excluded.pending`,
      ),
    };
    // Stores made before the high mark was kept: every ID a row still names counts as given.
    const named = db
      .prepare(
        `SELECT max(coalesce((SELECT max(id) FROM queues), 0),
                    coalesce((SELECT max(queue_id) FROM queue_buckets), 0),
                    coalesce((SELECT max(queue_id) FROM dead_buckets), 0))`,
      )
      .pluck()
      .get() as number;
    this.nextId = Math.max(named, Number(this.getMeta(QUEUE_ID_HIGH_KEY) ?? '0')) + 1;
  }

  all(): QueueRecord[] {
    return (this.s.all!.all() as QueueRow[]).map(fromQueueRow);
  }

  /**
   * Inside a transaction. A queue's ID is never given again, not even after the queue is deleted: a cursor,
   * a waiting receive or a purge still being reclaimed may name a deleted queue by its ID, and must never come
   * to name a new one (SQLite alone would reuse the highest ID once its row is deleted).
   */
  insert(queue: NewQueue): QueueRecord {
    const id = this.nextId++;
    this.s.insert!.run({
      ...queue,
      id,
      transactional: queue.transactional ? 1 : 0,
      journal: queue.journal ? 1 : 0,
      retention: queue.retention ? 1 : 0,
    });
    this.setMeta(QUEUE_ID_HIGH_KEY, String(id));
    return { ...queue, id };
  }

  update(queue: QueueRecord): void {
    this.s.update!.run({ ...queue, journal: queue.journal ? 1 : 0, retention: queue.retention ? 1 : 0 });
  }

  remove(queueId: number): void {
    this.s.remove!.run(queueId);
  }

  getMeta(key: string): string | undefined {
    return (this.s.metaGet!.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.s.metaSet!.run(key, value);
  }

  settings(): SettingRecord[] {
    return this.s.settingsAll!.all() as SettingRecord[];
  }

  setSetting(record: SettingRecord): void {
    this.s.settingSet!.run(record.name, record.value, record.pending);
  }
}
