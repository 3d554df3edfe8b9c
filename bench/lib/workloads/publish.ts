/**
 * The publish phases of the side-by-side workloads, through the project's client: each stops at the phase's
 * message or time limit, whichever comes first.
 */
import type { QkClient } from '@qk/client';
import type { DeliveryName } from '../body.js';
import { hrNow, latencySummary, makeBody, micros, pause, type LatencySummary } from './measure.js';

export interface PhaseLimits {
  maxMessages: number;
  maxSeconds: number;
  bodyBytes: number;
  filler: string;
}

export interface PublishResult {
  msgs: number;
  seconds: number;
  msgs_per_s: number;
  confirm_latency?: LatencySummary;
  batch_latency?: LatencySummary;
  batch_size?: number;
  socket_handoff_msgs_per_s?: number;
  depth_seen?: number;
  send_errors?: number;
  note?: string;
}

const deadlineAfter = (seconds: number): bigint => hrNow() + BigInt(Math.round(seconds * 1e9));

export function sendOne(client: QkClient, path: string, index: number, delivery: DeliveryName, limits: PhaseLimits) {
  return client.send({ path, message: { body: makeBody(index, limits.bodyBytes, limits.filler), delivery } });
}

/** Single sends keeping at most `window` unanswered; window 1 waits for each reply before the next send. */
export function publishWindow(
  client: QkClient,
  path: string,
  window: number,
  delivery: DeliveryName,
  limits: PhaseLimits,
): Promise<PublishResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const t0 = hrNow();
    const deadline = deadlineAfter(limits.maxSeconds);
    let sent = 0;
    let confirmed = 0;
    let inFlight = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      const seconds = micros(t0, hrNow()) / 1e6;
      resolve({
        msgs: confirmed,
        seconds: +seconds.toFixed(3),
        msgs_per_s: Math.round(confirmed / seconds),
        confirm_latency: latencySummary(latencies),
      });
    };
    const pump = (): void => {
      while (!done && inFlight < window && sent < limits.maxMessages && hrNow() < deadline) {
        const t = hrNow();
        inFlight++;
        sent++;
        sendOne(client, path, sent, delivery, limits).then(
          () => {
            if (done) return;
            latencies.push(micros(t, hrNow()));
            inFlight--;
            confirmed++;
            if (confirmed === sent && (sent >= limits.maxMessages || hrNow() >= deadline)) finish();
            else pump();
          },
          (error: unknown) => {
            if (done) return;
            done = true;
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }
      if (inFlight === 0 && confirmed === sent) finish();
    };
    pump();
  });
}

/** sendBatch of `size` messages, one call at a time; the latency is per batch. */
export async function publishBatches(
  client: QkClient,
  path: string,
  size: number,
  delivery: DeliveryName,
  limits: PhaseLimits,
): Promise<PublishResult> {
  const latencies: number[] = [];
  const t0 = hrNow();
  const deadline = deadlineAfter(limits.maxSeconds);
  let confirmed = 0;
  while (confirmed < limits.maxMessages && hrNow() < deadline) {
    const n = Math.min(size, limits.maxMessages - confirmed);
    const messages = Array.from({ length: n }, (_, i) => ({
      path,
      message: { body: makeBody(confirmed + i + 1, limits.bodyBytes, limits.filler), delivery },
    }));
    const t = hrNow();
    await client.sendBatch({ messages });
    latencies.push(micros(t, hrNow()));
    confirmed += n;
  }
  const seconds = micros(t0, hrNow()) / 1e6;
  return {
    msgs: confirmed,
    seconds: +seconds.toFixed(3),
    msgs_per_s: Math.round(confirmed / seconds),
    batch_latency: latencySummary(latencies),
    batch_size: size,
  };
}

/**
 * Sends whose replies are not awaited (the service still answers each; the client reads and drops them). Like
 * the RabbitMQ bench's publish without confirms, a message counts once the queue's depth shows it.
 * `handOff` lets at most that many calls be unanswered, so the client's own memory stays bounded.
 */
export async function publishNoWait(
  client: QkClient,
  path: string,
  delivery: DeliveryName,
  limits: PhaseLimits,
  handOff = 2_000,
): Promise<PublishResult> {
  const t0 = hrNow();
  const deadline = deadlineAfter(limits.maxSeconds);
  let sent = 0;
  let replies = 0;
  let errors = 0;
  let wake: (() => void) | null = null;
  const onReply = (failed: boolean): void => {
    replies++;
    if (failed) errors++;
    if (wake && sent - replies < handOff / 2) {
      const w = wake;
      wake = null;
      w();
    }
  };
  while (sent < limits.maxMessages && hrNow() < deadline) {
    sent++;
    sendOne(client, path, sent, delivery, limits).then(
      () => onReply(false),
      () => onReply(true),
    );
    if (sent - replies >= handOff) await new Promise<void>((resolve) => (wake = resolve));
  }
  const handoffSeconds = micros(t0, hrNow()) / 1e6;
  const pollDeadline = deadlineAfter(limits.maxSeconds);
  let depth = 0;
  while (hrNow() < pollDeadline) {
    depth = (await client.queueShow({ path })).messageCount;
    if (depth >= sent) break;
    await pause(5);
  }
  const seconds = micros(t0, hrNow()) / 1e6;
  // The last answers come in outside the timing.
  while (replies < sent && hrNow() < pollDeadline) await pause(5);
  return {
    msgs: sent,
    seconds: +seconds.toFixed(3),
    msgs_per_s: Math.round(sent / seconds),
    socket_handoff_msgs_per_s: Math.round(sent / handoffSeconds),
    depth_seen: depth,
    send_errors: errors,
    note: `msgs_per_s = sent / time until queue depth reached sent (5 ms polling); replies were not awaited (at most ${handOff.toLocaleString('en-US')} unanswered)`,
  };
}
