/**
 * Traffic of each queue and of the whole computer, second by second over the last few minutes: messages in,
 * messages out and depth, for the console's live charts. Kept in memory in fixed rings, created only for
 * queues that see traffic and dropped once they have been idle for a whole window.
 */

/** How far back the traffic of a queue can be asked for. */
const TRAFFIC_WINDOW_SECONDS = 300;

/** The ring of the whole computer (queue IDs start at 1). */
const COMPUTER = 0;

/** One queue's (or the computer's) last TRAFFIC_WINDOW_SECONDS seconds, indexed by epoch second modulo the window. */
class Ring {
  /** The epoch second a slot holds, or -1 when it holds nothing yet. */
  readonly second = new Float64Array(TRAFFIC_WINDOW_SECONDS).fill(-1);
  readonly incoming = new Float64Array(TRAFFIC_WINDOW_SECONDS);
  readonly outgoing = new Float64Array(TRAFFIC_WINDOW_SECONDS);
  /** Depth when the slot's second began (before its first change). */
  readonly depthAtStart = new Float64Array(TRAFFIC_WINDOW_SECONDS);
  /** Depth after the slot's last change. */
  readonly depthAtEnd = new Float64Array(TRAFFIC_WINDOW_SECONDS);
  lastSecond = -1;

  record(second: number, arrived: number, departed: number, depthDelta: number, depthAfter: number): void {
    const slot = second % TRAFFIC_WINDOW_SECONDS;
    if (this.second[slot] !== second) {
      this.second[slot] = second;
      this.incoming[slot] = 0;
      this.outgoing[slot] = 0;
      this.depthAtStart[slot] = depthAfter - depthDelta;
    }
    this.incoming[slot] = (this.incoming[slot] as number) + arrived;
    this.outgoing[slot] = (this.outgoing[slot] as number) + departed;
    this.depthAtEnd[slot] = depthAfter;
    this.lastSecond = second;
  }
}

/** Second-by-second series, oldest first; `incoming`/`outgoing` are messages in that second (= per second). */
export interface TrafficSeries {
  /** The start of the last (current) second. */
  endTime: string;
  intervalSeconds: 1;
  incoming: number[];
  outgoing: number[];
  depth: number[];
}

export class TrafficMeter {
  private readonly rings = new Map<number, Ring>();

  /**
   * Records a change of a queue's messages: `arrived` placed, `departed` removed (or received and retained),
   * `depthDelta` the change of its message count, `depthAfter` its count now. Undoing a change records the
   * negatives, so a rolled-back arrival leaves no trace.
   */
  record(
    queueId: number,
    arrived: number,
    departed: number,
    depthDelta: number,
    depthAfter: number,
    computerDepthAfter: number,
    nowMs: number,
  ): void {
    const second = Math.floor(nowMs / 1000);
    this.ring(queueId).record(second, arrived, departed, depthDelta, depthAfter);
    this.ring(COMPUTER).record(second, arrived, departed, depthDelta, computerDepthAfter);
  }

  /** The last `seconds` seconds of a queue (or of the computer when `queueId` is null), given its depth now. */
  series(queueId: number | null, seconds: number, currentDepth: number, nowMs: number): TrafficSeries {
    const n = Math.max(1, Math.min(Math.floor(seconds), TRAFFIC_WINDOW_SECONDS));
    const end = Math.floor(nowMs / 1000);
    const ring = this.rings.get(queueId ?? COMPUTER);
    const incoming = new Array<number>(n).fill(0);
    const outgoing = new Array<number>(n).fill(0);
    const depth = new Array<number>(n).fill(currentDepth);
    if (ring) {
      // Walk back from now: a second without changes ends at the depth the next one started with.
      let carry = currentDepth;
      for (let i = n - 1; i >= 0; i--) {
        const second = end - (n - 1 - i);
        const slot = second % TRAFFIC_WINDOW_SECONDS;
        if (ring.second[slot] === second) {
          incoming[i] = ring.incoming[slot] as number;
          outgoing[i] = ring.outgoing[slot] as number;
          depth[i] = ring.depthAtEnd[slot] as number;
          carry = ring.depthAtStart[slot] as number;
        } else depth[i] = carry;
      }
    }
    return { endTime: new Date(end * 1000).toISOString(), intervalSeconds: 1, incoming, outgoing, depth };
  }

  /** Forgets a deleted queue. */
  forget(queueId: number): void {
    this.rings.delete(queueId);
  }

  /** Drops the rings of queues idle for a whole window: their series is flat at their depth. */
  sweep(nowMs: number): void {
    const oldest = Math.floor(nowMs / 1000) - TRAFFIC_WINDOW_SECONDS;
    for (const [id, ring] of this.rings) if (ring.lastSecond < oldest) this.rings.delete(id);
  }

  private ring(id: number): Ring {
    let ring = this.rings.get(id);
    if (!ring) {
      ring = new Ring();
      this.rings.set(id, ring);
    }
    return ring;
  }
}
