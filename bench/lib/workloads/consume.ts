/**
 * The consumers of the side-by-side workloads: single receives with a window in flight (an application with
 * a pool of readers), receiveBatch one call at a time, and the streaming receive. Each reports every message
 * to `onMessage` with the moment it arrived, until it has `target()` messages or is stopped.
 */
import type { QkClient } from '@qk/client';
import type { MessageInfo, MessageProperty } from '@qk/model';
import { hrNow, micros, sentAtOf } from './measure.js';

export type ConsumeMode = 'receive-100' | 'receiveBatch-100' | 'stream-100';

/** A receive that finds the queue empty waits this long for an arrival (then IO_TIMEOUT, and is issued again). */
export const RECEIVE_WAIT_MS = 1_000;
export const WINDOW = 100;
export const BATCH = 100;
/** The streaming receive's credit: the counterpart of prefetch 100. */
export const CREDIT = 100;
/**
 * What each consumer asks of a message: its body, which carries the send time (plus `id` and `lookupId`, which
 * come always) — what the RabbitMQ consumer reads of a delivery. An MSMQ application names the properties it
 * wants the same way (MQMSGPROPS); without the list, every message would carry all thirty, its body twice.
 */
const PROPERTIES: MessageProperty[] | undefined = process.env['QK_BENCH_PROPERTIES'] === 'all' ? undefined : ['body'];
/** The input field that asks for them; QK_BENCH_PROPERTIES=all measures the consumers given every property. */
const asking = PROPERTIES ? { properties: PROPERTIES } : {};

export interface Consumer {
  readonly got: number;
  readonly timeouts: number;
  readonly errors: Record<string, number>;
  /** Stops issuing calls; calls in flight end when the consumer's client closes. */
  stop(): void;
  /** Resolves when the consumer has stopped issuing calls. */
  readonly finished: Promise<void>;
}

export function describeConsumer(mode: ConsumeMode): string {
  const asked = PROPERTIES ? `; properties: ${PROPERTIES.join(', ')} (with id and lookupId)` : '; every property';
  if (mode === 'stream-100') return `streaming receive (QkClient.consume), credit ${CREDIT}${asked}`;
  return mode === 'receiveBatch-100'
    ? `receiveBatch max ${BATCH}, one call at a time, waiting up to ${RECEIVE_WAIT_MS} ms${asked}`
    : `single receive, ${WINDOW} in flight on one connection, each waiting up to ${RECEIVE_WAIT_MS} ms${asked}`;
}

/** Starts consuming `path`; `onMessage(e2eMicros)` is told of every message as it arrives. */
export function startConsumer(
  client: QkClient,
  path: string,
  mode: ConsumeMode,
  target: () => number,
  onMessage: (e2eMicros: number) => void,
): Consumer {
  if (mode === 'stream-100') return streamConsumer(client, path, onMessage);
  return mode === 'receiveBatch-100'
    ? batchConsumer(client, path, target, onMessage)
    : windowConsumer(client, path, target, onMessage);
}

function streamConsumer(client: QkClient, path: string, onMessage: (e2eMicros: number) => void): Consumer {
  const state = { got: 0, errors: {} as Record<string, number> };
  const consumer = client.consume(path, { credit: CREDIT, ...asking }, (message) => {
    onMessage(micros(sentAtOf(message.body), hrNow()));
    state.got++;
  });
  const finished = consumer.done.catch((error: unknown) => {
    const code = codeOf(error);
    state.errors[code] = (state.errors[code] ?? 0) + 1;
  });
  return {
    get got() {
      return state.got;
    },
    timeouts: 0,
    errors: state.errors,
    // Why it stopped, if not by close(), is in `errors` (done's rejection is caught above).
    stop: () => void consumer.close().catch(() => undefined),
    finished,
  };
}

const codeOf = (error: unknown): string => (error as { code?: string }).code ?? 'ERROR';

function windowConsumer(
  client: QkClient,
  path: string,
  target: () => number,
  onMessage: (e2eMicros: number) => void,
): Consumer {
  const state = { got: 0, timeouts: 0, errors: {} as Record<string, number> };
  let outstanding = 0;
  let stopped = false;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const stop = (): void => {
    stopped = true;
    finish();
  };
  const onReply = (message: MessageInfo | null, error: unknown): void => {
    outstanding--;
    if (stopped) return;
    if (message) {
      onMessage(micros(sentAtOf(message.body), hrNow()));
      state.got++;
    } else {
      const code = codeOf(error);
      if (code === 'IO_TIMEOUT') state.timeouts++;
      else state.errors[code] = (state.errors[code] ?? 0) + 1;
      if (code === 'SERVICE_NOT_AVAILABLE') return stop();
    }
    pump();
  };
  const pump = (): void => {
    while (!stopped && outstanding < WINDOW && state.got + outstanding < target()) {
      outstanding++;
      client.receive({ path, timeoutMs: RECEIVE_WAIT_MS, ...asking }).then(
        (m) => onReply(m, null),
        (e: unknown) => onReply(null, e),
      );
    }
  };
  pump();
  return {
    get got() {
      return state.got;
    },
    get timeouts() {
      return state.timeouts;
    },
    errors: state.errors,
    stop,
    finished,
  };
}

function batchConsumer(
  client: QkClient,
  path: string,
  target: () => number,
  onMessage: (e2eMicros: number) => void,
): Consumer {
  let stopped = false;
  const state = { got: 0, timeouts: 0, errors: {} as Record<string, number> };
  const finished = (async () => {
    while (!stopped && state.got < target()) {
      try {
        const { messages } = await client.receiveBatch({
          path,
          max: Math.min(BATCH, target() - state.got),
          timeoutMs: RECEIVE_WAIT_MS,
          ...asking,
        });
        const at = hrNow();
        for (const m of messages) onMessage(micros(sentAtOf(m.body), at));
        state.got += messages.length;
      } catch (error) {
        const code = codeOf(error);
        if (code === 'IO_TIMEOUT') {
          state.timeouts++;
          continue;
        }
        state.errors[code] = (state.errors[code] ?? 0) + 1;
        return;
      }
    }
  })();
  return {
    get got() {
      return state.got;
    },
    get timeouts() {
      return state.timeouts;
    },
    errors: state.errors,
    stop: () => {
      stopped = true;
    },
    finished,
  };
}
