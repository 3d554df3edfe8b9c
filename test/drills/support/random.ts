/**
 * A seeded pseudo-random source (mulberry32), so a drill that fails can be replayed: every drill prints its
 * seed, and QK_DRILLS_SEED=<n> runs it again with the same choices (timing still varies: kills land where
 * the scheduler puts them).
 */
export class Random {
  readonly seed: number;
  private state: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    this.state = this.seed;
  }

  /** The seed from QK_DRILLS_SEED, or a fresh one. */
  static fromEnv(): Random {
    const fixed = process.env['QK_DRILLS_SEED'];
    return new Random(fixed ? Number(fixed) : Math.floor(Math.random() * 0xffffffff));
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of the keys, chosen with the given weights. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let at = this.next() * total;
    for (const [key, weight] of entries) {
      at -= weight;
      if (at < 0) return key;
    }
    return (entries[entries.length - 1] as [K, number])[0];
  }
}
