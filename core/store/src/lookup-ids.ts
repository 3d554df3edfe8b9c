/**
 * Lookup IDs (R-L1) strictly increase in queue order — "always greater than the lookup identifier of the
 * preceding message and less than that of the following one" — and queue order puts a higher priority first
 * (R-O1). An ID therefore carries its message's priority above its arrival number: a later message of a
 * higher priority, placed ahead of earlier ones, gets a smaller ID than theirs. Of the 53 bits a number holds
 * exactly, the priority (inverted, 7 first) takes the top 3 and the arrival number the 50 below, room for
 * 10^15 arrivals. Within one priority IDs still grow with arrival; across the computer they stay unique.
 */
export const ARRIVALS_PER_PRIORITY = 2 ** 50;

const PRIORITIES = 8;

/** The lookup ID of the message with this arrival number and priority (0–7). */
export function lookupIdFor(arrival: number, priority: number): number {
  return (PRIORITIES - 1 - priority) * ARRIVALS_PER_PRIORITY + arrival;
}

/** The arrival number a lookup ID was made from: it grows with every message that enters any queue. */
export function arrivalOf(lookupId: number): number {
  return lookupId % ARRIVALS_PER_PRIORITY;
}

/** The priority a lookup ID was made for (every stored row's, migration 7 included). */
export function priorityOfLookupId(lookupId: number): number {
  return PRIORITIES - 1 - Math.floor(lookupId / ARRIVALS_PER_PRIORITY);
}

/** The lookup IDs priority `priority` is given: [first, last]. */
export function lookupIdRangeOf(priority: number): [number, number] {
  const first = lookupIdFor(0, priority);
  return [first, first + ARRIVALS_PER_PRIORITY - 1];
}

export const PRIORITY_LEVELS: readonly number[] = [7, 6, 5, 4, 3, 2, 1, 0];
