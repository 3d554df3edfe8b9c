/**
 * The delivery step of receives (issue 7, item 3): a message leaves the store only once its reply has been
 * handed to the caller's transport. These helpers are the parts that need no queue-manager state.
 */
import { QkError, type MessageInfo } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import { toMessageInfo } from './message-view.js';
import type { Deliver, ReplyLimit } from './types.js';

/**
 * Builds the replies of `messages` in order while they fit in `room` bytes (a message that does not fit is
 * not even built): how many fit, their replies, the bytes they take, and the largest of them.
 */
export function countFitting(messages: readonly StoredMessage[], limit: ReplyLimit, room: number, nowMs: number) {
  const replies: MessageInfo[] = [];
  let bytes = 0;
  let largest = 0;
  for (const m of messages) {
    const reply = toMessageInfo(m, nowMs);
    const size = limit.measure(reply);
    if (bytes + size > room) break;
    replies.push(reply);
    bytes += size;
    largest = Math.max(largest, size);
  }
  return { count: replies.length, replies, bytes, largest };
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
