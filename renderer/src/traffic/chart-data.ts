/** A traffic reading as the columns uPlot draws. */
import type { Traffic } from './traffic-types.js';

/** x values (epoch seconds) and the series of a traffic reading. */
export function chartData(t: Traffic): { x: number[]; incoming: number[]; outgoing: number[]; depth: number[] } {
  const end = Math.floor(Date.parse(t.endTime) / 1000);
  const n = t.incoming.length;
  const x = Array.from({ length: n }, (_, i) => end - (n - 1 - i) * t.intervalSeconds);
  return { x, incoming: t.incoming, outgoing: t.outgoing, depth: t.depth };
}
