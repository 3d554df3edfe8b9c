/**
 * The side-by-side cases (W1–W6): a publish phase and its drain, a producer and a consumer at once, and an
 * open loop at a fixed rate. Each case opens its own clients and deletes its queue at the end.
 */
import type { QkClient } from '@qk/client';
import type { DeliveryName } from '../body.js';
import { describeConsumer, startConsumer, BATCH, WINDOW, type ConsumeMode } from './consume.js';
import { hrNow, latencySummary, makeBody, micros, pause, processStats, type ProcessStats } from './measure.js';
import { publishBatches, publishNoWait, publishWindow, type PhaseLimits, type PublishResult } from './publish.js';

export interface CaseContext {
  limits: PhaseLimits;
  /** A new client on its own connection. */
  connect(): Promise<QkClient>;
  servicePid: number | null;
}

export type PublishMode = 'send-each' | 'send-window-100' | 'sendBatch-100' | 'send-no-wait';

export interface CaseSpec {
  label: string;
  workload: string;
  rabbit_label: string;
  queue: string;
  delivery: DeliveryName;
  publishMode: PublishMode;
  consumeMode: ConsumeMode;
  note?: string;
}

const queuePath = (name: string): string => `.\\private$\\${name}`;

async function freshQueue(client: QkClient, name: string): Promise<string> {
  const path = queuePath(name);
  try {
    await client.queueCreate({ path });
  } catch (error) {
    if ((error as { code?: string }).code !== 'QUEUE_EXISTS') throw error;
    await client.queuePurge({ path });
  }
  return path;
}

/** Consumes until `expected` messages arrived or `capMs` passed. */
async function drain(client: QkClient, path: string, expected: number, mode: ConsumeMode, capMs: number) {
  const e2e: number[] = [];
  const t0 = hrNow();
  if (expected === 0) return { msgs: 0, seconds: 0, msgs_per_s: 0, stopped_by: 'nothing-to-consume', e2e, timeouts: 0 };
  let done!: (why: string) => void;
  const stoppedBy = new Promise<string>((resolve) => (done = resolve));
  const consumer = startConsumer(
    client,
    path,
    mode,
    () => expected,
    (us) => {
      e2e.push(us);
      if (e2e.length >= expected) done('drained');
    },
  );
  const timer = setTimeout(() => done('time-cap'), capMs);
  const why = await stoppedBy;
  clearTimeout(timer);
  const seconds = micros(t0, hrNow()) / 1e6;
  consumer.stop();
  await Promise.race([consumer.finished, pause(5_000)]);
  const errors = Object.keys(consumer.errors).length > 0 ? { errors: { ...consumer.errors } } : {};
  return {
    msgs: e2e.length,
    seconds: +seconds.toFixed(3),
    msgs_per_s: Math.round(e2e.length / seconds),
    stopped_by: why,
    e2e,
    timeouts: consumer.timeouts,
    ...errors,
  };
}

function publish(client: QkClient, path: string, spec: CaseSpec, limits: PhaseLimits): Promise<PublishResult> {
  switch (spec.publishMode) {
    case 'send-each':
      return publishWindow(client, path, 1, spec.delivery, limits);
    case 'send-window-100':
      return publishWindow(client, path, 100, spec.delivery, limits);
    case 'sendBatch-100':
      return publishBatches(client, path, BATCH, spec.delivery, limits);
    case 'send-no-wait':
      return publishNoWait(client, path, spec.delivery, limits);
  }
}

/** A publish phase, then a drain of what it left (runCase of the RabbitMQ bench). */
export async function runCase(ctx: CaseContext, spec: CaseSpec) {
  const producer = await ctx.connect();
  const consumerClient = await ctx.connect();
  try {
    const path = await freshQueue(producer, spec.queue);
    const b0 = processStats(ctx.servicePid);
    const c0 = process.cpuUsage();
    const published = await publish(producer, path, spec, ctx.limits);
    const b1 = processStats(ctx.servicePid);
    const depth = (await producer.queueShow({ path })).messageCount;
    const consumed = await drain(consumerClient, path, published.msgs, spec.consumeMode, ctx.limits.maxSeconds * 3000);
    const b2 = processStats(ctx.servicePid);
    const c1 = process.cpuUsage(c0);
    await consumerClient.close();
    await producer.queueDelete({ path });
    const { e2e, timeouts, ...consume } = consumed;
    return {
      label: spec.label,
      workload: spec.workload,
      rabbit_label: spec.rabbit_label,
      mode: spec.publishMode,
      consume_mode: spec.consumeMode,
      persistent: spec.delivery === 'recoverable',
      delivery: spec.delivery,
      ...(spec.note ? { note: spec.note } : {}),
      publish: published,
      consume: {
        ...consume,
        queue_depth_before: depth,
        method: describeConsumer(spec.consumeMode),
        receive_timeouts: timeouts,
        e2e_latency: latencySummary(e2e),
      },
      broker: brokerStats([b0, b1, b2]),
      client_cpu_s: +((c1.user + c1.system) / 1e6).toFixed(2),
      client_rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    };
  } finally {
    await Promise.all([producer.close(), consumerClient.close()]);
  }
}

function brokerStats([b0, b1, b2]: (ProcessStats | null)[]) {
  if (!b0 || !b1 || !b2) return null;
  return {
    rss_mb_after_publish: b1.rss_mb,
    rss_mb_after_consume: b2.rss_mb,
    rss_peak_mb: b2.hwm_mb,
    cpu_s_publish: +(b1.cpu_s - b0.cpu_s).toFixed(2),
    cpu_s_consume: +(b2.cpu_s - b1.cpu_s).toFixed(2),
  };
}

/** A producer (100 sends in flight) and a consumer at the same time, on separate connections (W4). */
export async function concurrent(
  ctx: CaseContext,
  label: string,
  queue: string,
  mode: ConsumeMode,
  rabbitLabel: string,
) {
  const producer = await ctx.connect();
  const consumerClient = await ctx.connect();
  try {
    const path = await freshQueue(producer, queue);
    const b0 = processStats(ctx.servicePid);
    const e2e: number[] = [];
    let target = ctx.limits.maxMessages;
    let drained!: () => void;
    const allIn = new Promise<void>((resolve) => (drained = resolve));
    const consumer = startConsumer(
      consumerClient,
      path,
      mode,
      () => target,
      (us) => {
        e2e.push(us);
        if (e2e.length >= target) drained();
      },
    );
    const t0 = hrNow();
    const published = await publishWindow(producer, path, 100, 'recoverable', ctx.limits);
    target = published.msgs;
    if (e2e.length >= target) drained();
    let capTimer: NodeJS.Timeout | undefined;
    await Promise.race([allIn, new Promise((r) => (capTimer = setTimeout(r, ctx.limits.maxSeconds * 3000)))]);
    clearTimeout(capTimer);
    const seconds = micros(t0, hrNow()) / 1e6;
    consumer.stop();
    const b1 = processStats(ctx.servicePid);
    // A stream hands over what is on its way before it ends; the connection closes after that.
    await Promise.race([consumer.finished, pause(5_000)]);
    await consumerClient.close();
    await producer.queueDelete({ path });
    return {
      label,
      workload: 'W4',
      rabbit_label: rabbitLabel,
      consume_mode: mode,
      consumer: describeConsumer(mode),
      published,
      consumed: e2e.length,
      seconds: +seconds.toFixed(3),
      end_to_end_msgs_per_s: Math.round(e2e.length / seconds),
      e2e_latency: latencySummary(e2e),
      receive_timeouts: consumer.timeouts,
      broker: b0 && b1 ? { rss_mb_after: b1.rss_mb, cpu_s: +(b1.cpu_s - b0.cpu_s).toFixed(2) } : null,
    };
  } finally {
    await Promise.all([producer.close(), consumerClient.close()]);
  }
}

/** An open loop: recoverable sends on 1 ms ticks at `rate` a second, replies not awaited, and a consumer (W6). */
export async function fixedRate(
  ctx: CaseContext,
  label: string,
  queue: string,
  rate: number,
  mode: ConsumeMode,
  rabbitLabel: string,
) {
  const producer = await ctx.connect();
  const consumerClient = await ctx.connect();
  try {
    const path = await freshQueue(producer, queue);
    const b0 = processStats(ctx.servicePid);
    const total = Math.min(ctx.limits.maxMessages, Math.round(rate * ctx.limits.maxSeconds));
    const e2e: number[] = [];
    const confirmLatency: number[] = [];
    const lag: number[] = [];
    const consumer = startConsumer(
      consumerClient,
      path,
      mode,
      () => total,
      (us) => e2e.push(us),
    );
    const t0 = hrNow();
    let sent = 0;
    let confirmed = 0;
    let sendErrors = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsedMs = micros(t0, hrNow()) / 1000;
        const due = Math.min(total, Math.floor((elapsedMs / 1000) * rate) + 1);
        while (sent < due) {
          const scheduled = t0 + BigInt(Math.round((sent / rate) * 1e9));
          const body = makeBody(sent + 1, ctx.limits.bodyBytes, ctx.limits.filler);
          const sentAt = hrNow();
          lag.push(micros(scheduled, sentAt));
          sent++;
          producer.send({ path, message: { body, delivery: 'recoverable' } }).then(
            () => {
              confirmLatency.push(micros(sentAt, hrNow()));
              confirmed++;
            },
            () => sendErrors++,
          );
        }
        if (sent >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    const drainDeadline = hrNow() + BigInt(Math.round(ctx.limits.maxSeconds * 1e9));
    while ((e2e.length < sent || confirmed + sendErrors < sent) && hrNow() < drainDeadline) await pause(10);
    const seconds = micros(t0, hrNow()) / 1e6;
    consumer.stop();
    const b1 = processStats(ctx.servicePid);
    // A stream hands over what is on its way before it ends; the connection closes after that.
    await Promise.race([consumer.finished, pause(5_000)]);
    await consumerClient.close();
    await producer.queueDelete({ path });
    return {
      label,
      workload: 'W6',
      rabbit_label: rabbitLabel,
      consume_mode: mode,
      consumer: describeConsumer(mode),
      target_rate: rate,
      sent,
      confirmed,
      consumed: e2e.length,
      send_errors: sendErrors,
      seconds: +seconds.toFixed(3),
      confirm_latency: latencySummary(confirmLatency),
      e2e_latency: latencySummary(e2e),
      send_lag: latencySummary(lag),
      broker: b0 && b1 ? { rss_mb_after: b1.rss_mb, cpu_s: +(b1.cpu_s - b0.cpu_s).toFixed(2) } : null,
    };
  } finally {
    await Promise.all([producer.close(), consumerClient.close()]);
  }
}

/** Both processes warmed up on every path the cases use (not measured). */
export async function warmUp(ctx: CaseContext): Promise<void> {
  const client = await ctx.connect();
  try {
    const path = await freshQueue(client, 'bench-warm');
    for (const delivery of ['recoverable', 'express'] as const) {
      const items = Array.from({ length: 100 }, (_, j) => ({
        path,
        message: { body: makeBody(j, ctx.limits.bodyBytes, ctx.limits.filler), delivery },
      }));
      for (let i = 0; i < 20; i++) await client.sendBatch({ messages: items });
      await Promise.all(Array.from({ length: 2_000 }, (_, i) => client.send(items[i % 100]!)));
      for (let got = 0; got < 2_000;)
        got += (await client.receiveBatch({ path, max: BATCH, timeoutMs: 0 })).messages.length;
      for (let i = 0; i < 20; i++)
        await Promise.all(Array.from({ length: WINDOW }, () => client.receive({ path, timeoutMs: 0 })));
    }
    await client.queueDelete({ path });
  } finally {
    await client.close();
  }
}
