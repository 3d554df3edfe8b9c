/**
 * The main thread's handle on the checkpoint worker (checkpoint-worker.ts): asks it for a checkpoint without
 * waiting, keeps it off while the store checkpoints itself, and stops it. When to ask is checkpointer.ts's.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  CHECKPOINT_WORKER_SOURCE,
  Owner,
  Phase,
  Slot,
  SLOT_COUNT,
  type CheckpointReport,
  type CheckpointWorkerData,
} from './checkpoint-worker.js';

export interface CheckpointThreadEvents {
  /** A checkpoint asked for has ended; null when it did nothing (the store was checkpointing, or SQLite was). */
  finished(report: CheckpointReport | null): void;
  /** The worker failed (it could not load better-sqlite3 or open the database, or a checkpoint threw) and ended. */
  failed(error: unknown): void;
}

/**
 * The longest the main thread waits for the worker's checkpoint in flight (before the store's own checkpoint,
 * or at close). A PASSIVE checkpoint takes milliseconds; only a disk that has stopped answering gets here, and
 * then the main thread goes on rather than hang.
 */
const WAIT_LIMIT_MS = 5_000;

export class CheckpointThread {
  readonly #worker: Worker;
  readonly #state: Int32Array;
  #asked = false;
  #closed = false;

  private constructor(worker: Worker, state: Int32Array, events: CheckpointThreadEvents) {
    this.#worker = worker;
    this.#state = state;
    // The store's close ends the worker; until then it must not keep a process alive that is done with it.
    worker.unref();
    worker.on('message', (report: CheckpointReport | null) => {
      this.#asked = false;
      events.finished(report);
    });
    const fail = (error: unknown): void => {
      if (this.#closed) return;
      this.#closed = true;
      worker.terminate().catch(ignore);
      events.failed(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the checkpoint worker ended (exit code ${code})`)));
  }

  /** Starts the worker on the database file `dbFile`; throws when no worker can be made. */
  static start(
    dbFile: string,
    events: CheckpointThreadEvents,
    source: string = CHECKPOINT_WORKER_SOURCE,
  ): CheckpointThread {
    const state = new Int32Array(new SharedArrayBuffer(SLOT_COUNT * Int32Array.BYTES_PER_ELEMENT));
    const workerData: CheckpointWorkerData = {
      betterSqlite3: betterSqlite3Path(),
      dbFile,
      state: state.buffer,
    };
    // A thread that only runs one pragma needs little heap: the service's memory budget (bench: ≤ 200 MB with
    // a million messages stored) has no room for a second default-sized one.
    const resourceLimits = { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2, codeRangeSizeMb: 4 };
    return new CheckpointThread(new Worker(source, { eval: true, workerData, resourceLimits }), state, events);
  }

  /** True while a checkpoint asked for has not ended. */
  get busy(): boolean {
    return this.#asked;
  }

  /** Asks for a checkpoint; `finished` tells when it ended. One at a time: ignored while one is asked for. */
  request(): void {
    if (this.#closed || this.#asked) return;
    this.#asked = true;
    Atomics.add(this.#state, Slot.requests, 1);
    Atomics.notify(this.#state, Slot.requests);
  }

  /**
   * Runs `work` (the store's own checkpoint) with the worker kept from checkpointing, after its checkpoint in
   * flight: SQLite refuses a second checkpoint at the same time without waiting for the first (`wal_checkpoint`
   * just reports itself blocked), so without this a TRUNCATE on close could silently leave the WAL as it was.
   */
  exclusive<T>(work: () => T): T {
    if (this.#closed) return work();
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const owner = Atomics.compareExchange(this.#state, Slot.owner, Owner.free, Owner.main);
      if (owner === Owner.free) break;
      if (!waitWhile(this.#state, Slot.owner, owner, deadline)) return work();
    }
    try {
      return work();
    } finally {
      Atomics.store(this.#state, Slot.owner, Owner.free);
    }
  }

  /**
   * Ends the worker after its checkpoint in flight, once its connection is closed: the store's connection is
   * then the last one open, and its own close folds the WAL into the database file and removes it as before.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const state = this.#state;
    // A worker that has not reached its start never opens the database: nothing to wait for.
    if (Atomics.compareExchange(state, Slot.phase, Phase.new, Phase.stopped) === Phase.opened) {
      Atomics.store(state, Slot.stop, 1);
      Atomics.add(state, Slot.requests, 1);
      Atomics.notify(state, Slot.requests);
      waitWhile(state, Slot.closed, 0, Date.now() + WAIT_LIMIT_MS);
    }
    this.#worker.terminate().catch(ignore);
  }
}

/** Ending a worker that has ended by itself can only say so. */
function ignore(): void {}

/**
 * better-sqlite3 as the store's own import finds it. In Electron's CJS bundle import.meta.url is main.cjs's own
 * (build/esbuild.mjs defines it), so the package is the one beside the app, as for the store's connection.
 */
function betterSqlite3Path(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}

/**
 * Waits while `state[index]` is `value`, until `deadline`; false if the deadline came first. Blocking the thread
 * is the point: the store's checkpoint, and its close, must not go ahead under a running checkpoint. Where a
 * runtime forbids Atomics.wait on its main thread, it polls instead (for a checkpoint's milliseconds).
 */
function waitWhile(state: Int32Array, index: number, value: number, deadline: number): boolean {
  for (;;) {
    if (Atomics.load(state, index) !== value) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    try {
      Atomics.wait(state, index, value, left);
    } catch {
      // Atomics.wait is not allowed on this thread: go round again.
    }
  }
}
