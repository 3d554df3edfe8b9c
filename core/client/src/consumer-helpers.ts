/** A consumer started once its connection is open, and a consumer seen as an async iterator. */
import { QkError, type MessageInfo } from '@qk/model';
import type { Consumer } from './consumer.js';

/** A consumer whose connection is still opening: it starts once the connection is there. */
export function deferredConsumer<T>(connection: Promise<T>, start: (channel: T) => Consumer): Consumer {
  let inner: Consumer | undefined;
  let closeAsked = false;
  const done = connection.then((channel) => {
    inner = start(channel);
    // Its outcome is `done`'s, which the caller has.
    if (closeAsked) inner.close().catch(() => undefined);
    return inner.done;
  });
  done.catch(() => undefined);
  return {
    get handled() {
      return inner?.handled ?? 0;
    },
    get timedOut() {
      return inner?.timedOut ?? false;
    },
    done,
    async close() {
      closeAsked = true;
      if (inner) return inner.close();
      await done.catch(() => undefined);
      return done;
    },
  };
}

/**
 * The messages of a consumer one `next()` at a time: the handler of a message settles when the loop asks for
 * the next one (it is handled) or leaves — then a transactional consumer puts it back, and without a
 * transaction it counts as handled (it left its queue when it was sent).
 */
export function consumerIterator(
  transactional: boolean,
  open: (handler: (message: MessageInfo) => Promise<void>) => Consumer,
): AsyncIterableIterator<MessageInfo> {
  interface Handed {
    message: MessageInfo;
    handled: () => void;
    dropped: (error: unknown) => void;
  }
  const arrived: Handed[] = [];
  let current: Handed | undefined;
  let waiting: ((handed: Handed | undefined) => void) | undefined;
  let finished = false;
  const consumer = open(
    (message) =>
      new Promise<void>((handled, dropped) => {
        const handed = { message, handled, dropped };
        if (waiting) {
          const w = waiting;
          waiting = undefined;
          w(handed);
        } else arrived.push(handed);
      }),
  );
  const ended = consumer.done.then(
    () => undefined,
    (error: unknown) => error,
  );
  // The end wakes the one next() waiting, once — not a race against `ended` per call, which would leave a
  // reaction on it for every message until the consumer ends (a long loop's memory growing without bound).
  let consumerEnded = false;
  ended.then(
    () => {
      consumerEnded = true;
      const w = waiting;
      waiting = undefined;
      w?.(undefined);
    },
    () => undefined,
  );
  const finish = async (): Promise<void> => {
    if (finished) return;
    finished = true;
    if (transactional)
      current?.dropped(
        new QkError('OPERATION_CANCELLED', 'The loop over the messages ended before this one was done.'),
      );
    else current?.handled();
    current = undefined;
    await consumer.close().catch(() => undefined);
  };
  const iterator: AsyncIterableIterator<MessageInfo> = {
    async next() {
      current?.handled();
      current = undefined;
      if (finished) return { done: true, value: undefined };
      const next =
        arrived.shift() ??
        (consumerEnded ? undefined : await new Promise<Handed | undefined>((resolve) => (waiting = resolve)));
      if (!next) {
        finished = true;
        const error = await ended;
        if (error !== undefined) throw error instanceof Error ? error : new QkError('INTERNAL', 'The consumer failed.');
        return { done: true, value: undefined };
      }
      current = next;
      return { done: false, value: next.message };
    },
    async return() {
      await finish();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
