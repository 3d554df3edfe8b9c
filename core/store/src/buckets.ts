/**
 * Logical purge (issue 11): a message row's `queue_id` column holds its queue's *bucket*, not the queue's id.
 * A queue's bucket is its id until its first purge; a purge gives the queue a fresh (negative) bucket and
 * marks the old one dead, in one small transaction, so a million messages leave the queue at once for every
 * read — receive order, browse, counts, lookups by ID, expiry, cursors — without touching their rows. The
 * rows of a dead bucket are deleted afterwards in bounded chunks (with what each owes, R-P3), and the dead
 * bucket is forgotten once both tables hold none of it. Both facts are in the store, so a restart in between
 * revives nothing purged and loses nothing sent after the purge.
 *
 * Only this file and the message statements know buckets: the engine speaks of queue ids throughout.
 */
import type Database from 'better-sqlite3';
import type { QueueKind } from './records.js';
import type { Db } from './open-database.js';
import type { RowCache } from './row-cache.js';

/** A purged bucket whose rows are still to be deleted, and what its messages owe as they go. */
export interface DeadBucket {
  bucket: number;
  /** The queue the rows were purged from (it may have been deleted since). */
  queueId: number;
  /** The kind of that queue: an outgoing queue's messages owe another NACK than a destination queue's (R-P6). */
  kind: QueueKind;
  reason: 'purged' | 'queueDeleted';
}

/** The state a cut changed, to take back if its transaction rolls back. */
export interface BucketCut {
  dead: DeadBucket;
  liveBucket: number;
  undo: () => void;
}

const NEXT_BUCKET_KEY = 'next_bucket';

export class Buckets {
  /** Queues whose bucket is not their id (purged at least once). */
  private readonly bucketByQueue = new Map<number, number>();
  private readonly queueByBucket = new Map<number, number>();
  private readonly dead = new Map<number, DeadBucket>();
  private nextBucket: number;
  private readonly s: Record<
    'remap' | 'addDead' | 'removeDead' | 'setNext' | 'allRemaps' | 'allDead' | 'getNext',
    Database.Statement
  >;

  /** `rows`: the cache of rows written, which forgets a bucket's rows once it is dead. */
  constructor(
    db: Db,
    private readonly rows: RowCache,
  ) {
    this.s = {
      remap: db.prepare(
        `INSERT INTO queue_buckets (queue_id, bucket) VALUES (?, ?) ON CONFLICT(queue_id) DO UPDATE SET bucket = excluded.bucket`,
      ),
      addDead: db.prepare(`INSERT INTO dead_buckets (bucket, queue_id, kind, reason) VALUES (?, ?, ?, ?)`),
      removeDead: db.prepare(`DELETE FROM dead_buckets WHERE bucket = ?`),
      setNext: db.prepare(
        `INSERT INTO meta (key, value) VALUES ('${NEXT_BUCKET_KEY}', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
      allRemaps: db.prepare(`SELECT queue_id AS queueId, bucket FROM queue_buckets`),
      allDead: db.prepare(`SELECT bucket, queue_id AS queueId, kind, reason FROM dead_buckets ORDER BY bucket DESC`),
      getNext: db.prepare(`SELECT value FROM meta WHERE key = '${NEXT_BUCKET_KEY}'`),
    };
    for (const { queueId, bucket } of this.s.allRemaps.all() as { queueId: number; bucket: number }[])
      this.setRemap(queueId, bucket);
    for (const d of this.s.allDead.all() as DeadBucket[]) this.dead.set(d.bucket, { ...d });
    const stored = this.s.getNext.get() as { value: string } | undefined;
    this.nextBucket = stored ? Number(stored.value) : -1;
  }

  /** True while no queue was ever purged: rows need no translation (the common, fastest case). */
  get identity(): boolean {
    return this.bucketByQueue.size === 0 && this.dead.size === 0;
  }

  /** The bucket a queue's messages are stored under now. */
  of(queueId: number): number {
    return this.bucketByQueue.get(queueId) ?? queueId;
  }

  /** The queue a live bucket belongs to; undefined for a dead bucket (its rows are purged). */
  queueOf(bucket: number): number | undefined {
    if (this.dead.has(bucket)) return undefined;
    return this.queueByBucket.get(bucket) ?? bucket;
  }

  /**
   * Translates a raw row's bucket (column 1) to its queue id in place; false when the row belongs to a dead
   * bucket and must be treated as gone.
   */
  liveRow(row: unknown[]): boolean {
    if (this.identity) return true;
    const queueId = this.queueOf(row[1] as number);
    if (queueId === undefined) return false;
    row[1] = queueId;
    return true;
  }

  /** Dead buckets whose rows are still to be deleted, oldest first. */
  deadBuckets(): DeadBucket[] {
    return [...this.dead.values()].sort((a, b) => b.bucket - a.bucket);
  }

  deadBucket(bucket: number): DeadBucket | undefined {
    return this.dead.get(bucket);
  }

  /**
   * Inside a transaction: the queue's current bucket becomes dead (its rows are purged for every read from
   * now on) and the queue starts a fresh one. The caller moves the rows that must stay (R-P2) into it.
   */
  cut(queueId: number, kind: QueueKind, reason: DeadBucket['reason']): BucketCut {
    const oldBucket = this.of(queueId);
    const liveBucket = this.nextBucket;
    const dead: DeadBucket = { bucket: oldBucket, queueId, kind, reason };
    this.s.addDead.run(oldBucket, queueId, kind, reason);
    this.s.remap.run(queueId, liveBucket);
    this.s.setNext.run(String(liveBucket - 1));
    const hadRemap = this.bucketByQueue.has(queueId);
    this.nextBucket = liveBucket - 1;
    this.dead.set(oldBucket, dead);
    this.setRemap(queueId, liveBucket);
    this.rows.forgetBucket(oldBucket);
    const undo = (): void => {
      this.nextBucket = liveBucket;
      this.dead.delete(oldBucket);
      this.queueByBucket.delete(liveBucket);
      if (hadRemap) this.setRemap(queueId, oldBucket);
      else this.bucketByQueue.delete(queueId);
    };
    return { dead, liveBucket, undo };
  }

  /** Inside a transaction: a dead bucket whose rows are all deleted is forgotten. Returns how to take it back. */
  forgetDead(bucket: number): () => void {
    const dead = this.dead.get(bucket);
    this.s.removeDead.run(bucket);
    this.dead.delete(bucket);
    return () => {
      if (dead) this.dead.set(bucket, dead);
    };
  }

  private setRemap(queueId: number, bucket: number): void {
    const previous = this.bucketByQueue.get(queueId);
    if (previous !== undefined) this.queueByBucket.delete(previous);
    this.bucketByQueue.set(queueId, bucket);
    this.queueByBucket.set(bucket, queueId);
  }
}
