/** A clock that moves only when the test says so. */
import type { Clock } from '@qk/engine';

export class FakeClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;

  constructor(private current = Date.parse('2026-01-01T00:00:00Z')) {}

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.current + ms, fn, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Moves time forward, firing due timers in order (timers they set that fall due fire too). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.current = next.at;
      next.fn();
    }
    this.current = target;
  }
}
