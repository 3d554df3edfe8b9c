/** Open local transactions: sends wait for the commit (R-E2); receives hold their messages until it ends. */
import { randomUUID } from 'node:crypto';
import { QkError } from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import type { Draft } from './drafts.js';
import type { RemoteTarget } from './queue-registry.js';

export interface PendingSend {
  draft: Draft;
  target: QueueRecord | RemoteTarget;
  from: QueueRecord | undefined;
}

export interface Transaction {
  id: string;
  sends: PendingSend[];
  receives: StoredMessage[];
  /** Receives of this transaction whose reply is on its way: a commit waits for them to settle. */
  delivering: Set<Promise<unknown>>;
}

export class TransactionTable {
  private readonly open = new Map<string, Transaction>();

  begin(): Transaction {
    const tx: Transaction = { id: randomUUID(), sends: [], receives: [], delivering: new Set() };
    this.open.set(tx.id, tx);
    return tx;
  }

  get(id: string): Transaction {
    const tx = this.open.get(id);
    if (!tx)
      throw new QkError(
        'TRANSACTION_USAGE',
        `There is no open transaction '${id}' (it was committed, aborted or never begun).`,
      );
    return tx;
  }

  /** Takes a transaction out of the table to end it; a second commit or abort is a usage error. */
  end(id: string): Transaction {
    const tx = this.get(id);
    this.open.delete(id);
    return tx;
  }

  /** The open transaction of this id, if there is one. */
  find(id: string): Transaction | undefined {
    return this.open.get(id);
  }

  isOpen(tx: Transaction): boolean {
    return this.open.get(tx.id) === tx;
  }

  all(): Transaction[] {
    return [...this.open.values()];
  }
}
