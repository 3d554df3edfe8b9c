/**
 * Where each queue's receives have got to in receive order (R-O1), so that the next receive seeks past the
 * messages other receives hold instead of reading them again: with a thousand receives in flight, finding
 * the next message still reads one index entry and one row.
 *
 * Per queue with claims: `after`, the last position walked from the store, and `returned`, the ready
 * messages no receive holds that lie at or before it (claims undone, and arrivals of a higher priority than
 * the position). Everything ready at or before `after` is either claimed or in `returned`; whatever lies
 * past it the store finds. The cursor is dropped once the queue has no claims left, so any drift ends there.
 */
import { MessageStatus } from '@qk/model';
import { beforeInOrder, type MessageTable, type ReadyKey, type ReadyOrder, type StoredMessage } from '@qk/store';
import type { Claims } from './claims.js';

interface Cursor {
  after: ReadyKey | null;
  /** In receive order. */
  returned: ReadyKey[];
}

const keyOf = (m: ReadyKey): ReadyKey => ({ lookupId: m.lookupId, priority: m.priority, table: m.table });

const TABLES: readonly MessageTable[] = ['main', 'mem'];

export class ReceiveCursors {
  private readonly cursors = new Map<number, Cursor>();
  /**
   * Tables found to hold no ready message of a queue past its cursor (or at all, without one): most queues
   * hold one kind of delivery only, and asking the other table for nothing is a third of a receive's queries.
   * Anything that makes a message ready there (an arrival, a receive undone) strikes the table off.
   */
  private readonly emptyTables = new Map<number, Set<MessageTable>>();

  constructor(
    private readonly order: ReadyOrder,
    private readonly claims: Claims,
  ) {}

  /**
   * The first `count` ready messages of a queue that no receive holds, in receive order. With `take` they
   * are claimed and the cursor moves past them; without, nothing changes (a peek). `known` may give rows the
   * caller holds already (as placed): it is asked only for messages the store's index showed ready in this
   * queue just now, so a message removed meanwhile is never taken from it.
   */
  first(
    queueId: number,
    count: number,
    take: boolean,
    known?: (lookupId: number) => StoredMessage | undefined,
  ): StoredMessage[] {
    return this.order.consistent(() => this.firstInSnapshot(queueId, count, take, known));
  }

  private firstInSnapshot(
    queueId: number,
    count: number,
    take: boolean,
    known: ((lookupId: number) => StoredMessage | undefined) | undefined,
  ): StoredMessage[] {
    for (;;) {
      const cursor = this.cursors.get(queueId);
      const { picked, scannedTo, stale, walkedIds } = this.pick(queueId, cursor, count);
      const rows = this.rowsOf(picked, known ? (id) => (walkedIds.has(id) ? known(id) : undefined) : undefined);
      const found: StoredMessage[] = [];
      for (const key of picked) {
        const row = rows.get(key.lookupId);
        if (row && row.status === MessageStatus.READY && row.queueId === queueId) found.push(row);
        else stale.add(key.lookupId);
      }
      if (cursor && stale.size > 0) cursor.returned = cursor.returned.filter((k) => !stale.has(k.lookupId));
      // A message listed as returned was removed meanwhile (purged, expired, deleted): choose again without it.
      if (found.length < picked.length) continue;
      if (take && found.length > 0) {
        const next = cursor ?? { after: null, returned: [] };
        if (cursor) {
          const taken = new Set(found.map((m) => m.lookupId));
          next.returned = next.returned.filter((k) => !taken.has(k.lookupId));
        }
        if (scannedTo && (next.after === null || beforeInOrder(next.after, scannedTo))) next.after = scannedTo;
        this.cursors.set(queueId, next);
        this.claims.takeAll(found);
      }
      return found;
    }
  }

  private rowsOf(
    picked: readonly ReadyKey[],
    known: ((lookupId: number) => StoredMessage | undefined) | undefined,
  ): Map<number, StoredMessage> {
    if (picked.length === 0) return new Map<number, StoredMessage>();
    if (!known) return this.order.rows(picked);
    const held = new Map<number, StoredMessage>();
    const unknown: ReadyKey[] = [];
    for (const key of picked) {
      const row = known(key.lookupId);
      if (row) held.set(key.lookupId, row);
      else unknown.push(key);
    }
    if (unknown.length > 0) for (const [id, row] of this.order.rows(unknown)) held.set(id, row);
    return held;
  }

  /** Merges the returned messages with the store's order past the cursor, skipping what receives hold. */
  private pick(queueId: number, cursor: Cursor | undefined, count: number) {
    const returned = cursor?.returned ?? [];
    const picked: ReadyKey[] = [];
    const stale = new Set<number>();
    /** Picked messages the store's index showed ready just now (the returned ones are only remembered). */
    const walkedIds = new Set<number>();
    let scannedTo: ReadyKey | null = cursor?.after ?? null;
    let walked: ReadyKey[] = [];
    let wi = 0;
    let storeDone = false;
    let ri = 0;
    while (picked.length < count) {
      if (wi >= walked.length && !storeDone) {
        const want = count - picked.length;
        walked = this.walk(queueId, scannedTo, want, scannedTo === (cursor?.after ?? null));
        wi = 0;
        storeDone = walked.length < want;
      }
      const r = returned[ri];
      const w = walked[wi];
      let next: ReadyKey;
      if (r && (!w || beforeInOrder(r, w))) {
        next = r;
        ri++;
      } else if (w) {
        next = w;
        wi++;
        scannedTo = w;
        walkedIds.add(w.lookupId);
      } else break;
      if (!this.claims.has(next.lookupId)) picked.push(next);
    }
    return { picked, scannedTo: scannedTo === (cursor?.after ?? null) ? null : scannedTo, stale, walkedIds };
  }

  /**
   * The store's order past `after`, leaving out the tables known to hold nothing there. Only a walk from the
   * cursor's own position says anything lasting about a table (a peek walks further without moving it).
   */
  private walk(queueId: number, after: ReadyKey | null, want: number, fromCursor: boolean): ReadyKey[] {
    const empty = this.emptyTables.get(queueId);
    const tables = empty ? TABLES.filter((t) => !empty.has(t)) : TABLES;
    if (tables.length === 0) return [];
    const { keys, emptyTables } = this.order.after(queueId, after, want, tables);
    if (fromCursor && emptyTables.length > 0) {
      const known = empty ?? new Set<MessageTable>();
      for (const t of emptyTables) known.add(t);
      this.emptyTables.set(queueId, known);
    }
    return keys;
  }

  /** A receive was undone and its message is ready again: if it lies before the cursor, the cursor lists it. */
  putBack(queueId: number, m: ReadyKey): void {
    this.note(queueId, m);
  }

  /** A message arrived: one of a higher priority than the cursor's position would be passed over otherwise. */
  arrived(queueId: number, m: ReadyKey): void {
    this.note(queueId, m);
  }

  /** The queue's claims have all ended: the store's own order is exact again. */
  settled(queueId: number): void {
    if (this.claims.countIn(queueId) !== 0) return;
    const cursor = this.cursors.get(queueId);
    if (!cursor) return;
    this.cursors.delete(queueId);
    // A table known empty past the cursor may hold ready messages before it — with no claims left, exactly
    // the returned ones: without the cursor, "empty" must mean empty from the head.
    const empty = this.emptyTables.get(queueId);
    if (empty) for (const k of cursor.returned) empty.delete(k.table);
  }

  forget(queueId: number): void {
    this.cursors.delete(queueId);
    this.emptyTables.delete(queueId);
  }

  private note(queueId: number, m: ReadyKey): void {
    this.emptyTables.get(queueId)?.delete(m.table);
    const cursor = this.cursors.get(queueId);
    if (!cursor || cursor.after === null || beforeInOrder(cursor.after, m)) return;
    const key = keyOf(m);
    const list = cursor.returned;
    if (list.some((k) => k.lookupId === key.lookupId)) return;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (beforeInOrder(list[mid] as ReadyKey, key)) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, key);
  }
}
