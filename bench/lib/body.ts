/** The message every throughput figure uses: a 200-byte text body. */
import type { SendProperties } from '@qk/model';

export const BODY_BYTES = 200;
export const BODY = 'Q'.repeat(BODY_BYTES - 20) + '0123456789abcdefghij';

export type DeliveryName = 'express' | 'recoverable';

export function message(delivery: DeliveryName, extra: Partial<SendProperties> = {}): SendProperties {
  return { body: BODY, label: 'bench', delivery, ...extra };
}

/** `count` items of a sendBatch to `path`. */
export function batchItems(
  path: string,
  delivery: DeliveryName,
  count: number,
  extra: Partial<SendProperties> = {},
): { path: string; message: SendProperties }[] {
  const m = message(delivery, extra);
  return Array.from({ length: count }, () => ({ path, message: m }));
}
