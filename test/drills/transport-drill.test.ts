/**
 * Transport drill (issue 7, "A message leaves the store only when its reply can reach the caller"): clients
 * that cancel receives (cancel frames, the client library's AbortSignal, an HTTP request given up), vanish
 * mid-call, stop reading, ask for batches of large bodies, and leave thousands of calls unread. Every confirmed
 * message must be received once or still be in its queue; the service stays alive, serves other clients, and
 * its memory stays bounded (peak RSS reported).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { QkClient } from '@qk/client';
import { Accounting, labelsOf, type Tally } from './support/accounting.js';
import { count, reportFigures } from './support/figures.js';
import { Random } from './support/random.js';
import { RawSocket } from './support/raw-socket.js';
import { DrillService } from './support/service-process.js';
import { sized } from './support/size.js';

const CANCELS = sized(90, 2_000);
const VANISHING = sized(30, 400);
const SLOW_MESSAGES = sized(120, 600);
const SLOW_BODY = sized(64_000, 256_000);
const LARGE_BATCH_MESSAGES = sized(8, 40);
const LARGE_BODY = 3_000_000;
const UNREAD_CALLS = sized(2_000, 10_000);
const UNREAD_BODY = 150_000;
/**
 * Memory bounds, and why they are these figures. What the service may keep for a connection is fixed by core/rpc:
 * 256 calls in flight, and replies waiting for a reader are bounded by the 16 MB high-water mark (a peek of this
 * drill's 150 KB message is ~200 KB of JSON, so at most ~50 MB of replies are kept). Resident memory shows more:
 * the replies built, sent or refused and not yet collected — V8 collects when its CPU time comes, and on a
 * loaded 2-core machine its heap (limit ~4 GB here) grows meanwhile. Measured for the 10,000-call flood:
 * +249 to +390 MB (2,000 calls: +173 MB); over the whole drill, whose 3 MB bodies are built as text and base64,
 * peaks of 683, 820 and 1,029 MB. The bounds sit above that garbage and far below a leak: a service that kept
 * every unread reply would grow by 10,000 × ~200 KB ≈ 2 GB, four times the flood bound, and the peak bound is
 * 1.5 × the highest peak measured. Neither can be tightened to what is kept without forcing collections, which
 * the service does not expose. So the drill's service also runs with a V8 heap limit (HEAP_LIMIT_MB): garbage must
 * then be collected before the heap passes it, while a service that kept the unread replies (2,000 × ~200 KB in
 * the short form, 10,000 in the full one) would run out of heap and die — which the drill counts. Without the
 * limit, the short form's garbage under load once reached the flood bound (+513 MB, a run beside other suites).
 */
const HEAP_LIMIT_MB = 384;
const FLOOD_GROWTH_BOUND_KB = 512 * 1024;
const PEAK_BOUND_KB = 1536 * 1024;

/** How long another client may wait for an answer while one connection misbehaves (a loaded 2-core machine). */
const OTHER_CLIENT_TIMEOUT_MS = 30_000;

const service = new DrillService({ nodeArgs: [`--max-old-space-size=${HEAP_LIMIT_MB}`] });
const random = Random.fromEnv();
const started = Date.now();
const rows: Record<string, string> = {};
const tallies: Tally[] = [];
let baselineKB = 0;
let peakKB = 0;
let floodGrowthKB = 0;
let sampler: NodeJS.Timeout | undefined;
let exitedOnItsOwn = false;

beforeAll(async () => {
  await service.start();
  service.waitForExit().then(
    () => (exitedOnItsOwn = true),
    // waitForExit resolves with the exit code and never rejects; were it to, count it as an exit.
    () => (exitedOnItsOwn = true),
  );
  baselineKB = service.rss().currentKB;
  sampler = setInterval(() => {
    if (service.running) peakKB = Math.max(peakKB, service.rss().currentKB);
  }, 100);
});

afterAll(async () => {
  clearInterval(sampler);
  const lost = tallies.reduce((n, t) => n + t.lost.length, 0);
  const duplicated = tallies.reduce((n, t) => n + t.duplicated.length, 0);
  if (tallies.length > 0) {
    reportFigures({
      drill: 'transport',
      title: 'Transport drill',
      tried:
        'receives cancelled (frame, AbortSignal, HTTP), connections vanishing mid-call, a reader that stops reading, batches of 3 MB bodies, thousands of calls left unread',
      often: `${count(CANCELS)} cancels, ${count(VANISHING)} vanishing connections, ${count(SLOW_MESSAGES)} replies to a stalled reader, ${count(UNREAD_CALLS)} unread calls`,
      lost,
      crashed: exitedOnItsOwn ? 1 : 0,
      holds:
        lost === 0 &&
        duplicated === 0 &&
        !exitedOnItsOwn &&
        peakKB <= PEAK_BOUND_KB &&
        floodGrowthKB <= FLOOD_GROWTH_BOUND_KB,
      seed: random.seed,
      durationMs: Date.now() - started,
      figures: {
        ...rows,
        duplicated: duplicated,
        'RSS resting / peak': `${Math.round(baselineKB / 1024)} MB / ${Math.round(peakKB / 1024)} MB (bound ${PEAK_BOUND_KB / 1024} MB)`,
      },
    });
  }
  await service.dispose();
});

function describeTally(t: Tally): string {
  return `sent ${t.sent}, received ${t.received}, still queued ${t.remaining}, lost ${t.lost.length}, duplicated ${t.duplicated.length}${t.takenInDoubt ? `, taken by calls without reply ${t.takenInDoubt}` : ''}`;
}

async function settle(name: string, accounting: Accounting, extra = ''): Promise<Tally> {
  const tally = await accounting.settle(service.api());
  tallies.push(tally);
  rows[name] = `${describeTally(tally)}${extra}`;
  return tally;
}

function expectNothingLost(tally: Tally): void {
  expect({ lost: tally.lost.slice(0, 10), duplicated: tally.duplicated.slice(0, 10) }).toEqual({
    lost: [],
    duplicated: [],
  });
}

describe('transport drill', () => {
  test('a cancelled receive takes nothing: cancel frames, the client library’s AbortSignal, HTTP requests given up', async () => {
    const api = service.api();
    const accounting = new Accounting('.\\private$\\tr-cancel', 'cancel');
    await api.value('queueCreate', { path: accounting.path });
    const socket = await RawSocket.open(service.url, service.token);
    const client = await QkClient.connect({ url: service.url, token: service.token, transport: 'ws' });
    const outcomes: Record<string, number> = {};
    const tallyOutcome = (key: string): void => void (outcomes[key] = (outcomes[key] ?? 0) + 1);
    const frameIds = new Set<number>();
    const modeOf = new Map<string, string>();
    const drain = async (): Promise<void> => {
      for (;;) {
        const outcome = await api.call('receive', { path: accounting.path, timeoutMs: 0 });
        if (outcome.kind !== 'ok') return;
        accounting.took(labelsOf(outcome.value));
      }
    };
    try {
      for (let i = 0; i < CANCELS; i++) {
        const how = random.pick(['frame', 'signal', 'http'] as const);
        // Waiting: the queue is empty while the receive waits and the message comes after the cancel, so a
        // receive that outlives its cancel takes it for nobody. Racing: a message is there already and the
        // reply may beat the cancel (then the caller must get it). An HTTP request given up cannot read a
        // reply already on its way, so HTTP is only tried waiting.
        const racing = how !== 'http' && random.chance(0.5);
        if (racing) await accounting.fill(api, 1, 200);
        else await drain();
        const delayMs = random.int(0, 15);
        const input = { path: accounting.path, timeoutMs: 2_000 };
        if (how === 'frame') {
          const id = socket.send('receive', input);
          frameIds.add(id);
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          socket.cancel(id);
          const frame = await socket.result(id, 10_000);
          tallyOutcome(`frame: ${frame === null ? 'no result' : frame.ok ? 'ok' : frame.error?.code}`);
        } else if (how === 'signal') {
          const controller = new AbortController();
          const call = client.call('receive', input, { signal: controller.signal });
          setTimeout(() => controller.abort(), delayMs);
          try {
            accounting.took(labelsOf(await call));
            tallyOutcome('signal: ok');
          } catch (error) {
            tallyOutcome(`signal: ${(error as { code?: string }).code ?? (error as Error).name}`);
          }
        } else {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), delayMs);
          const outcome = await api.call('receive', input, { signal: controller.signal });
          if (outcome.kind === 'ok') accounting.took(labelsOf(outcome.value));
          tallyOutcome(`http: ${outcome.kind === 'refused' ? outcome.code : outcome.kind}`);
          // The service learns of a request given up when the connection's close reaches it; a message sent
          // before that would meet a receive nobody can tell is abandoned (no transport can win that race). A
          // round trip after the close was sent, then a pause, lets a loaded service see it first (a bare 200 ms
          // pause lost that race once in 686 on a machine at load 15).
          await api.call('serviceStatus', {});
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        if (!racing) await accounting.fill(api, 1, 200);
        modeOf.set(`cancel-${i + 1}`, `${how} ${racing ? 'racing' : 'waiting'} ${delayMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Every ok result a cancelled call got, even one that came after an earlier answer to the same id.
      for (const frame of socket.allResults)
        if (frame.ok && frameIds.has(frame.id)) accounting.took(labelsOf(frame.value));
    } finally {
      await socket.close();
      await client.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const summary = Object.entries(outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const tally = await settle('cancelled receives', accounting, `; ${summary}`);
    expect(tally.lost.map((tag) => `${tag}: ${modeOf.get(tag) ?? '?'}`).slice(0, 10)).toEqual([]);
    expectNothingLost(tally);
  });

  test('a connection that vanishes takes nothing it had not been sent: waiting receives die with it', async () => {
    const api = service.api();
    const waiting = new Accounting('.\\private$\\tr-vanish', 'vanish');
    const busy = new Accounting('.\\private$\\tr-vanish-busy', 'busy');
    await api.value('queueCreate', { path: waiting.path });
    await api.value('queueCreate', { path: busy.path });
    await busy.fill(api, VANISHING * 3, 2_000);
    for (let i = 0; i < VANISHING; i++) {
      const socket = await RawSocket.open(service.url, service.token);
      const calls = random.int(1, 5);
      for (let k = 0; k < calls; k++) socket.send('receive', { path: waiting.path, timeoutMs: 30_000 });
      // Calls on a queue with messages: their replies may be on the wire when the client vanishes.
      const busyCalls = random.int(0, 2);
      for (let k = 0; k < busyCalls; k++) socket.send('receive', { path: busy.path, timeoutMs: 0 });
      busy.callsWithoutReply(busyCalls);
      await new Promise((resolve) => setTimeout(resolve, random.int(0, 30)));
      socket.vanish();
    }
    // The service has seen every close by now; a message sent to the queue those receives waited on is nobody's.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await waiting.fill(api, VANISHING, 500);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const tally = await settle('receives waiting on vanished connections', waiting);
    expect(tally.remaining, 'messages taken by receives whose connection was gone').toBe(tally.sent);
    expectNothingLost(tally);
    expectNothingLost(await settle('receives on vanishing connections (at most once each)', busy));
  });

  test('a reader that stops reading: nothing it did not get is gone, and other clients are still served', async () => {
    const api = service.api();
    const accounting = new Accounting('.\\private$\\tr-slow', 'slow');
    await api.value('queueCreate', { path: accounting.path });
    await accounting.fill(api, SLOW_MESSAGES, SLOW_BODY);
    const socket = await RawSocket.open(service.url, service.token);
    socket.stopReading();
    const ids = Array.from({ length: SLOW_MESSAGES }, () =>
      socket.send('receive', { path: accounting.path, timeoutMs: 0 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const asked = Date.now();
    const others = await api.call('serviceStatus', {}, { timeoutMs: OTHER_CLIENT_TIMEOUT_MS });
    const othersMs = Date.now() - asked;
    socket.resumeReading();
    const frames = await Promise.all(ids.map((id) => socket.result(id, 60_000)));
    const codes: Record<string, number> = {};
    for (const frame of frames) {
      const key = frame === null ? 'no result' : frame.ok ? 'ok' : (frame.error?.code ?? '?');
      codes[key] = (codes[key] ?? 0) + 1;
      if (frame?.ok) accounting.took(labelsOf(frame.value));
    }
    const closedByService = socket.closed;
    await socket.close();
    const summary = `; results ${JSON.stringify(codes)}${closedByService ? ', connection closed by the service' : ''}; another client served meanwhile: ${others.kind} in ${othersMs} ms`;
    const tally = await settle('a reader that stops reading', accounting, summary);
    expect(others.kind, 'a stalled reader must not stall the service').toBe('ok');
    expectNothingLost(tally);
  });

  test('batches of large bodies: each reply stops at a byte cap with at least one message, the rest stay', async () => {
    const api = service.api();
    const accounting = new Accounting('.\\private$\\tr-large', 'large');
    await api.value('queueCreate', { path: accounting.path });
    await accounting.fill(api, LARGE_BATCH_MESSAGES, LARGE_BODY);
    const socket = await RawSocket.open(service.url, service.token);
    const sizes: number[] = [];
    const refusals: string[] = [];
    try {
      for (let round = 0; round < LARGE_BATCH_MESSAGES * 2; round++) {
        const overHttp = round % 2 === 0;
        const input = { path: accounting.path, max: 1_000, timeoutMs: 0 };
        let value: unknown = null;
        if (overHttp) {
          const outcome = await api.call('receiveBatch', input);
          if (outcome.kind === 'ok') value = outcome.value;
          else refusals.push(outcome.kind === 'refused' ? outcome.code : outcome.kind);
        } else {
          const frame = await socket.call('receiveBatch', input, 60_000);
          if (frame?.ok) value = frame.value;
          else refusals.push(frame?.error?.code ?? 'no result');
        }
        const labels = labelsOf(value);
        if (value !== null) sizes.push(labels.length);
        accounting.took(labels);
        if (refusals.at(-1) === 'IO_TIMEOUT') break;
      }
    } finally {
      await socket.close();
    }
    const tally = await settle(
      'batches of 3 MB bodies (max 1,000 asked)',
      accounting,
      `; messages per reply ${sizes.join(' ')}; refusals ${refusals.join(' ') || 'none'}`,
    );
    expect(
      sizes.every((n) => n >= 1),
      'a batch reply carries at least one message',
    ).toBe(true);
    expect(Math.max(...sizes), 'a reply stops at a byte cap').toBeLessThan(LARGE_BATCH_MESSAGES);
    expectNothingLost(tally);
  });

  test('thousands of calls left unread: refused past a limit, the service alive and bounded in memory', async () => {
    const api = service.api();
    const path = '.\\private$\\tr-unread';
    await api.value('queueCreate', { path });
    await api.value('send', {
      path,
      message: { label: 'big', body: 'u'.repeat(UNREAD_BODY), delivery: 'recoverable' },
    });
    const socket = await RawSocket.open(service.url, service.token);
    const beforeKB = service.rss().currentKB;
    peakKB = Math.max(peakKB, beforeKB);
    const peakBefore = peakKB;
    peakKB = beforeKB;
    socket.stopReading();
    for (let i = 0; i < UNREAD_CALLS; i++) socket.send('peek', { path });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const asked = Date.now();
    const others = await api.call('browse', { path, limit: 1 }, { timeoutMs: OTHER_CLIENT_TIMEOUT_MS });
    const othersMs = Date.now() - asked;
    socket.resumeReading();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    floodGrowthKB = Math.max(peakKB, service.rss().currentKB) - beforeKB;
    peakKB = Math.max(peakKB, peakBefore);
    const codes: Record<string, number> = {};
    for (const frame of socket.results.values()) {
      const key = frame.ok ? 'ok' : (frame.error?.code ?? '?');
      codes[key] = (codes[key] ?? 0) + 1;
    }
    socket.vanish();
    rows['unread calls'] =
      `${UNREAD_CALLS} calls (150 KB replies) sent without reading; results when reading again ${JSON.stringify(codes)}${socket.closeCode !== null ? `, closed with ${socket.closeCode}` : ''}; RSS ${Math.round(beforeKB / 1024)} MB before, +${Math.round(floodGrowthKB / 1024)} MB at most (bound +${FLOOD_GROWTH_BOUND_KB / 1024} MB); another client served meanwhile: ${others.kind} in ${othersMs} ms`;
    expect(others.kind, 'other clients are served while one leaves thousands of calls unread').toBe('ok');
    expect(floodGrowthKB, 'memory growth during the flood (KB)').toBeLessThanOrEqual(FLOOD_GROWTH_BOUND_KB);
  });

  test('the service is alive and answers at the end', async () => {
    expect(exitedOnItsOwn, service.stderr).toBe(false);
    expect((await service.api().call('serviceStatus', {})).kind).toBe('ok');
    expect(peakKB, 'peak RSS over the whole drill (KB)').toBeLessThanOrEqual(PEAK_BOUND_KB);
  });
});
