/**
 * Rows this store wrote and has not changed since, kept so that a receive need not read them back (issue 11:
 * reading a whole row — 32 columns made JavaScript values, the body copied into a Buffer — was the largest
 * single cost of a streamed or single receive, 7–12 µs of its 45–60).
 *
 * It holds a row exactly as the statement that wrote it bound it, in MESSAGE_COLUMNS order, so a hit gives
 * what a read would. Every statement that changes or deletes a row forgets it first (message-store.ts,
 * bulk-expiry.ts): a forgotten row is read from SQLite again, so forgetting too much costs time, never
 * correctness. A transaction that fails makes the store forget every row (store.ts), so a row whose insert
 * rolled back is never given.
 *
 * When full it takes no more rows rather than dropping old ones: receives take a queue's oldest messages
 * first, so the rows it already holds are the ones asked for next.
 */
import type { MessageTable } from './records.js';

/**
 * What the rows held may add up to, in estimated bytes (bodies plus a fixed cost per row). 32 MB holds ~47,000
 * rows of 200-byte bodies — a drain of the 50,000 a side-by-side case sends is nearly all served from it — and
 * costs ~45 MB of heap in fact. At 64 MB the service held 281–299 MB at rest with a million messages stored
 * (target 200) and peaked at 510 MB during their fill; with 32 MB, 181–189 and 359–380 (bench/README.md).
 */
export const ROW_CACHE_BYTES = 32 * 1024 * 1024;
/** The fixed cost of one row held: its array, the row's strings and the map's entry, about. */
const ROW_OVERHEAD_BYTES = 512;
const BODY_COLUMN = 7;
const BUCKET_COLUMN = 1;

export class RowCache {
  readonly #rows: Record<MessageTable, Map<number, readonly unknown[]>> = { main: new Map(), mem: new Map() };
  #bytes = 0;

  constructor(private readonly maxBytes: number = ROW_CACHE_BYTES) {}

  /** Holds a row as written (MESSAGE_COLUMNS order, the bucket as queue_id); the caller never changes it after. */
  put(table: MessageTable, lookupId: number, row: readonly unknown[]): void {
    const rows = this.#rows[table];
    const held = rows.get(lookupId);
    if (held) this.#bytes -= costOf(held);
    const cost = costOf(row);
    if (this.#bytes + cost > this.maxBytes) {
      rows.delete(lookupId);
      return;
    }
    rows.set(lookupId, row);
    this.#bytes += cost;
  }

  /** A copy of the row held for a lookup ID (its queue_id may be rewritten by the caller), or undefined. */
  get(table: MessageTable, lookupId: number): unknown[] | undefined {
    return this.#rows[table].get(lookupId)?.slice();
  }

  forget(table: MessageTable, lookupId: number): void {
    const rows = this.#rows[table];
    const held = rows.get(lookupId);
    if (!held) return;
    rows.delete(lookupId);
    this.#bytes -= costOf(held);
  }

  forgetMany(table: MessageTable, lookupIds: Iterable<number>): void {
    for (const id of lookupIds) this.forget(table, id);
  }

  forgetRange(table: MessageTable, first: number, last: number): void {
    const rows = this.#rows[table];
    // A range can be far wider than the rows held: walk whichever is smaller.
    if (last - first + 1 <= rows.size) for (let id = first; id <= last; id++) this.forget(table, id);
    else for (const id of [...rows.keys()]) if (id >= first && id <= last) this.forget(table, id);
  }

  /**
   * Forgets the rows of a bucket that a purge or a queue's deletion has just made dead. Left to go one by one as
   * the reclaimer deletes them, they would fill the cache for seconds after a large purge, and the rows of the
   * messages sent meanwhile would not be held (a cache that is full takes no more): the next receives would read
   * every row back. One walk of the rows held, once per purge.
   */
  forgetBucket(bucket: number): void {
    for (const table of ['main', 'mem'] as const) {
      for (const [lookupId, row] of this.#rows[table]) if (row[BUCKET_COLUMN] === bucket) this.forget(table, lookupId);
    }
  }

  /** Forgets every row. */
  clear(): void {
    this.#rows.main.clear();
    this.#rows.mem.clear();
    this.#bytes = 0;
  }

  /** Rows held and their estimated bytes (tests, memory figures). */
  get size(): { rows: number; bytes: number } {
    return { rows: this.#rows.main.size + this.#rows.mem.size, bytes: this.#bytes };
  }
}

function costOf(row: readonly unknown[]): number {
  const body = row[BODY_COLUMN] as { length?: number } | null | undefined;
  return ROW_OVERHEAD_BYTES + (body?.length ?? 0);
}
