/**
 * Messages taken by a receive that has not finished: a pending group commit or an open transaction. A
 * claimed message is invisible to other receivers (R-C5) and skipped by purge until its receive ends (R-P2).
 */
import type { StoredMessage } from '@qk/store';
import type { MessageRemovalReason } from '@qk/model';

interface Claim {
  queueId: number;
  /** Set when the queue was purged or deleted meanwhile: if the receive is undone, the message goes this way. */
  removeAs: MessageRemovalReason | null;
}

export class Claims {
  private readonly claims = new Map<number, Claim>();
  private readonly perQueue = new Map<number, number>();

  has(lookupId: number): boolean {
    return this.claims.has(lookupId);
  }

  countIn(queueId: number): number {
    return this.perQueue.get(queueId) ?? 0;
  }

  idsIn(queueId: number): number[] {
    const ids: number[] = [];
    for (const [id, claim] of this.claims) if (claim.queueId === queueId) ids.push(id);
    return ids;
  }

  take(message: StoredMessage): void {
    this.claims.set(message.lookupId, { queueId: message.queueId, removeAs: null });
    this.perQueue.set(message.queueId, this.countIn(message.queueId) + 1);
  }

  /** Marks the claimed messages of a queue to be removed for `reason` should their receive be undone. */
  markRemoval(queueId: number, reason: MessageRemovalReason): void {
    for (const claim of this.claims.values()) if (claim.queueId === queueId) claim.removeAs = reason;
  }

  /** Ends a claim; returns the removal still owed, if any. */
  release(lookupId: number): MessageRemovalReason | null {
    const claim = this.claims.get(lookupId);
    if (!claim) return null;
    this.claims.delete(lookupId);
    const left = this.countIn(claim.queueId) - 1;
    if (left > 0) this.perQueue.set(claim.queueId, left);
    else this.perQueue.delete(claim.queueId);
    return claim.removeAs;
  }
}
