/**
 * The streaming receive (issue 11): MSMQ's asynchronous receive done right. A stream waits on its queue as a
 * receive does and, whenever messages are ready and its reader has credit, takes as many as the credit allows
 * in receive order and hands them over through the queue manager's removal path — prepared, removed (or
 * joined to the stream's transaction), written. While one round's removal commits, the next is taken, so a
 * busy queue streams at the speed of group commit; each round's messages are written after the previous
 * round's, so the reader sees receive order.
 */
import { QkError, type MessageInfo } from '@qk/model';
import type { QueueRecord, StoredMessage } from '@qk/store';
import { messageView, type MessageView } from './message-view.js';
import type { Transaction } from './transactions.js';
import type { Consumption, ConsumeInput, StreamReader, WriteReply } from './types.js';

/** Most messages one round takes, whatever the credit: a round is claimed and prepared without yielding. */
const ROUND_MAX = 256;

/** What a stream needs of its queue manager: the steps of a plain receive. */
export interface StreamHost {
  /** Claims up to `count` ready messages in receive order. */
  claim(queue: QueueRecord, count: number): StoredMessage[];
  /** The message as the reader sees it, through the reader's view. */
  info(message: StoredMessage, view: MessageView): MessageInfo;
  /**
   * Resolves true when a message becomes ready on the queue, false when `ms` pass first (never without `ms`);
   * rejects when the queue or the queue manager goes.
   */
  waitForArrival(queue: QueueRecord, signal: AbortSignal, ms?: number): Promise<boolean>;
  /** Removes received messages (journal copies, acknowledgments, retention) in one commit; on failure they go back. */
  finishReceives(messages: StoredMessage[]): Promise<void>;
  /** Ends claims; `undone`: the messages go back where they were. */
  releaseClaims(messages: StoredMessage[], undone: boolean): void;
  /** The transaction to join, while it is open. */
  openTransaction(id: string): Transaction | undefined;
  beginTransaction(): string;
  commitTransaction(transaction: string): Promise<void>;
  abortTransaction(transaction: string): void;
  /** Handed the stream while it runs, so that stopping the queue manager or deleting the queue ends it. */
  track(consumer: StreamConsumer): () => void;
}

export class StreamConsumer implements Consumption {
  readonly done: Promise<void>;
  readonly queueId: number;
  #received = 0;
  #timedOut = false;
  /** Wakes a stream whose queue stayed empty while its reader still held what it was sent (#idleEnds). */
  #settled: (() => void) | null = null;
  #transaction: string | undefined;
  /** Messages written to the reader in each open transaction of the stream. */
  readonly #written = new Map<string, number>();
  /** The last round's writing: the next round writes after it. */
  #writing: Promise<unknown> = Promise.resolve();
  /** Rounds not yet written (a transactional commit waits for them). */
  readonly #rounds = new Set<Promise<number>>();
  #stopError: QkError | undefined;
  /** Ends the run loop's wait in progress, if any (#until). */
  #interrupt: ((error: QkError) => void) | null = null;
  /** Messages claimed and not yet prepared: the reader's credit drops only as each is prepared. */
  #preparing = 0;
  #preparedWaiters: (() => void)[] = [];
  /** The properties the reader asked for. */
  readonly #view: MessageView;

  constructor(
    private readonly host: StreamHost,
    private readonly queue: QueueRecord,
    private readonly input: ConsumeInput,
  ) {
    this.queueId = queue.id;
    this.#view = messageView(input.properties);
    if (input.transactional) this.#transaction = host.beginTransaction();
    const untrack = host.track(this);
    this.done = this.#run().finally(untrack);
    // Its owner may look only once the stream has ended: an early failure is not an unhandled one.
    this.done.catch(() => undefined);
  }

  get received(): number {
    return this.#received;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** Ends the stream from the queue manager's side (queue deleted, service stopping). */
  stop(error: QkError): void {
    this.#stopError ??= error;
    this.#interrupt?.(error);
  }

  async commit(count?: number): Promise<number> {
    const transaction = this.#switchTransaction();
    const next = this.#transaction as string;
    // Rounds under way belong to the transaction being committed: they join it first.
    await Promise.allSettled([...this.#rounds]);
    const written = this.#forget(transaction);
    const ending = this.host.openTransaction(transaction);
    const following = this.host.openTransaction(next);
    if (count !== undefined && count < written && ending && following) {
      // The reader has finished with the first `count` only: the later ones stay held, in the next transaction.
      following.receives.unshift(...ending.receives.splice(count));
      this.#written.set(next, (this.#written.get(next) ?? 0) + (written - count));
    }
    await this.host.commitTransaction(transaction);
    this.#wakeSettled();
    return count !== undefined ? Math.min(count, written) : written;
  }

  abort(): number {
    const transaction = this.#switchTransaction();
    this.host.abortTransaction(transaction);
    const returned = this.#forget(transaction);
    this.#wakeSettled();
    return returned;
  }

  /** Later rounds go to a new transaction; returns the one to end. */
  #switchTransaction(): string {
    if (!this.input.transactional)
      throw new QkError('TRANSACTION_USAGE', 'This stream is not transactional: its messages leave as they are sent.');
    const transaction = this.#transaction;
    if (transaction === undefined) throw notOpen();
    this.#transaction = this.host.beginTransaction();
    return transaction;
  }

  #forget(transaction: string): number {
    const count = this.#written.get(transaction) ?? 0;
    this.#written.delete(transaction);
    return count;
  }

  async #run(): Promise<void> {
    const { reader, signal } = this.input;
    const onAbort = (): void => this.#interrupt?.(cancelledByReader());
    signal.addEventListener('abort', onAbort, { once: true });
    let failure: unknown;
    try {
      for (;;) {
        // Checked before anything else: a reader with credit is ready at once, and must not win over an end.
        if (this.#stopError) throw this.#stopError;
        if (signal.aborted) break;
        await this.#until(reader.ready());
        const room = Math.min(reader.credit() - this.#preparing, ROUND_MAX);
        if (room <= 0) {
          // The credit is spoken for by messages being prepared: wait for those (else for more credit, above).
          if (this.#preparing > 0) await this.#until(new Promise<void>((r) => this.#preparedWaiters.push(r)));
          continue;
        }
        const claimed = this.host.claim(this.queue, room);
        if (claimed.length === 0) {
          if (await this.#idleEnds(signal)) {
            this.#timedOut = true;
            break;
          }
          continue;
        }
        this.#deliver(claimed);
      }
    } catch (error) {
      if (!signal.aborted) failure = error;
    }
    signal.removeEventListener('abort', onAbort);
    // Rounds under way finish first: what was prepared is removed and written, or goes back.
    const outcomes = await Promise.allSettled([...this.#rounds]);
    for (const outcome of outcomes) if (outcome.status === 'rejected' && !signal.aborted) failure ??= outcome.reason;
    if (this.#transaction !== undefined) {
      const transaction = this.#transaction;
      this.#transaction = undefined;
      // What the reader did not commit goes back (R-D5: an aborted receive is not dead-lettered).
      try {
        this.host.abortTransaction(transaction);
      } catch {
        // Ended already by the queue manager (it stopped): its receives went back then.
      }
    }
    if (failure !== undefined) throw asError(failure);
  }

  /**
   * The queue is empty: waits for an arrival. True when the stream is to end for its timeout: the queue stayed
   * empty that long and the reader holds nothing the end would put back. A transactional reader still holding
   * messages (sent and not committed) is waited for; the queue is then looked at again, and waited on anew.
   */
  async #idleEnds(signal: AbortSignal): Promise<boolean> {
    const ms = this.input.timeoutMs;
    const arrived = await this.#until(this.host.waitForArrival(this.queue, signal, ms));
    if (arrived || ms === undefined) return false;
    if (this.#readerHoldsNothing()) return true;
    await this.#until(new Promise<void>((resolve) => (this.#settled = resolve)));
    return false;
  }

  /** Nothing the reader was sent would go back if the stream ended now. */
  #readerHoldsNothing(): boolean {
    if (this.#transaction === undefined) return true;
    return this.#rounds.size === 0 && (this.#written.get(this.#transaction) ?? 0) === 0;
  }

  #wakeSettled(): void {
    const wake = this.#settled;
    this.#settled = null;
    wake?.();
  }

  /**
   * Waits for `work` unless the stream ends first (stop(), or its reader cancels): then rejects with why. Not a
   * Promise.race with a promise pending for the stream's whole life: every race leaves a reaction on it, with
   * its promise and closure, until it settles — one per round, so a long stream's memory grew without bound
   * (issue 11: 51,000 promises held after 40,000 messages at 5,000 a second, and the GC's pauses with them).
   */
  #until<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const ended = this.#stopError ?? (this.input.signal.aborted ? cancelledByReader() : undefined);
      if (ended) return reject(ended);
      const interrupt = (error: QkError): void => {
        this.#interrupt = null;
        reject(error);
      };
      this.#interrupt = interrupt;
      const settled = (): void => {
        if (this.#interrupt === interrupt) this.#interrupt = null;
      };
      work.then(
        (value) => {
          settled();
          resolve(value);
        },
        (error: unknown) => {
          settled();
          reject(asError(error));
        },
      );
    });
  }

  #deliver(claimed: StoredMessage[]): void {
    const replies = claimed.map((m) => this.host.info(m, this.#view));
    const transaction = this.#transaction;
    this.#preparing += claimed.length;
    const prepared = (): void => {
      this.#preparing--;
      for (const wake of this.#preparedWaiters.splice(0)) wake();
    };
    const round = deliverRound(this.host, claimed, replies, this.input.reader, transaction, this.#writing, prepared);
    this.#rounds.add(round);
    this.#writing = round.then(
      (written) => {
        this.#received += written;
        if (transaction !== undefined) this.#written.set(transaction, (this.#written.get(transaction) ?? 0) + written);
      },
      () => undefined,
    );
    void round.then(
      () => {
        this.#rounds.delete(round);
        this.#wakeSettled();
      },
      (error: unknown) => {
        this.#rounds.delete(round);
        this.#wakeSettled();
        // The stream cannot go on without losing its order or its messages: it ends with the error.
        if (error instanceof QkError && error.code !== 'OPERATION_CANCELLED') this.stop(error);
        else if (!(error instanceof QkError)) this.stop(new QkError('INTERNAL', String(error)));
      },
    );
  }
}

/**
 * Hands one round of claimed messages to the reader, as a plain receive hands over its reply: each is
 * prepared (one that cannot be goes back, with all after it); then, without a transaction, they are removed
 * and only then written (a crash in between loses a reply, never duplicates a message); in a transaction they
 * are written and join it. Writing waits for `writeAfter`, the previous round. Resolves with how many were
 * written.
 */
async function deliverRound(
  host: StreamHost,
  messages: StoredMessage[],
  replies: MessageInfo[],
  reader: StreamReader,
  transactionId: string | undefined,
  writeAfter: Promise<unknown>,
  prepared: () => void,
): Promise<number> {
  const writes: WriteReply[] = [];
  let failure: unknown;
  for (const reply of replies) {
    if (failure === undefined) {
      try {
        writes.push(await reader.prepare(reply));
      } catch (error) {
        failure = error;
      }
    }
    prepared();
  }
  const taken = messages.slice(0, writes.length);
  if (writes.length < messages.length) host.releaseClaims(messages.slice(writes.length), true);
  if (transactionId === undefined) {
    if (taken.length > 0) {
      await host.finishReceives(taken);
      await writeAfter;
      await Promise.all(writes.map((write) => write()));
    }
  } else {
    const transaction = host.openTransaction(transactionId);
    const joining = (async () => {
      await writeAfter;
      try {
        await Promise.all(writes.map((write) => write()));
      } catch (error) {
        host.releaseClaims(taken, true);
        throw error;
      }
      // Ended while they were on their way (an abort, R-D5): they go back as its other receives did.
      if (transaction && host.openTransaction(transactionId) === transaction) transaction.receives.push(...taken);
      else host.releaseClaims(taken, true);
    })();
    transaction?.delivering.add(joining);
    try {
      await joining;
    } finally {
      transaction?.delivering.delete(joining);
    }
  }
  if (failure !== undefined && taken.length === 0) throw asError(failure);
  return taken.length;
}

/** What was thrown, as an Error (the engine throws QkErrors; anything else is wrapped). */
function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new QkError('INTERNAL', String(thrown));
}

function cancelledByReader(): QkError {
  return new QkError('OPERATION_CANCELLED', 'The stream was closed by its reader.');
}

function notOpen(): QkError {
  return new QkError('TRANSACTION_USAGE', 'The stream has ended: its transaction is closed.');
}
