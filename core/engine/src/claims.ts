/**
 * Messages taken by a receive that has not finished: a pending group commit or an open transaction. A
 * claimed message is invisible to other receivers (R-C5) and skipped by purge until its receive ends (R-P2).
 */
import type { StoredMessage } from '@qk/store';
import type { MessageRemovalReason } from '@qk/model';

export class Claims {
  /** Claimed lookup IDs and their queues. Leases claim a thousand at a time: no object per claim. */
  private readonly claims = new Map<number, number>();
  /** Claims whose queue was purged or deleted meanwhile: if the receive is undone, the message goes this way. */
  private readonly removals = new Map<number, MessageRemovalReason>();
  private readonly perQueue = new Map<number, number>();

  has(lookupId: number): boolean {
    return this.claims.has(lookupId);
  }

  countIn(queueId: number): number {
    return this.perQueue.get(queueId) ?? 0;
  }

  idsIn(queueId: number): number[] {
    const ids: number[] = [];
    for (const [id, claimedIn] of this.claims) if (claimedIn === queueId) ids.push(id);
    return ids;
  }

  take(message: StoredMessage): void {
    this.claims.set(message.lookupId, message.queueId);
    this.count(message.queueId, 1);
  }

  /** take() for many messages, their queues' counts updated once per run of one queue. */
  takeAll(messages: readonly StoredMessage[]): void {
    let queueId = -1;
    let run = 0;
    for (const m of messages) {
      this.claims.set(m.lookupId, m.queueId);
      if (m.queueId !== queueId) {
        if (run > 0) this.count(queueId, run);
        queueId = m.queueId;
        run = 0;
      }
      run += 1;
    }
    if (run > 0) this.count(queueId, run);
  }

  /** Marks the claimed messages of a queue to be removed for `reason` should their receive be undone. */
  markRemoval(queueId: number, reason: MessageRemovalReason): void {
    for (const [id, claimedIn] of this.claims) if (claimedIn === queueId) this.removals.set(id, reason);
  }

  /** Ends a claim; returns the removal still owed, if any. */
  release(lookupId: number): MessageRemovalReason | null {
    const queueId = this.claims.get(lookupId);
    if (queueId === undefined) return null;
    this.claims.delete(lookupId);
    this.count(queueId, -1);
    return this.takeRemoval(lookupId);
  }

  /** Ends the claims of messages whose receive is done (they left their queue): nothing can be owed for them. */
  releaseAll(messages: readonly StoredMessage[]): void {
    let queueId = -1;
    let run = 0;
    for (const m of messages) {
      const claimedIn = this.claims.get(m.lookupId);
      if (claimedIn === undefined) continue;
      this.claims.delete(m.lookupId);
      if (this.removals.size > 0) this.removals.delete(m.lookupId);
      if (claimedIn !== queueId) {
        if (run > 0) this.count(queueId, -run);
        queueId = claimedIn;
        run = 0;
      }
      run += 1;
    }
    if (run > 0) this.count(queueId, -run);
  }

  private takeRemoval(lookupId: number): MessageRemovalReason | null {
    if (this.removals.size === 0) return null;
    const reason = this.removals.get(lookupId) ?? null;
    if (reason !== null) this.removals.delete(lookupId);
    return reason;
  }

  private count(queueId: number, delta: number): void {
    const left = this.countIn(queueId) + delta;
    if (left > 0) this.perQueue.set(queueId, left);
    else this.perQueue.delete(queueId);
  }
}
