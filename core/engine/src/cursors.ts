/**
 * Cursors (R-C2–R-C5): a position in a queue that an application moves through it in queue order (R-O1),
 * peeking at the message there or receiving it. A cursor holds no message — only where it is — so one left
 * open costs a few bytes; those unused for CURSOR_IDLE_MS are closed by the timer tick.
 */
import { randomUUID } from 'node:crypto';
import { MessageStatus, QkError, type MessageInfo } from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { EngineContext } from './engine-context.js';
import { messageView } from './message-view.js';
import type { CursorPeekInput, CursorReceiveInput } from './types.js';

/** Open cursors the queue manager keeps at most; one more is INSUFFICIENT_RESOURCES. */
const MAX_CURSORS = 10_000;
/** A cursor nobody used for this long is closed (its owner went away without closing it). */
const CURSOR_IDLE_MS = 5 * 60_000;

/** Where a message stands in queue order. */
interface Position {
  priority: number;
  lookupId: number;
}

interface Cursor {
  readonly id: string;
  readonly queueId: number;
  /** null before the first message: a new cursor (R-C2). */
  at: Position | null;
  /** The message at the position was received through this cursor, so `current` is the one after it (R-C3). */
  consumed: boolean;
  lastUsedMs: number;
}

/** The open cursors of the queue manager. */
class CursorTable {
  private readonly cursors = new Map<string, Cursor>();

  open(queueId: number, nowMs: number): Cursor {
    if (this.cursors.size >= MAX_CURSORS)
      throw new QkError('INSUFFICIENT_RESOURCES', `${MAX_CURSORS.toLocaleString('en-US')} cursors are open already.`);
    const cursor: Cursor = { id: randomUUID(), queueId, at: null, consumed: false, lastUsedMs: nowMs };
    this.cursors.set(cursor.id, cursor);
    return cursor;
  }

  get(id: string, nowMs: number): Cursor {
    const cursor = this.cursors.get(id);
    if (!cursor) throw new QkError('INVALID_HANDLE', `There is no open cursor '${id}' (closed, or idle too long).`);
    cursor.lastUsedMs = nowMs;
    return cursor;
  }

  /** True when a cursor is open on the queue: it is an open handle, which keeps a subqueue (R-S1). */
  isOpenOn(queueId: number): boolean {
    for (const cursor of this.cursors.values()) if (cursor.queueId === queueId) return true;
    return false;
  }

  close(id: string): void {
    if (!this.cursors.delete(id)) throw new QkError('INVALID_HANDLE', `There is no open cursor '${id}'.`);
  }

  /** Closes the cursors unused for CURSOR_IDLE_MS. */
  sweep(nowMs: number): void {
    for (const [id, cursor] of this.cursors) if (nowMs - cursor.lastUsedMs >= CURSOR_IDLE_MS) this.cursors.delete(id);
  }

  get size(): number {
    return this.cursors.size;
  }
}

const positionOf = (m: StoredMessage): Position => ({ priority: m.priority, lookupId: m.lookupId });

/** The first message after `from` (from the start when null) that no other receive holds. */
function nextFree(ctx: EngineContext, queue: QueueRecord, from: Position | null): StoredMessage | null {
  const held = ctx.claims.countIn(queue.id);
  let after = from;
  for (;;) {
    const candidates = ctx.core.store.messages.neighbors(queue.id, after, true, held + 1);
    const free = candidates.find((c) => !ctx.claims.has(c.lookupId));
    if (free) return ctx.core.store.messages.rows([free])[0] ?? null;
    if (candidates.length < held + 1) return null;
    after = candidates[candidates.length - 1] ?? null;
  }
}

/**
 * The message a cursor's `current` names: the first one for a new cursor (R-C2), the one after a message it
 * received (R-C3), else the message it points at — gone meanwhile is MESSAGE_ALREADY_RECEIVED (R-C5). Null
 * when it has to wait for a message to arrive.
 */
function currentOf(ctx: EngineContext, cursor: Cursor, queue: QueueRecord): StoredMessage | null {
  if (cursor.at === null) return nextFree(ctx, queue, null);
  if (cursor.consumed) return nextFree(ctx, queue, cursor.at);
  const m = ctx.core.store.messages.get(cursor.at.lookupId);
  if (!m || m.queueId !== queue.id || m.status !== MessageStatus.READY || ctx.claims.has(m.lookupId)) {
    throw new QkError(
      'MESSAGE_ALREADY_RECEIVED',
      `The message under the cursor (lookup ID ${cursor.at.lookupId}) was received or removed meanwhile; move the cursor on with next.`,
    );
  }
  return m;
}

/**
 * Finds what `action` names for the cursor, waiting up to `timeoutMs` for a message to arrive when there is
 * none yet; an arrival is taken wherever its priority placed it (R-C4). IO_TIMEOUT when nothing comes.
 */
async function locate(
  ctx: EngineContext,
  cursor: Cursor,
  queue: QueueRecord,
  action: 'current' | 'next',
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<StoredMessage> {
  const { core } = ctx;
  const deadline = core.clock.now() + timeoutMs;
  const look = (): StoredMessage | null => {
    if (action === 'current') return currentOf(ctx, cursor, queue);
    if (!cursor.consumed) return nextFree(ctx, queue, cursor.at);
    // R-C3: a receive already moved the cursor on to the message after it, so "next" goes one further —
    // MSMQ's PEEK_NEXT right after a receive skips that message (use current to see it).
    const current = nextFree(ctx, queue, cursor.at);
    return current ? nextFree(ctx, queue, positionOf(current)) : null;
  };
  const found = look();
  if (found) return found;
  for (;;) {
    const watermark = core.sequences.lastArrival();
    const remaining = deadline - core.clock.now();
    if (remaining <= 0)
      throw new QkError('IO_TIMEOUT', `No message arrived in '${core.registry.pathOf(queue)}' within the timeout.`);
    // A cursor looks for its position; it must not use up the one wake-up a waiting receive is owed.
    await ctx.waiters.wait(queue.id, remaining, signal, 'peek');
    if (!core.registry.get(queue.id))
      throw new QkError('QUEUE_DELETED', `The queue '${core.registry.pathOf(queue)}' was deleted.`);
    const arrived = core.store.messages
      .readySince(queue.id, watermark, ctx.claims.countIn(queue.id) + 1)
      .find((c) => !ctx.claims.has(c.lookupId));
    const m = arrived ? core.store.messages.rows([arrived])[0] : undefined;
    if (m) return m;
    // A message moved in from its queue or a sibling subqueue (R-S3) keeps its older lookup ID, so it did not
    // arrive "since" the watermark: look again from the cursor's position.
    const moved = look();
    if (moved) return moved;
  }
}

/** Points the cursor at a message it peeked at, or (`consumed`) one it received. */
function moveTo(cursor: Cursor, m: StoredMessage, consumed: boolean): void {
  cursor.at = positionOf(m);
  cursor.consumed = consumed;
}

/** The cursor operations of the queue manager. */
export class CursorOperations {
  private readonly table = new CursorTable();

  constructor(private readonly ctx: EngineContext) {}

  /** Opens a cursor before the first message of a queue (R-C2). */
  open(queue: QueueRecord): string {
    return this.table.open(queue.id, this.ctx.core.clock.now()).id;
  }

  async peek(input: CursorPeekInput): Promise<MessageInfo> {
    const { cursor, queue } = this.cursorAndQueue(input.cursor);
    const found = await locate(this.ctx, cursor, queue, input.action ?? 'current', input.timeoutMs ?? 0, input.signal);
    moveTo(cursor, found, false);
    return messageView(input.properties)(found, this.ctx.core.clock.now());
  }

  /**
   * Receives the message at the cursor (RECEIVE_CURRENT) through the caller's delivery step, which removes it
   * (or adds it to the transaction) once the reply is on its way; the cursor then stands after it (R-C3).
   */
  async receive(
    input: CursorReceiveInput,
    inTransaction: boolean,
    deliver: (message: StoredMessage, info: MessageInfo) => Promise<void>,
  ): Promise<MessageInfo> {
    const { cursor, queue } = this.cursorAndQueue(input.cursor);
    if ((inTransaction || input.transactional) && !queue.transactional)
      throw new QkError(
        'TRANSACTION_USAGE',
        `'${this.ctx.core.registry.pathOf(queue)}' is not transactional; receive from it without a transaction.`,
      );
    const found = await locate(this.ctx, cursor, queue, 'current', input.timeoutMs ?? 0, input.signal);
    this.ctx.claims.take(found);
    const info = messageView(input.properties)(found, this.ctx.core.clock.now());
    moveTo(cursor, found, false);
    await deliver(found, info);
    moveTo(cursor, found, true);
    return info;
  }

  close(id: string): void {
    this.table.close(id);
  }

  /** True when a cursor is open on the queue (R-S1: an open handle keeps a subqueue). */
  isOpenOn(queueId: number): boolean {
    return this.table.isOpenOn(queueId);
  }

  /** Closes the cursors nobody used for CURSOR_IDLE_MS. */
  sweep(nowMs: number): void {
    this.table.sweep(nowMs);
  }

  private cursorAndQueue(id: string): { cursor: Cursor; queue: QueueRecord } {
    const cursor = this.table.get(id, this.ctx.core.clock.now());
    const queue = this.ctx.core.registry.get(cursor.queueId);
    if (!queue) throw new QkError('QUEUE_DELETED', 'The queue of this cursor was deleted.');
    return { cursor, queue };
  }
}
