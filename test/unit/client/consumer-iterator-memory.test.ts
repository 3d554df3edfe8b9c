/**
 * `messages()` loops for as long as its program runs: a next() that waits must leave nothing on the consumer's
 * end once its message came (it used to race a new promise against the pending end on every wait).
 */
import { expect, test } from 'vitest';
import type { MessageInfo } from '@qk/model';
import { heapAfterGc } from '../heap-after-gc.js';
import { consumerIterator } from '../../../core/client/src/consumer-helpers.js';

test('a loop over messages() holds no more after 20,000 waits than after 2,000', async () => {
  let deliver!: (message: MessageInfo) => Promise<void>;
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  const iterator = consumerIterator(false, (handler) => {
    deliver = handler;
    return { handled: 0, timedOut: false, done, close: async () => end() };
  });
  const message = { body: 'x' } as MessageInfo;
  const wait = async (): Promise<void> => {
    const next = iterator.next();
    // The message comes only once next() waits for it.
    await Promise.resolve();
    deliver(message).catch(() => undefined);
    expect((await next).done).toBe(false);
  };
  for (let i = 0; i < 2_000; i++) await wait();
  const before = heapAfterGc();
  for (let i = 0; i < 20_000; i++) await wait();
  const grown = heapAfterGc() - before;
  expect(grown).toBeLessThan(500_000);
  await iterator.return?.();
});
