/**
 * Undo and after-commit logs for one unit of work. Counters change at once (later parts of the same batch
 * check quotas against them) and are undone if their savepoint rolls back; events and wake-ups wait for the
 * commit, so nobody hears of a message that was never stored.
 */
export interface EffectsMark {
  undo: number;
  after: number;
}

export class Effects {
  private undo: (() => void)[] = [];
  private after: (() => void)[] = [];

  /** Records how to take back an in-memory change if the database work is rolled back. */
  onRollback(fn: () => void): void {
    this.undo.push(fn);
  }

  /** Runs once the database work is committed. */
  afterCommit(fn: () => void): void {
    this.after.push(fn);
  }

  mark(): EffectsMark {
    return { undo: this.undo.length, after: this.after.length };
  }

  rollbackTo(mark: EffectsMark): void {
    for (let i = this.undo.length - 1; i >= mark.undo; i--) this.undo[i]?.();
    this.undo.length = mark.undo;
    this.after.length = mark.after;
  }

  rollbackAll(): void {
    this.rollbackTo({ undo: 0, after: 0 });
  }

  commit(): void {
    const after = this.after;
    this.undo = [];
    this.after = [];
    for (const fn of after) fn();
  }
}
