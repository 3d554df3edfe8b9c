/** Open local transactions: sends wait for the commit (R-E2); receives hold their messages until it ends. */
import { randomUUID } from 'node:crypto';
import { Limits, QkError } from '@qk/model';
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
  /** Messages and stored bytes sent so far to each queue on another computer (by format-name key). */
  remote: Map<string, { messages: number; bytes: number }>;
}

/**
 * Adds sends to a transaction, released at its commit (R-E2). The messages a transaction sends to one queue on
 * another computer travel in one delivery, so the destination places them together: more than one delivery
 * carries (Limits.REMOTE_TRANSACTION_*) is refused, and the sends refused are not added — the transaction goes
 * on with what it had.
 */
export function addSends(tx: Transaction, sends: readonly PendingSend[]): void {
  const totals = new Map<string, { messages: number; bytes: number }>();
  for (const { target, draft } of sends) {
    if (!('kind' in target) || target.kind !== 'remote') continue;
    const total = totals.get(target.key) ?? { ...(tx.remote.get(target.key) ?? { messages: 0, bytes: 0 }) };
    total.messages += 1;
    total.bytes += draft.size;
    if (total.messages > Limits.REMOTE_TRANSACTION_MESSAGES || total.bytes > Limits.REMOTE_TRANSACTION_BYTES)
      throw new QkError(
        'INSUFFICIENT_RESOURCES',
        `A transaction may send at most ${Limits.REMOTE_TRANSACTION_MESSAGES.toLocaleString('en-US')} messages ` +
          `(${Limits.REMOTE_TRANSACTION_BYTES / (1024 * 1024)} MB) to one queue on another computer ` +
          `('${target.formatName}'): they travel together. Commit and send the rest in another transaction.`,
      );
    totals.set(target.key, total);
  }
  for (const [key, total] of totals) tx.remote.set(key, total);
  tx.sends.push(...sends);
}

export class TransactionTable {
  private readonly open = new Map<string, Transaction>();

  begin(): Transaction {
    const tx: Transaction = { id: randomUUID(), sends: [], receives: [], delivering: new Set(), remote: new Map() };
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
