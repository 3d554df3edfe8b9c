/**
 * Which size the drills run at. `npm run drills` sets QK_DRILLS=full (every drill at full size, minutes
 * each); anything else is the short form `npm test` runs (the same code with small counts, seconds each).
 */
export type DrillMode = 'full' | 'short';

export const drillMode: DrillMode = process.env['QK_DRILLS'] === 'full' ? 'full' : 'short';

/** `short` in the short form, `full` in a full run. */
export function sized<T>(short: T, full: T): T {
  return drillMode === 'full' ? full : short;
}
