/**
 * Section `network` (issue 10): recoverable throughput across computers, beside the single-computer figure.
 * Three services on loopback — ALPHA, BETA and the routing server RELAY — trusting each other. Each figure is
 * end to end: from the first send on ALPHA until the last message is stored in the destination queue (the
 * destination's queueShow), with many messages in flight (sendBatch, several batches at once), so it counts
 * the outgoing queue, the peer link (TLS, store-and-forward confirmations) and the destination's store.
 */
import type { QkClient } from '@qk/client';
import { batchItems } from './body.js';
import { tempFolder } from './cleanup.js';
import type { Counts } from './config.js';
import type { Results, Target } from './results.js';
import { startService, type BenchService } from './service.js';
import { inFlight, now, rate } from './stats.js';
import { processStats } from './workloads/measure.js';

const SECTION = 'network';
const BATCH = 500;
const LANES = 4;
/** The brief: the link may cost under a third of single-computer throughput. */
const LINK_RATIO_TARGET: Target = { op: '>=', value: 0.67, source: 'issue 10: the link costs under a third' };
/** The longest a run may wait for its messages to arrive (bounded). */
const ARRIVAL_CAP_MS = 300_000;

async function trust(from: QkClient, to: BenchService, name: string): Promise<void> {
  if (!to.peerAddress || !to.peerFingerprint) throw new Error(`${name} has no peer listener`);
  await from.peerAdd({ name, address: to.peerAddress, fingerprint: to.peerFingerprint });
}

/** CPU milliseconds the services used so far (0 where /proc cannot be read). */
function cpuMsOf(services: readonly BenchService[]): number[] {
  return services.map((s) => Math.round((processStats(s.pid)?.cpu_s ?? 0) * 1000));
}

/** Microseconds of CPU per message of each service over a phase, for the descriptions (less noisy than rates). */
function cpuPerMessage(before: readonly number[], after: readonly number[], names: readonly string[], n: number) {
  return names.map((name, i) => `${name} ${(((after[i]! - before[i]!) * 1000) / n).toFixed(1)}`).join(', ');
}

/** Sends `n` recoverable messages to `path` from `sender` and waits until `receiver` holds them all. */
async function endToEnd(sender: QkClient, path: string, receiver: QkClient, localPath: string, n: number) {
  const items = batchItems(path, 'recoverable', BATCH);
  const batches = Math.ceil(n / BATCH);
  const started = now();
  await inFlight(batches, LANES, (i) =>
    sender.sendBatch({ messages: i === batches - 1 && n % BATCH !== 0 ? items.slice(0, n % BATCH) : items }),
  );
  const sentMs = now() - started;
  for (;;) {
    const { messageCount } = await receiver.queueShow({ path: localPath });
    if (messageCount >= n) break;
    if (now() - started > ARRIVAL_CAP_MS)
      throw new Error(`only ${messageCount} of ${n} arrived in ${ARRIVAL_CAP_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { totalMs: now() - started, sentMs };
}

export async function runNetwork(root: string, results: Results, counts: Counts): Promise<void> {
  const listen = ['--peer-listen', '127.0.0.1:0'];
  const [alpha, beta, relay] = await Promise.all([
    startService(root, tempFolder('net-alpha'), 'ALPHA', listen),
    startService(root, tempFolder('net-beta'), 'BETA', listen),
    startService(root, tempFolder('net-relay'), 'RELAY', [...listen, '--routing']),
  ]);
  try {
    const [a, b, r] = await Promise.all([alpha.client(), beta.client(), relay.client()]);
    await trust(a, beta, 'BETA');
    await trust(b, alpha, 'ALPHA');
    await trust(a, relay, 'RELAY');
    await trust(r, alpha, 'ALPHA');
    await trust(r, beta, 'BETA');
    await trust(b, relay, 'RELAY');
    const n = counts.networkMessages;
    for (const q of ['local', 'direct', 'routed', 'warm']) await b.queueCreate({ path: `.\\private$\\${q}` });
    await a.queueCreate({ path: '.\\private$\\local' });

    // Warm-up: the link's session, TLS and both stores.
    await endToEnd(a, 'BETA\\private$\\warm', b, '.\\private$\\warm', Math.min(2_000, n));

    const services = [alpha, beta, relay];
    const names = ['ALPHA', 'BETA', 'RELAY'];
    let cpu = cpuMsOf(services);
    const cpuNote = (): string => {
      const after = cpuMsOf(services);
      const note = `; service CPU µs per message: ${cpuPerMessage(cpu, after, names, n)}`;
      cpu = after;
      return note;
    };
    const single = await endToEnd(a, '.\\private$\\local', a, '.\\private$\\local', n);
    const singleRate = rate(n, single.totalMs);
    const how = `${n.toLocaleString('en-US')} recoverable 200-byte messages, sendBatch of ${BATCH}, ${LANES} in flight`;
    results.add(
      SECTION,
      'single computer: recoverable, send until stored',
      singleRate,
      'msg/s',
      `${how}, to a queue on ALPHA${cpuNote()}`,
    );

    const direct = await endToEnd(a, 'BETA\\private$\\direct', b, '.\\private$\\direct', n);
    const directRate = rate(n, direct.totalMs);
    results.add(
      SECTION,
      'ALPHA → BETA: recoverable, sent until stored on BETA',
      directRate,
      'msg/s',
      `${how}, first send on ALPHA to the last message in BETA's queue (the link took the rest ${Math.round(direct.totalMs - direct.sentMs)} ms after the last send returned)${cpuNote()}`,
    );
    results.add(
      SECTION,
      'ALPHA → BETA throughput / single computer',
      Math.round((directRate / singleRate) * 100) / 100,
      'ratio',
      'the two figures above',
      LINK_RATIO_TARGET,
    );

    await a.routeSet({ destination: 'BETA', via: 'RELAY' });
    cpu = cpuMsOf(services);
    const routed = await endToEnd(a, 'BETA\\private$\\routed', b, '.\\private$\\routed', n);
    const routedRate = rate(n, routed.totalMs);
    results.add(
      SECTION,
      'ALPHA → RELAY → BETA: recoverable, through a routing server',
      routedRate,
      'msg/s',
      `${how}, route BETA via RELAY; first send on ALPHA to the last message in BETA's queue${cpuNote()}`,
    );
    results.add(
      SECTION,
      'through RELAY / single computer',
      Math.round((routedRate / singleRate) * 100) / 100,
      'ratio',
      'the figures above',
    );
  } finally {
    await Promise.all([alpha.stop(), beta.stop(), relay.stop()]);
  }
}
