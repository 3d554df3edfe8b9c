/**
 * The delivery step of receives (issue 7, item 3): a message leaves the store only once its reply has been
 * handed to the caller's transport. These helpers are the parts that need no queue-manager state.
 */
import { QkError, type MessageInfo } from '@qk/model';
import type { Deliver, ReplyLimit } from './types.js';

/** How many of `replies`, from the first, fit in the limit; the first always does (MaxMessageSize bounds it). */
export function countFitting(replies: readonly MessageInfo[], limit: ReplyLimit | undefined): number {
  if (!limit || replies.length <= 1) return replies.length;
  let used = 0;
  for (let i = 0; i < replies.length; i++) {
    used += limit.measure(replies[i] as MessageInfo);
    if (used > limit.maxBytes && i > 0) return i;
  }
  return replies.length;
}

/** Runs the caller's delivery step; a call cancelled before its reply left is refused here too. */
export async function handOver<T>(
  reply: T,
  deliver: Deliver<T> | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) throw new QkError('OPERATION_CANCELLED', 'The receive was cancelled by the caller.');
  if (deliver) await deliver(reply);
}
