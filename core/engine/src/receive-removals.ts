/**
 * The removals of plain receives that finish in the same turn of the event loop go to the store as one part of
 * the group commit, their rows deleted together (removal.ts removeReceived), instead of a part each — a savepoint
 * and a DELETE per receive (issue 11: 100 single receives in flight). Each is still answered once its removal is
 * committed, in the turn of the commit. If the set fails (a message of it was taken meanwhile: its queue was
 * deleted), each removal goes again on its own, so that only the receive whose message is gone fails.
 */
import type { StoredMessage } from '@qk/store';

interface OpenSet {
  receives: StoredMessage[][];
  committed: Promise<void>;
}

export class ReceiveRemovals {
  #open: OpenSet | null = null;

  constructor(
    /** Queues durable work answered on commit (the unit runner's runDurable with answerOnCommit). */
    private readonly runOnCommit: (work: () => void) => Promise<void>,
    /** Removes received messages inside a unit of work (removal.ts removeReceived). */
    private readonly removeReceived: (messages: StoredMessage[]) => void,
  ) {}

  /** Removes one receive's messages with the others of this turn; resolves once committed. */
  remove(messages: StoredMessage[]): Promise<void> {
    const set = (this.#open ??= this.#openSet());
    set.receives.push(messages);
    return set.committed.catch(() => this.runOnCommit(() => this.removeReceived(messages)));
  }

  #openSet(): OpenSet {
    const receives: StoredMessage[][] = [];
    const set: OpenSet = {
      receives,
      committed: this.runOnCommit(() => {
        // Taken now: a receive that finishes from here on joins the next set.
        if (this.#open === set) this.#open = null;
        this.removeReceived(receives.flat());
      }),
    };
    // Refused before its work ran (the queue manager is stopping): no later receive may join it.
    set.committed.catch(() => {
      if (this.#open === set) this.#open = null;
    });
    return set;
  }
}
