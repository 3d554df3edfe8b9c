/**
 * The delivery step of receives (issue 7, item 3): a message leaves the store only once its reply is known to
 * be deliverable, and the reply goes out only once the removal is committed. These helpers are the parts that
 * need no queue-manager state.
 */
import { QkError, type MessageInfo } from '@qk/model';
import type { StoredMessage } from '@qk/store';
import type { MessageView } from './message-view.js';
import type { Cancellable, Deliver, ReplyLimit, WriteReply } from './types.js';

/**
 * Builds the replies of `messages` in order while they fit in `room` bytes (a message that does not fit is
 * not even built): how many fit, their replies, the bytes they take, and the largest of them.
 */
export function countFitting(
  messages: readonly StoredMessage[],
  limit: ReplyLimit,
  room: number,
  nowMs: number,
  view: MessageView,
) {
  const replies: MessageInfo[] = [];
  let bytes = 0;
  let largest = 0;
  for (const m of messages) {
    const reply = view(m, nowMs);
    const size = limit.measure(reply);
    if (bytes + size > room) break;
    replies.push(reply);
    bytes += size;
    largest = Math.max(largest, size);
  }
  return { count: replies.length, replies, bytes, largest };
}

const nothingToWrite: WriteReply = () => Promise.resolve();

/**
 * Prepares the caller's delivery of `reply`; a call cancelled before that is refused here too — by `deliver`,
 * which checks its own call (types.ts), or by the caller's signal. The signal is read only without a
 * `deliver`: a service call makes its AbortSignal on first read, and a receive that finds a message at once
 * never needs one (an AbortController cost a tenth of a single receive's time in the service).
 */
export async function prepareDelivery<T>(
  reply: T,
  deliver: Deliver<T> | undefined,
  caller: Cancellable,
): Promise<WriteReply> {
  if (deliver) return deliver(reply);
  if (caller.signal?.aborted) throw new QkError('OPERATION_CANCELLED', 'The receive was cancelled by the caller.');
  return nothingToWrite;
}
