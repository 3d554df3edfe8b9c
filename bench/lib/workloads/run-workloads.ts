/**
 * Section `workloads`: the W1–W6 workloads of the side-by-side comparison with RabbitMQ, through the
 * project's own client. Writes a JSON document in the shape bench/side-by-side/summarize.mjs reads beside
 * the RabbitMQ bench's (each case names its RabbitMQ counterpart in `rabbit_label`), and adds the headline
 * figures to results.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { QkClient, readServiceEndpoint } from '@qk/client';
import { tempFolder } from '../cleanup.js';
import type { Results } from '../results.js';
import { sourceInfo } from '../machine.js';
import { startService } from '../service.js';
import { concurrent, fixedRate, runCase, warmUp, type CaseContext, type CaseSpec } from './cases.js';
import { processStats } from './measure.js';

const SECTION = 'workloads';

export interface WorkloadOptions {
  maxMessages: number;
  maxSeconds: number;
  bodyBytes: number;
  /** Data folder of a running service to use instead of starting one (its service.json and token). */
  attach: string | null;
  /** Where the JSON goes. */
  out: string;
  /** Labels to run (all when empty). */
  only: ReadonlySet<string>;
  warmUp: boolean | null;
}

const R = 'recoverable';
const E = 'express';

/** The cases of W1, W2, W3 and W5, in the order of the RabbitMQ bench. */
const CASES: CaseSpec[] = [
  {
    label: 'recoverable-send-each',
    workload: 'W1',
    rabbit_label: 'classic-durable-persistent-confirm-each',
    queue: 'bench-r1',
    delivery: R,
    publishMode: 'send-each',
    consumeMode: 'receive-100',
  },
  {
    label: 'recoverable-send-window-100',
    workload: 'W2',
    rabbit_label: 'classic-durable-persistent-confirm-window-100',
    queue: 'bench-r100',
    delivery: R,
    publishMode: 'send-window-100',
    consumeMode: 'receive-100',
  },
  {
    label: 'recoverable-sendBatch-100',
    workload: 'W2',
    rabbit_label: 'classic-durable-persistent-confirm-window-100',
    queue: 'bench-rb100',
    delivery: R,
    publishMode: 'sendBatch-100',
    consumeMode: 'receiveBatch-100',
    note: 'publish: sendBatch of 100, one call at a time (confirm latency is per batch); drain: receiveBatch max 100, one call at a time',
  },
  {
    label: 'recoverable-stream-drain',
    workload: 'W3',
    rabbit_label: 'classic-durable-persistent-confirm-window-100',
    queue: 'bench-rs',
    delivery: R,
    publishMode: 'sendBatch-100',
    consumeMode: 'stream-100',
    note: 'fill: sendBatch of 100 (not a W2 figure); drain: streaming receive, credit 100',
  },
  {
    label: 'express-send-each',
    workload: 'W5',
    rabbit_label: 'classic-transient-nonpersistent-confirm-each',
    queue: 'bench-e1',
    delivery: E,
    publishMode: 'send-each',
    consumeMode: 'receive-100',
  },
  {
    label: 'express-send-window-100',
    workload: 'W5',
    rabbit_label: 'classic-transient-nonpersistent-confirm-window-100',
    queue: 'bench-e100',
    delivery: E,
    publishMode: 'send-window-100',
    consumeMode: 'receive-100',
  },
  {
    label: 'express-send-no-wait',
    workload: 'W5',
    rabbit_label: 'classic-transient-nonpersistent-no-confirm',
    queue: 'bench-enw',
    delivery: E,
    publishMode: 'send-no-wait',
    consumeMode: 'receive-100',
    note: 'Queuekeeper answers every send; here the answers are not awaited',
  },
  {
    label: 'express-stream-drain',
    workload: 'W5',
    rabbit_label: 'classic-transient-nonpersistent-no-confirm',
    queue: 'bench-es',
    delivery: E,
    publishMode: 'sendBatch-100',
    consumeMode: 'stream-100',
    note: 'fill: sendBatch of 100; drain: streaming receive, credit 100',
  },
];

interface Attached {
  url: string;
  token: string;
  pid: number | null;
  startMs: number | null;
  stop(): Promise<void>;
}

async function serviceFor(root: string, options: WorkloadOptions): Promise<Attached> {
  if (options.attach) {
    const endpoint = readServiceEndpoint(options.attach);
    return { url: endpoint.url, token: endpoint.token, pid: endpoint.service.pid, startMs: null, stop: async () => {} };
  }
  const svc = await startService(root, tempFolder('workloads'));
  return { url: svc.url, token: svc.token, pid: svc.pid, startMs: svc.startMs, stop: () => svc.stop() };
}

export async function runWorkloads(root: string, results: Results, options: WorkloadOptions): Promise<void> {
  const loadAtStart = loadavg().map((x) => +x.toFixed(2));
  const svc = await serviceFor(root, options);
  const clients = new Set<QkClient>();
  const ctx: CaseContext = {
    limits: {
      maxMessages: options.maxMessages,
      maxSeconds: options.maxSeconds,
      bodyBytes: options.bodyBytes,
      filler: 'c'.repeat(options.bodyBytes),
    },
    servicePid: svc.pid,
    async connect() {
      const client = await QkClient.connect({ url: svc.url, token: svc.token, transport: 'ws' });
      clients.add(client);
      return client;
    },
  };
  const wanted = (label: string): boolean => options.only.size === 0 || options.only.has(label);
  try {
    const warm = options.warmUp ?? !options.attach;
    if (warm) await warmUp(ctx);
    const idle = processStats(svc.pid);
    const cases = [];
    for (const spec of CASES) if (wanted(spec.label)) cases.push(await runCase(ctx, spec));
    const conc = [];
    const CC = 'concurrent-classic-durable-persistent-w100-p100';
    for (const [label, mode] of [
      ['concurrent-recoverable-w100-receive100', 'receive-100'],
      ['concurrent-recoverable-w100-receiveBatch100', 'receiveBatch-100'],
      ['concurrent-recoverable-w100-stream100', 'stream-100'],
    ] as const)
      if (wanted(label)) conc.push(await concurrent(ctx, label, 'bench-cc', mode, CC));
    const rate = [];
    for (const r of [1_000, 5_000]) {
      for (const [suffix, mode] of [
        ['receive100', 'receive-100'],
        ['receiveBatch100', 'receiveBatch-100'],
        ['stream100', 'stream-100'],
      ] as const) {
        const label = `fixed-rate-${r}-recoverable-${suffix}`;
        if (wanted(label))
          rate.push(await fixedRate(ctx, label, 'bench-fr', r, mode, `fixed-rate-${r}-classic-durable-persistent`));
      }
    }
    const end = processStats(svc.pid);
    const source = sourceInfo(root);
    const doc = {
      bench: 'queuekeeper-ws',
      client: '@qk/client QkClient over WebSocket (the project bench, bench/lib/workloads)',
      ws: wsVersion(root),
      loadavg_at_start: loadAtStart,
      loadavg_at_end: loadavg().map((x) => +x.toFixed(2)),
      body_bytes: options.bodyBytes,
      max_msgs_per_phase: options.maxMessages,
      max_seconds_per_phase: options.maxSeconds,
      node: process.version,
      nproc: cpus().length,
      date: new Date().toISOString(),
      qk_commit: source.commit,
      qk_core_dirty: source.coreDirty,
      service: {
        pid: svc.pid,
        attached: options.attach !== null,
        start_ms: svc.startMs,
        warmed_up: warm,
        rss_mb_idle_before_cases: idle?.rss_mb ?? null,
        rss_mb_at_end: end?.rss_mb ?? null,
        rss_peak_mb: end?.hwm_mb ?? null,
      },
      ...(options.only.size > 0 ? { only: [...options.only] } : {}),
      results: cases,
      concurrent: conc,
      fixed_rate: rate,
    };
    const out = options.out;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`  wrote ${out}`);
    addFigures(results, doc);
  } finally {
    await Promise.all([...clients].map((c) => c.close().catch(() => undefined)));
    await svc.stop();
  }
}

function addFigures(
  results: Results,
  doc: {
    results: Awaited<ReturnType<typeof runCase>>[];
    concurrent: Awaited<ReturnType<typeof concurrent>>[];
    fixed_rate: Awaited<ReturnType<typeof fixedRate>>[];
  },
): void {
  for (const c of doc.results) {
    results.add(SECTION, `${c.workload} ${c.label}: publish`, c.publish.msgs_per_s, 'msg/s', c.mode);
    results.add(SECTION, `${c.workload} ${c.label}: drain`, c.consume.msgs_per_s, 'msg/s', c.consume.method);
  }
  for (const c of doc.concurrent) {
    results.add(SECTION, `W4 ${c.label}: end-to-end`, c.end_to_end_msgs_per_s, 'msg/s', c.consumer);
    results.add(SECTION, `W4 ${c.label}: e2e p99`, c.e2e_latency.p99_us / 1000, 'ms', c.consumer);
  }
  for (const c of doc.fixed_rate) {
    const how = `${c.consumer}; ${c.consumed} of ${c.sent} consumed`;
    results.add(SECTION, `W6 ${c.label}: e2e p99`, c.e2e_latency.p99_us / 1000, 'ms', how);
  }
}

function wsVersion(root: string): string | null {
  try {
    return (createRequire(join(root, 'package.json'))('ws/package.json') as { version: string }).version;
  } catch {
    return null;
  }
}
