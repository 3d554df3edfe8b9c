/** What the console reads for its charts and class summaries (issue 9), typed apart from the slice. */
import type { OperationOutput } from '@qk/api';

/** Per-second incoming/outgoing counts and depth, oldest first. */
export type Traffic = OperationOutput<'traffic'>;

/** Messages of one class in a queue. */
export type ClassCount = OperationOutput<'queueClassCounts'>['counts'][number];

/** The traffic slice: reads only, nothing kept in the store (the charts own their series). */
export interface TrafficSlice {
  /** The last `seconds` of a queue's traffic, or of the computer's without a path. */
  trafficOf(computer: string, path: string | null, seconds: number): Promise<Traffic>;
  /** A queue's messages per class, most frequent first. */
  classCountsOf(computer: string, path: string): Promise<ClassCount[]>;
}
