/**
 * The delivery step of receives (issue 7, item 3): a message leaves the store only once its reply is known to
 * be deliverable, and the reply goes out only once the removal is committed. These helpers are the parts that
 * need no queue-manager state.
 */
import { QkError, type MessageInfo } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import { toMessageInfo } from './message-view.js';
import type { Deliver, ReplyLimit, WriteReply } from './types.js';

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

const nothingToWrite: WriteReply = () => Promise.resolve();

/** Prepares the caller's delivery of `reply`; a call cancelled before that is refused here too. */
export async function prepareDelivery<T>(
  reply: T,
  deliver: Deliver<T> | undefined,
  signal: AbortSignal | undefined,
): Promise<WriteReply> {
  if (signal?.aborted) throw new QkError('OPERATION_CANCELLED', 'The receive was cancelled by the caller.');
  return deliver ? deliver(reply) : nothingToWrite;
}
