/**
 * Soak drill: minutes of mixed load on one service process — express and recoverable sends (single and
 * batches), plain and transactional receives, browses with bodies, peeks, purges, in-place restarts of the
 * queue manager, a WebSocket caller and an event subscriber — with the process's resident memory sampled at a
 * fixed interval. Memory must level off: the median of the last stretch may not exceed the median of the
 * middle stretch by more than 15 % + 10 MB (the short form: 64 MB more, below). Start, peak and end are reported.
 */
import { afterAll, expect, test } from 'vitest';
import type { ApiSession, CallOutcome } from './support/api.js';
import { count, reportFigures } from './support/figures.js';
import { Random } from './support/random.js';
import { RawSocket } from './support/raw-socket.js';
import { DrillService } from './support/service-process.js';
import { sized } from './support/size.js';

/**
 * The short form runs a minute: its middle stretch must come after the service's bounded caches have filled,
 * or it measures their filling, not a leak. At 30 s it did once the service got fast (2,400 calls a second,
 * 900 when this drill was written): the row cache (then up to 64 MB, core/store/src/row-cache.ts) was still filling
 * in the last stretch — 240–265 MB against 213–218 in the middle, where the same 30 s without the row cache
 * ended at 193–201 MB against 203–209.
 *
 * A minute is still the service's warm-up, though: the full form levels off only after two and a half minutes
 * (~340 MB), and V8 grows its heap in steps of tens of MB, so a short form's last stretch can sit one such step
 * above its middle with nothing leaking — one CI run of 69f5a7f: 241 MB in the middle, then 249 → 280 → 300 and
 * flat at 293–298 to the end (allowed 288). The short form allows one step more (WARM_UP_STEP_KB); the full form
 * keeps the strict rule. A leak of ten megabytes a second — what keeping every reply cost the drill's own
 * caller, 3.9 GB in five minutes — still fails the short form; smaller ones are the full form's to find.
 */
const DURATION_MS = sized(60_000, 600_000);
/** What the short form allows beyond the full form's rule: one step of V8's heap growth during warm-up. */
const WARM_UP_STEP_KB = sized(64 * 1024, 0);
const SAMPLE_EVERY_MS = sized(2_000, 10_000);
const RESTART_EVERY_MS = sized(12_000, 90_000);
const HTTP_WORKERS = 3;
/** A queue deeper than this is purged by the next worker that notices, so the store stays a steady size. */
const MAX_DEPTH = 3_000;

const QUEUES = { plain: '.\\private$\\soak-plain', xact: '.\\private$\\soak-xact', journaled: '.\\private$\\soak-j' };

const service = new DrillService();
afterAll(() => service.dispose());

interface Tally {
  calls: number;
  refused: Record<string, number>;
  noReply: number;
  internal: string[];
  malformed: number;
}

function note(tally: Tally, outcome: CallOutcome | { kind: 'ws'; ok: boolean; code?: string }): void {
  tally.calls += 1;
  if (outcome.kind === 'refused' || (outcome.kind === 'ws' && !outcome.ok)) {
    const code = outcome.kind === 'refused' ? outcome.code : (outcome.code ?? '?');
    tally.refused[code] = (tally.refused[code] ?? 0) + 1;
    if (code === 'INTERNAL') tally.internal.push(outcome.kind === 'refused' ? outcome.message : 'over WebSocket');
  }
  if (outcome.kind === 'no-reply') tally.noReply += 1;
  if (outcome.kind === 'malformed') tally.malformed += 1;
}

function message(random: Random, i: number): { label: string; body: string; delivery: 'express' | 'recoverable' } {
  return {
    label: `soak-${i}`,
    body: 's'.repeat(random.int(10, random.chance(0.05) ? 200_000 : 4_000)),
    delivery: random.chance(0.5) ? 'recoverable' : 'express',
  };
}

async function httpWorker(api: ApiSession, random: Random, tally: Tally, until: number): Promise<void> {
  let i = 0;
  while (Date.now() < until) {
    i += 1;
    const path = random.pick([QUEUES.plain, QUEUES.journaled]);
    const op = random.weighted({ send: 6, batch: 2, receive: 5, receiveBatch: 2, tx: 2, browse: 2, peek: 1, list: 1 });
    if (op === 'send') note(tally, await api.call('send', { path, message: message(random, i) }));
    if (op === 'batch') {
      const messages = Array.from({ length: random.int(5, 20) }, (_, k) => ({
        path,
        message: message(random, i * 100 + k),
      }));
      note(tally, await api.call('sendBatch', { messages }));
    }
    if (op === 'receive') note(tally, await api.call('receive', { path, timeoutMs: random.chance(0.2) ? 50 : 0 }));
    if (op === 'receiveBatch')
      note(tally, await api.call('receiveBatch', { path, max: random.int(2, 30), timeoutMs: 0 }));
    if (op === 'tx') {
      await api.call('send', { path: QUEUES.xact, message: message(random, i), transactional: true });
      const begun = await api.call<{ transaction: string }>('transactionBegin', {});
      note(tally, begun);
      if (begun.kind === 'ok') {
        const transaction = begun.value.transaction;
        note(tally, await api.call('receive', { path: QUEUES.xact, timeoutMs: 0, transaction }));
        note(tally, await api.call(random.chance(0.7) ? 'transactionCommit' : 'transactionAbort', { transaction }));
      }
    }
    if (op === 'browse') {
      note(
        tally,
        await api.call('browse', { path, offset: random.int(0, 200), limit: 100, includeBody: random.chance(0.3) }),
      );
    }
    if (op === 'peek') note(tally, await api.call('peek', { path, timeoutMs: 0 }));
    if (op === 'list') {
      const listed = await api.call<{ path: string; messageCount: number; journalMessageCount: number }[]>(
        'queueList',
        {},
      );
      note(tally, listed);
      for (const q of listed.kind === 'ok' ? listed.value : []) {
        if (q.messageCount > MAX_DEPTH) note(tally, await api.call('queuePurge', { path: q.path }));
        if (q.journalMessageCount > MAX_DEPTH)
          note(tally, await api.call('queuePurge', { path: `${q.path}\\JOURNAL$` }));
      }
    }
  }
}

/** Calls over one WebSocket, some many at once; reconnects after an in-place restart closes it. */
async function socketWorker(random: Random, tally: Tally, until: number): Promise<void> {
  while (Date.now() < until) {
    let socket: RawSocket;
    try {
      socket = await RawSocket.open(service.url, service.token);
      socket.recordAll = false;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    let i = 0;
    while (Date.now() < until && !socket.closed) {
      i += 1;
      const ids = Array.from({ length: random.int(1, 16) }, () =>
        random.chance(0.5)
          ? socket.send('send', { path: QUEUES.plain, message: message(random, i) })
          : socket.send('receive', { path: QUEUES.plain, timeoutMs: 0 }),
      );
      for (const id of ids) {
        const frame = await socket.result(id, 30_000);
        socket.forget(id);
        if (frame) note(tally, { kind: 'ws', ok: frame.ok, ...(frame.error ? { code: frame.error.code } : {}) });
      }
    }
    await socket.close();
  }
}

test('soak drill: memory levels off under minutes of mixed load with in-place restarts', async () => {
  const started = Date.now();
  const random = Random.fromEnv();
  await service.start();
  const api = service.api();
  await api.value('queueCreate', { path: QUEUES.plain });
  await api.value('queueCreate', { path: QUEUES.xact, transactional: true });
  await api.value('queueCreate', { path: QUEUES.journaled, journal: true });
  const tally: Tally = { calls: 0, refused: {}, noReply: 0, internal: [], malformed: 0 };
  const samples: number[] = [];
  let restarts = 0;
  let exitedOnItsOwn = false;
  service.waitForExit().then(
    () => (exitedOnItsOwn = true),
    // waitForExit resolves with the exit code and never rejects; were it to, count it as an exit.
    () => (exitedOnItsOwn = true),
  );

  const until = Date.now() + DURATION_MS;
  const subscriber = await RawSocket.open(service.url, service.token);
  subscriber.subscribe();
  const sampler = setInterval(() => {
    if (service.running) samples.push(service.rss().currentKB);
  }, SAMPLE_EVERY_MS);
  const restarter = (async () => {
    while (Date.now() + RESTART_EVERY_MS < until) {
      await new Promise((resolve) => setTimeout(resolve, RESTART_EVERY_MS));
      note(tally, await api.call('serviceRestart', {}));
      restarts += 1;
    }
  })();
  samples.push(service.rss().currentKB);
  await Promise.all([
    ...Array.from({ length: HTTP_WORKERS }, (_, w) => httpWorker(api, new Random(random.seed + w), tally, until)),
    socketWorker(new Random(random.seed + 99), tally, until),
    restarter,
  ]);
  clearInterval(sampler);
  samples.push(service.rss().currentKB);
  const events = subscriber.events;
  await subscriber.close();
  const peakKB = service.rss().peakKB;

  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const n = samples.length;
  const middle = median(samples.slice(Math.floor(n * 0.2), Math.floor(n * 0.6)));
  const last = median(samples.slice(Math.floor(n * 0.6)));
  const allowedKB = middle * 1.15 + 10_240 + WARM_UP_STEP_KB;
  const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MB`;
  const levelsOff = last <= allowedKB;
  reportFigures({
    drill: 'soak',
    title: 'Soak',
    tried: `${HTTP_WORKERS} HTTP clients, a WebSocket caller and an event subscriber: sends (express, recoverable, batches), receives (plain, batch, transactional), browses, peeks, purges, in-place restarts`,
    often: `${DURATION_MS >= 60_000 ? `${DURATION_MS / 60_000} min` : `${DURATION_MS / 1000} s`}, ${count(tally.calls)} calls, ${restarts} restarts, RSS sampled every ${SAMPLE_EVERY_MS / 1000} s`,
    lost: 'n/a (memory drill)',
    crashed: exitedOnItsOwn ? 1 : 0,
    holds: levelsOff && !exitedOnItsOwn && tally.internal.length === 0 && tally.malformed === 0,
    seed: random.seed,
    durationMs: Date.now() - started,
    figures: {
      'RSS start / peak / end': `${mb(samples[0] ?? 0)} / ${mb(Math.max(...samples))} (high-water ${mb(peakKB)}) / ${mb(samples[n - 1] ?? 0)}`,
      'RSS median, middle stretch / last stretch': `${mb(middle)} / ${mb(last)} (allowed ${mb(allowedKB)})`,
      'RSS samples (MB)': samples.map((kb) => Math.round(kb / 1024)).join(' '),
      'calls per second': Math.round(tally.calls / (DURATION_MS / 1000)),
      'events received by the subscriber': events,
      'refusals by code': Object.entries(tally.refused)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      'INTERNAL / malformed / no reply': `${tally.internal.length} / ${tally.malformed} / ${tally.noReply}`,
    },
  });

  expect(exitedOnItsOwn, `the service exited; stderr: ${service.stderr}`).toBe(false);
  expect(tally.internal.slice(0, 5)).toEqual([]);
  expect(tally.malformed).toBe(0);
  expect(restarts).toBeGreaterThan(0);
  expect(n).toBeGreaterThanOrEqual(10);
  expect(last, `RSS did not level off: ${samples.map((kb) => Math.round(kb / 1024)).join(' ')} MB`).toBeLessThanOrEqual(
    allowedKB,
  );
});
