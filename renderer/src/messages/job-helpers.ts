/** Small helpers of the bulk jobs: chunking and counted words. */
import { formatCount } from '../format/format.js';

/** Lookup IDs per service call; the contract allows 10,000, smaller chunks make Cancel responsive. */
export const CHUNK = 500;

/** `items` in slices of `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** "1 message", "1,204 messages". */
export const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "QUOTA_EXCEEDED 2, TRANSACTION_USAGE 1". */
export function codeCounts(codes: ReadonlyMap<string, number>): string {
  return [...codes].map(([code, n]) => `${code} ${formatCount(n)}`).join(', ');
}
