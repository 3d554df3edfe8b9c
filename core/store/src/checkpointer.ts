/**
 * Checkpoints the store's WAL on a worker thread, so that the event loop never waits for one.
 *
 * SQLite's automatic checkpoint (every 1,000 WAL pages) runs inside the commit that crosses the line, on the
 * event loop: it syncs the WAL, copies its pages into the database file and syncs that — two disk syncs and the
 * copying, 10 ms and more in which no connection and no timer is served. Here a worker thread with its own
 * connection (checkpoint-thread.ts, checkpoint-worker.ts) runs `PRAGMA wal_checkpoint(PASSIVE)` while the store's
 * connection goes on committing; the store connection's own automatic checkpoint stays only as a backstop
 * (BACKSTOP_PAGES), for a worker that falls far behind. If the worker cannot start or dies, the store goes on
 * with SQLite's own checkpoint as before, and says so once (QK_CHECKPOINT_WORKER_FAILED).
 *
 * Durability is what it was. The worker's connection runs `synchronous = NORMAL` too, under which a checkpoint
 * syncs the WAL before it writes any page into the database file, and the database file before the WAL may be
 * reused: "In WAL mode when synchronous is NORMAL (1), the WAL file is synchronized before each checkpoint and
 * the database file is synchronized after each completed checkpoint and the WAL file header is synchronized when
 * a WAL file begins to be reused after a checkpoint" (https://www.sqlite.org/pragma.html#pragma_synchronous).
 * SQLite's walCheckpoint() (wal.c, in better-sqlite3's copy of SQLite 3.53) says the same and is written for
 * this: "Fsync is called on the WAL before writing content out of the WAL and into the database ... if
 * checkpoints are always run by a background thread or background process, foreground threads will never block
 * on a lengthy fsync call"; so does https://www.sqlite.org/wal.html: "If an application therefore runs
 * checkpoint in a separate thread or process, the main thread or process that is doing database queries and
 * updates will never block on a sync operation." So no checkpoint puts into the database file a page that a power cut could take out of the WAL,
 * whichever connection runs it, and a commit is durable exactly when Store.sync says so (wal-sync.ts).
 *
 * One sync stays on the event loop: the WAL header's, in the first commit after the WAL starts over (SQLite
 * syncs it so that a reused WAL is never mistaken for the old one after a power cut) — once per RESTART_PAGES,
 * where SQLite's own checkpoint put three syncs and the copying.
 */
import type { Db } from './open-database.js';
import { CheckpointThread } from './checkpoint-thread.js';
import type { CheckpointReport } from './checkpoint-worker.js';

/**
 * How often the worker is asked while commits happen and the WAL is short: a quiet store is asked at most four
 * times a second, each ask costing the disk one or two syncs, and a busy one (100,000 recoverable sends write
 * some 20,000 WAL pages in 4–6 s here) has written a few hundred pages by then.
 */
const CHECKPOINT_EVERY_MS = 250;
/**
 * From half of RESTART_PAGES on, the worker is asked again 25 ms after each checkpoint, so that a long WAL is
 * seen within a checkpoint's time rather than a quarter of a second's, and a fast writer (large messages write
 * many pages a second) finds the worker keeping up. At most 40 a second, each syncing the WAL once: a fraction of
 * the group commits' own WAL syncs (one per commit, some 400 a second at the rate above).
 */
const EAGER_PAGES = 500;
const EAGER_EVERY_MS = 25;
/**
 * A checkpoint copies the WAL into the database file but does not shorten it: SQLite writes the WAL from its
 * beginning again only when a transaction begins with every frame copied. Under sustained commits one is always
 * made while the worker copies, so the WAL would grow to the backstop and SQLite's inline checkpoint would run
 * after all. Once the worker reports a WAL of 1,000 pages — where SQLite's own checkpoint would have run — commits
 * wait a moment (deferCommit; the event loop does not wait) while the worker copies the rest, and the next commit
 * starts the WAL over. The WAL thus cycles at about the length it had before, a few MB.
 */
export const RESTART_PAGES = 1_000;
/**
 * The longest commits wait for that. The catching-up checkpoint copies little but syncs the database file —
 * every page copied since the WAL began — which takes 2–30 ms here. Past this the wait is given up (a disk that
 * stalls must not hold every send) until the WAL starts over by itself or at the backstop.
 */
const HOLD_LIMIT_MS = 250;
/**
 * The store connection's automatic checkpoint while the worker runs: 2,000 pages (8 MB), twice what a working
 * worker leaves. No more, because on a full disk the pages of the WAL not yet in the database file must fit in
 * the space the store's reserve gives back (8 MB, space-reserve.ts): the checkpoint at the stop after a purge
 * grows the database file by up to that much (with an 8,000-page backstop, space-reserve.test.ts found no room).
 */
export const BACKSTOP_PAGES = 2_000;
/** SQLite's default automatic checkpoint, the store's only one when the worker is gone. */
const SQLITE_DEFAULT_PAGES = 1_000;

export class Checkpointer {
  readonly #db: Db;
  /** Started with the first checkpoint due. */
  #thread: CheckpointThread | null = null;
  readonly #countChanges: () => number;
  /** total_changes() when the worker was last asked: an ask is due only once something was committed since. */
  #changesAsked = -1;
  readonly #tick: NodeJS.Timeout;
  #soon: NodeJS.Timeout | null = null;
  #running = true;
  /** Commits wait for the worker to copy all of the WAL, so that the next one starts it over. */
  #holding = false;
  #holdLimit: NodeJS.Timeout | null = null;
  /** Set when a wait ran out: no other until the WAL has started over (at the backstop, if need be). */
  #gaveUp = false;
  #waiting: (() => void)[] = [];

  private constructor(db: Db) {
    this.#db = db;
    const changes = db.prepare('SELECT total_changes()').pluck();
    this.#countChanges = () => changes.get() as number;
    this.#tick = setInterval(() => this.#askIfDue(), CHECKPOINT_EVERY_MS).unref();
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /**
   * Checkpoints the store connection's WAL on a worker from now on. The worker itself starts with the first
   * checkpoint due, so a store opened and closed at once (a command, a test) never starts a thread; if it cannot
   * start then, the connection goes back to SQLite's own checkpoint.
   */
  static start(db: Db): Checkpointer {
    return new Checkpointer(db);
  }

  /**
   * True when the WAL is long and the worker is copying the last of it: the caller's commit waits, and `resume`
   * is called once it may go (that commit then starts the WAL over). False: commit now.
   */
  deferCommit(resume: () => void): boolean {
    if (!this.#holding) return false;
    this.#waiting.push(resume);
    return true;
  }

  /** Runs `work` (the store's own checkpoint) once the worker's checkpoint in flight has ended, and without it. */
  exclusive<T>(work: () => T): T {
    return this.#thread ? this.#thread.exclusive(work) : work();
  }

  /** Stops the worker (after its checkpoint in flight) and lets waiting commits go. */
  close(): void {
    this.#stop();
    this.#thread?.close();
  }

  #askIfDue(): void {
    if (this.#running && this.#countChanges() !== this.#changesAsked) this.#ask();
  }

  #ask(): void {
    if (!this.#running) return;
    const thread = (this.#thread ??= this.#startThread());
    if (!thread || thread.busy) return;
    this.#changesAsked = this.#countChanges();
    thread.request();
  }

  #startThread(): CheckpointThread | null {
    try {
      return CheckpointThread.start(this.#db.name, {
        finished: (report) => this.#finished(report),
        failed: (error) => this.#failed(error),
      });
    } catch (error) {
      this.#failed(error);
      return null;
    }
  }

  #finished(report: CheckpointReport | null): void {
    if (!this.#running) return;
    if (this.#holding) {
      // All of it copied, and nothing committed since it was asked for (a runNow commit does not wait): go.
      const whole = report !== null && report.checkpointed === report.log;
      if (whole && this.#countChanges() === this.#changesAsked) this.#release();
      else this.#ask();
      return;
    }
    if (report === null) return;
    if (report.log < RESTART_PAGES) this.#gaveUp = false;
    else if (!this.#gaveUp) return this.#hold();
    if (report.log >= EAGER_PAGES) {
      this.#soon ??= setTimeout(() => {
        this.#soon = null;
        this.#askIfDue();
      }, EAGER_EVERY_MS).unref();
    }
  }

  #hold(): void {
    this.#holding = true;
    // Ref'd, unlike the other timers: commits wait on it, and nothing else may be keeping the process up.
    this.#holdLimit = setTimeout(() => {
      this.#gaveUp = true;
      this.#release();
    }, HOLD_LIMIT_MS);
    // Covers what was committed while the last checkpoint ran.
    this.#ask();
  }

  #release(): void {
    this.#holding = false;
    if (this.#holdLimit) clearTimeout(this.#holdLimit);
    this.#holdLimit = null;
    for (const resume of this.#waiting.splice(0)) resume();
  }

  #failed(error: unknown): void {
    if (!this.#running) return;
    this.#stop();
    if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
    warnWorkerFailed(error);
  }

  #stop(): void {
    this.#running = false;
    clearInterval(this.#tick);
    if (this.#soon) clearTimeout(this.#soon);
    this.#soon = null;
    this.#release();
  }
}

function warnWorkerFailed(error: unknown): void {
  // An error thrown in the worker arrives as a plain object when its class is not a built-in one (SqliteError).
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const why =
    typeof message === 'string' ? (typeof code === 'string' ? `${code}: ${message}` : message) : String(error);
  process.emitWarning(
    `The store's checkpoint worker could not run (${why}): SQLite checkpoints the WAL itself, inside commits, every ${SQLITE_DEFAULT_PAGES} pages, as it does by default. Nothing stored is affected; the service pauses for a few milliseconds at each checkpoint.`,
    { code: 'QK_CHECKPOINT_WORKER_FAILED' },
  );
}
