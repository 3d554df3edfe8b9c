/**
 * Network drill (issue 10): three computers — ALPHA sends to BETA through the routing server RELAY, and RELAY
 * sends to BETA directly — recoverable messages and single-message transactions, and beside them transactions
 * of 2–4 messages (transactionBegin, sends, transactionCommit) and now and then a large one (up to 1,200
 * messages: a lease grows past its usual 1,000 to keep it whole, R-E2), while at a random moment one computer
 * is killed with SIGKILL and started again, or a link (ALPHA–RELAY or RELAY–BETA) is partitioned (a black hole
 * made by the fault proxies every peer entry points at) and healed. After each trial, once every outgoing queue
 * has drained and every transactional message is confirmed, BETA's queues are judged:
 *
 * - every confirmed send is there (0 lost); a refused send is not;
 * - no transactional message twice (exactly once, R-E1/R-E3), and each source's transactional stream in send
 *   order;
 * - every confirmed transaction is there whole, none partly (R-E2: all of it or none; one whose commit had no
 *   answer may be absent, one never committed must be), its messages together and in send order, and each
 *   source's transactions in the order it committed them (network/xact-book.ts);
 * - no recoverable message twice, except after BETA itself was killed: its duplicate cache is in memory and
 *   starts empty (R-U4, seed 003), so a resend whose first copy was stored just before the kill is delivered
 *   again — counted apart, as MSMQ allows.
 */
import { afterAll, expect, test } from 'vitest';
import { Computers, type Computer } from '../helpers/computers.js';
import { FaultProxy } from '../helpers/fault-proxy.js';
import { ApiSession } from './support/api.js';
import { count, reportFigures } from './support/figures.js';
import { Random } from './support/random.js';
import { drillMode, sized } from './support/size.js';
import { XactBook, type UnitOutcome } from './network/xact-book.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const TRIALS = sized(2, 20);
/** How long the senders run before the fault, and how long a partition lasts (ms). */
const FAULT_AFTER = sized<[number, number]>([300, 1_200], [200, 2_500]);
const PARTITION_MS = sized<[number, number]>([800, 1_500], [500, 4_000]);
/** The longest a trial may take to drain after its fault (bounded wait). */
const DRAIN_MS = 120_000;
/** Every load loop stops at its trial's end, and at the latest after this many units or this long. */
const UNITS_PER_TRIAL = sized(5_000, 20_000);
const SEND_WINDOW_MAX_MS = 60_000;
/** Transactions of several messages: most of 2–4, a few aborted on purpose. */
const SMALL_TXN: [number, number] = [2, 4];
const ABORT_CHANCE = 0.1;
/**
 * Per trial and source, the chance of one large transaction, sent at a random moment around the fault. The
 * short form always sends one of over 1,000 messages (a lease must grow to keep it whole); the full form
 * every other trial, half of them over 1,000.
 */
const LARGE_CHANCE = sized(1, 0.5);
const largeSize = (random: Random): number =>
  drillMode === 'full' && random.chance(0.5) ? random.int(50, 1_000) : random.int(1_001, 1_200);
/** A large transaction's sends go in batches of this many. */
const LARGE_BATCH = 300;
/** Calls in a transaction wait this long for an answer (a large commit takes a moment on a loaded machine). */
const TXN_CALL_MS = 15_000;
/** BETA's transactional queue is read on from where the last read stopped this often while a trial runs. */
const WATCH_EVERY_MS = 150;
const WATCH_READS_PER_TRIAL = 5_000;

const env = { QK_PEER_BACKOFF_MAX_MS: '500', QK_PEER_CALL_TIMEOUT_MS: '3000' };
const PLAIN = 'BETA\\private$\\drill-plain';
const XACT = 'BETA\\private$\\drill-xact';
const SOURCES = ['ALPHA', 'RELAY'] as const;
type Source = (typeof SOURCES)[number];
type Victim = 'ALPHA' | 'BETA' | 'RELAY';

let net: Computers | undefined;
const proxies: FaultProxy[] = [];
afterAll(async () => {
  await Promise.allSettled(proxies.map((p) => p.close()));
  await net?.dispose();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function sessionOf(c: Computer): Promise<ApiSession> {
  const token = (await readFile(join(c.svc.dataDir, 'token'), 'utf8')).trim();
  return new ApiSession(c.svc.url.replace(/\/+$/, ''), token);
}

/** What each source's sends came to, by label. */
interface SendBook {
  confirmed: Set<string>;
  refused: Set<string>;
  inDoubt: Set<string>;
}

interface Page {
  total: number;
  messages: { label: string }[];
}

async function labelsIn(api: ApiSession, path: string): Promise<string[]> {
  const labels: string[] = [];
  for (let offset = 0; ; offset += 1_000) {
    const page = await api.value<Page>('browse', { path, offset, limit: 1_000 });
    labels.push(...page.messages.map((m) => m.label));
    if (page.messages.length === 0 || offset + page.messages.length >= page.total) return labels;
  }
}

test('network drill: kill -9 and partitions on three computers lose no confirmed message; exactly once and in order where it applies', async () => {
  const started = Date.now();
  const random = Random.fromEnv();
  net = await Computers.start([
    { name: 'ALPHA', env },
    { name: 'BETA', env },
    { name: 'RELAY', env, routing: true },
  ]);
  const alpha = net.get('ALPHA');
  const beta = net.get('BETA');
  const relay = net.get('RELAY');
  // Every peer entry goes through its own proxy, so a link can be cut in both directions.
  const proxyTo = async (c: Computer) => {
    const p = await FaultProxy.start(c.peerAddress);
    proxies.push(p);
    return p;
  };
  const links = {
    'ALPHA-RELAY': [await proxyTo(relay), await proxyTo(alpha)] as const,
    'RELAY-BETA': [await proxyTo(beta), await proxyTo(relay)] as const,
  };
  await net.trust('ALPHA', 'RELAY', {
    addressOfB: links['ALPHA-RELAY'][0].address,
    addressOfA: links['ALPHA-RELAY'][1].address,
  });
  await net.trust('RELAY', 'BETA', {
    addressOfB: links['RELAY-BETA'][0].address,
    addressOfA: links['RELAY-BETA'][1].address,
  });
  await alpha.svc.qk('route', 'set', 'BETA', 'RELAY');
  await beta.svc.qk('route', 'set', 'ALPHA', 'RELAY');
  await beta.q.createQueue('.\\private$\\drill-plain');
  await beta.q.createQueue('.\\private$\\drill-xact', '--transactional');

  const books: Record<Source, SendBook> = {
    ALPHA: { confirmed: new Set(), refused: new Set(), inDoubt: new Set() },
    RELAY: { confirmed: new Set(), refused: new Set(), inDoubt: new Set() },
  };
  const sessions = new Map<string, ApiSession>();
  for (const c of [alpha, beta, relay]) sessions.set(c.name, await sessionOf(c));
  const api = (c: Computer): ApiSession => sessions.get(c.name) as ApiSession;
  const sequence: Record<Source, number> = { ALPHA: 0, RELAY: 0 };
  const figures = {
    lost: 0,
    duplicatedXact: 0,
    duplicatedPlainUnexpected: 0,
    duplicatedPlainAfterReceiverKill: 0,
    outOfOrder: 0,
    refusedButPresent: 0,
    kills: { ALPHA: 0, BETA: 0, RELAY: 0 } as Record<Victim, number>,
    partitions: 0,
    slowestDrainMs: 0,
    undrained: 0,
    /** Reads of BETA's transactional queue during traffic, and how often it was found smaller than before. */
    watchReads: 0,
    shrank: 0,
  };
  const findings: string[] = [];
  const seenPlain = new Map<string, number>();
  /** Every transactional unit (single-message and several), for the judge of R-E1–R-E3. */
  const book = new XactBook();
  const transactions: Record<Source, number> = { ALPHA: 0, RELAY: 0 };

  /** One source sends until told to stop: plain and transactional in turn, each call's outcome booked. */
  async function sender(source: Source, stop: { now: boolean }): Promise<void> {
    const from = source === 'ALPHA' ? alpha : relay;
    const until = Date.now() + SEND_WINDOW_MAX_MS;
    for (let sent = 0; !stop.now && sent < UNITS_PER_TRIAL && Date.now() < until; sent++) {
      const n = ++sequence[source];
      const transactional = n % 2 === 0;
      const label = `${source}-${transactional ? 'x' : 'p'}-${n}`;
      const askedAt = performance.now();
      const outcome = await api(from).call(
        'send',
        {
          path: transactional ? XACT : PLAIN,
          message: { label, delivery: 'recoverable' },
          ...(transactional ? { transactional: true } : {}),
        },
        { timeoutMs: 5_000 },
      );
      if (transactional) {
        const answeredAt = outcome.kind === 'ok' ? performance.now() : Infinity;
        const booked: UnitOutcome =
          outcome.kind === 'ok' ? 'confirmed' : outcome.kind === 'refused' ? 'refused' : 'inDoubt';
        book.add({ key: label, source, labels: [label], outcome: booked, askedAt, answeredAt });
      }
      if (outcome.kind === 'ok') books[source].confirmed.add(label);
      else if (outcome.kind === 'refused') books[source].refused.add(label);
      else {
        books[source].inDoubt.add(label);
        await sleep(100); // the computer is down: try again shortly, not in a tight loop
      }
    }
  }

  /**
   * One transaction of `size` messages from `source` to BETA's transactional queue: begin, the sends (a large
   * one in batches), then commit — or abort, when told. Booked once begun: confirmed when the commit answered
   * yes, refused when it answered no or a send failed first (then it is aborted and never committed), in
   * doubt when the commit had no answer.
   */
  async function transaction(source: Source, size: number, abort: boolean): Promise<void> {
    const from = source === 'ALPHA' ? alpha : relay;
    const pause = (kind: string): Promise<void> => (kind === 'no-reply' ? sleep(100) : Promise.resolve());
    const begun = await api(from).call<{ transaction: string }>('transactionBegin', {}, { timeoutMs: TXN_CALL_MS });
    if (begun.kind !== 'ok') return pause(begun.kind);
    const id = begun.value.transaction;
    const t = ++transactions[source];
    const labels = Array.from({ length: size }, (_, i) => `${source}-t${t}-${i}`);
    const unit = book.add({
      key: `${source}-t${t}`,
      source,
      labels,
      outcome: 'refused',
      askedAt: performance.now(),
      answeredAt: Infinity,
    });
    const message = (label: string) => ({ label, delivery: 'recoverable' });
    for (let at = 0; at < size; at += size <= SMALL_TXN[1] ? 1 : LARGE_BATCH) {
      const sent =
        size <= SMALL_TXN[1]
          ? await api(from).call(
              'send',
              { path: XACT, message: message(labels[at] as string), transaction: id },
              { timeoutMs: TXN_CALL_MS },
            )
          : await api(from).call(
              'sendBatch',
              {
                messages: labels.slice(at, at + LARGE_BATCH).map((label) => ({ path: XACT, message: message(label) })),
                transaction: id,
              },
              { timeoutMs: TXN_CALL_MS },
            );
      if (sent.kind !== 'ok') {
        // Never committed: none of it may arrive. The abort is a courtesy (a killed computer forgot it).
        await api(from).call('transactionAbort', { transaction: id }, { timeoutMs: TXN_CALL_MS });
        return pause(sent.kind);
      }
    }
    if (abort) {
      unit.outcome = 'aborted';
      const aborted = await api(from).call('transactionAbort', { transaction: id }, { timeoutMs: TXN_CALL_MS });
      return pause(aborted.kind);
    }
    unit.askedAt = performance.now();
    const committed = await api(from).call('transactionCommit', { transaction: id }, { timeoutMs: TXN_CALL_MS });
    if (committed.kind === 'ok') {
      unit.answeredAt = performance.now();
      unit.outcome = 'confirmed';
    } else if (committed.kind !== 'refused') unit.outcome = 'inDoubt';
    return pause(committed.kind);
  }

  /**
   * Beside `sender`, one source commits transactions of several messages until told to stop; the large one,
   * if the trial has one, goes once `largeAfterMs` have passed.
   */
  async function transactor(source: Source, stop: { now: boolean }, largeAfterMs: number | null): Promise<void> {
    const began = Date.now();
    let large = largeAfterMs;
    for (let made = 0; !stop.now && made < UNITS_PER_TRIAL && Date.now() - began < SEND_WINDOW_MAX_MS; made++) {
      if (large !== null && Date.now() - began >= large) {
        large = null;
        await transaction(source, largeSize(random), false);
      } else await transaction(source, random.int(SMALL_TXN[0], SMALL_TXN[1]), random.chance(ABORT_CHANCE));
    }
  }

  /**
   * Reads BETA's transactional queue on, from where the last read stopped, until told to stop (from the trial's
   * start until its drain ended): a transaction seen partly there at any moment is torn (R-E2), even if its
   * last part came later. Messages are never taken from that queue, so it never shrinks.
   */
  const watch = book.watch();
  async function watcher(trial: number, stop: { now: boolean }): Promise<void> {
    const until = Date.now() + SEND_WINDOW_MAX_MS + DRAIN_MS;
    for (let reads = 0; !stop.now && reads < WATCH_READS_PER_TRIAL && Date.now() < until; reads++) {
      if (await readOn(trial)) {
        figures.watchReads += 1;
        for (const f of book.judgeWatch(watch))
          findings.push(`trial ${trial}: transaction ${f.kind} ${f.key}: ${f.detail}`);
      }
      await sleep(WATCH_EVERY_MS);
    }
  }
  /** One read on to the end of the queue (true), or false when BETA did not answer (killed). */
  async function readOn(trial: number): Promise<boolean> {
    for (let pages = 0; pages < 1_000; pages++) {
      const page = await api(beta).call<Page>(
        'browse',
        { path: '.\\private$\\drill-xact', offset: watch.length, limit: 1_000 },
        { timeoutMs: 5_000 },
      );
      if (page.kind !== 'ok') return false;
      if (page.value.total < watch.length) {
        findings.push(`trial ${trial}: BETA's transactional queue shrank from ${watch.length} to ${page.value.total}`);
        figures.shrank += 1;
        return false;
      }
      watch.append(page.value.messages.map((m) => m.label));
      if (page.value.messages.length === 0 || watch.length >= page.value.total) return true;
    }
    return false;
  }

  /** Waits until ALPHA's and RELAY's outgoing queues are empty and confirmed (bounded). */
  async function drain(): Promise<boolean> {
    const until = Date.now() + DRAIN_MS;
    while (Date.now() < until) {
      const lists = await Promise.all(
        [alpha, relay].map((c) =>
          api(c).call<{ messageCount: number; unconfirmedCount: number }[]>('outgoingList', {}),
        ),
      );
      if (lists.every((l) => l.kind === 'ok' && l.value.every((o) => o.messageCount === 0 && o.unconfirmedCount === 0)))
        return true;
      await sleep(250);
    }
    return false;
  }

  async function verify(trial: number, betaKilled: boolean): Promise<void> {
    const plain = await labelsIn(api(beta), '.\\private$\\drill-plain');
    const xact = await labelsIn(api(beta), '.\\private$\\drill-xact');
    const present = new Map<string, number>();
    for (const label of [...plain, ...xact]) present.set(label, (present.get(label) ?? 0) + 1);
    for (const source of SOURCES) {
      for (const label of books[source].confirmed) {
        if (!present.has(label)) {
          figures.lost += 1;
          findings.push(`trial ${trial}: confirmed ${label} missing`);
        }
      }
      for (const label of books[source].refused) {
        if (present.has(label)) {
          figures.refusedButPresent += 1;
          findings.push(`trial ${trial}: refused ${label} present`);
        }
      }
      // Each source's transactional stream in send order.
      const stream = xact.filter((l) => l.startsWith(`${source}-x-`)).map((l) => Number(l.split('-')[2]));
      for (let i = 1; i < stream.length; i++) {
        if ((stream[i] ?? 0) <= (stream[i - 1] ?? 0)) {
          figures.outOfOrder += 1;
          findings.push(`trial ${trial}: ${source} transactional ${stream[i - 1]} before ${stream[i]}`);
        }
      }
    }
    for (const [label, times] of present) {
      if (times < 2 || book.inMulti(label)) continue; // transactions of several messages: judged below
      if (label.includes('-x-')) {
        figures.duplicatedXact += times - 1;
        findings.push(`trial ${trial}: transactional ${label} ${times} times`);
        continue;
      }
      const before = seenPlain.get(label) ?? 1;
      if (times <= before) continue; // counted in an earlier trial
      seenPlain.set(label, times);
      if (betaKilled) figures.duplicatedPlainAfterReceiverKill += times - before;
      else {
        figures.duplicatedPlainUnexpected += times - before;
        findings.push(`trial ${trial}: recoverable ${label} ${times} times without a receiver restart`);
      }
    }
    // Transactions: whole or not at all (R-E2), once (R-E3), in commit order (R-E1).
    for (const f of book.judge(xact)) findings.push(`trial ${trial}: transaction ${f.kind} ${f.key}: ${f.detail}`);
  }

  for (let trial = 1; trial <= TRIALS; trial++) {
    const stop = { now: false };
    const faultAfter = random.int(FAULT_AFTER[0], FAULT_AFTER[1]);
    // The large transaction lands before the fault, during it or just after.
    const large = (): number | null => (random.chance(LARGE_CHANCE) ? random.int(0, faultAfter + 400) : null);
    const senders = [...SOURCES.map((s) => sender(s, stop)), ...SOURCES.map((s) => transactor(s, stop, large()))];
    const watching = { now: false };
    const watched = watcher(trial, watching);
    await sleep(faultAfter);
    let betaKilled = false;
    // Odd trials kill a computer, even ones partition a link: every run has both.
    if (trial % 2 === 1) {
      const victim = (['ALPHA', 'BETA', 'RELAY'] as const)[random.int(0, 2)] as Victim;
      const c = net.get(victim);
      await c.svc.kill9();
      figures.kills[victim] += 1;
      betaKilled = victim === 'BETA';
      await sleep(random.int(100, 800));
      await c.svc.start();
      sessions.set(victim, await sessionOf(c));
    } else {
      const [one, other] = links[random.chance(0.5) ? 'ALPHA-RELAY' : 'RELAY-BETA'];
      one.mode = { kind: 'drop' };
      other.mode = { kind: 'drop' };
      figures.partitions += 1;
      await sleep(random.int(PARTITION_MS[0], PARTITION_MS[1]));
      one.mode = { kind: 'pass' };
      other.mode = { kind: 'pass' };
      // Connections made during the black hole hang; cut them so the link comes back at once.
      one.cut();
      other.cut();
    }
    await sleep(random.int(200, 800));
    stop.now = true;
    await Promise.all(senders);
    const drainStart = Date.now();
    const drained = await drain();
    figures.slowestDrainMs = Math.max(figures.slowestDrainMs, Date.now() - drainStart);
    watching.now = true;
    await watched;
    if (!drained) {
      figures.undrained += 1;
      findings.push(`trial ${trial}: outgoing queues not drained within ${DRAIN_MS} ms`);
    }
    await verify(trial, betaKilled);
  }

  const confirmed = books.ALPHA.confirmed.size + books.RELAY.confirmed.size;
  const inDoubt = books.ALPHA.inDoubt.size + books.RELAY.inDoubt.size;
  const txn = book.figures();
  const lost = figures.lost + txn.lost;
  const holds =
    lost === 0 &&
    txn.partly === 0 &&
    txn.duplicated === 0 &&
    txn.outOfOrder === 0 &&
    txn.uncommittedPresent === 0 &&
    txn.partlyVisible === 0 &&
    figures.shrank === 0 &&
    figures.duplicatedXact === 0 &&
    figures.duplicatedPlainUnexpected === 0 &&
    figures.outOfOrder === 0 &&
    figures.refusedButPresent === 0 &&
    figures.undrained === 0;
  reportFigures({
    drill: 'network',
    title: 'Network drill',
    tried:
      'three computers (ALPHA → RELAY → BETA, RELAY → BETA) sending recoverable messages, single-message transactions and transactions of 2–4 and up to 1,200 messages while one computer is killed with SIGKILL or a link is partitioned',
    often: `${TRIALS} trials (${figures.kills.ALPHA + figures.kills.BETA + figures.kills.RELAY} kills, ${figures.partitions} partitions), ${count(confirmed)} confirmed sends, ${count(txn.confirmed)} confirmed transactions of ${count(txn.confirmedMessages)} messages`,
    lost,
    crashed: 0,
    holds,
    seed: random.seed,
    durationMs: Date.now() - started,
    figures: {
      'confirmed sends (ALPHA / RELAY)': `${books.ALPHA.confirmed.size} / ${books.RELAY.confirmed.size}`,
      'sends without reply (computer down)': inDoubt,
      lost,
      'transactional duplicated': figures.duplicatedXact,
      'transactional out of order': figures.outOfOrder,
      'transactions of several messages confirmed (ALPHA / RELAY)': `${book.figures('ALPHA').confirmed} / ${book.figures('RELAY').confirmed}`,
      'messages in confirmed transactions': txn.confirmedMessages,
      'transactions over 1,000 messages confirmed (largest)': `${txn.overLease} (${txn.largest})`,
      'transactions refused / aborted / without an answer': `${txn.refused} / ${txn.aborted} / ${txn.inDoubt}`,
      'transactions partly there (R-E2)': txn.partly,
      'transactions seen partly there while messages flowed (R-E2)': txn.partlyVisible,
      "reads of BETA's transactional queue while messages flowed": figures.watchReads,
      'messages of transactions duplicated': txn.duplicated,
      'transactions out of order (R-E1, R-E3)': txn.outOfOrder,
      'messages of uncommitted transactions found': txn.uncommittedPresent,
      'recoverable duplicated (receiver up)': figures.duplicatedPlainUnexpected,
      'recoverable delivered twice after BETA was killed (R-U4: cache in memory)':
        figures.duplicatedPlainAfterReceiverKill,
      'refused sends found': figures.refusedButPresent,
      'kills ALPHA / BETA / RELAY': `${figures.kills.ALPHA} / ${figures.kills.BETA} / ${figures.kills.RELAY}`,
      partitions: figures.partitions,
      'slowest drain after a fault (ms)': figures.slowestDrainMs,
    },
  });

  expect(findings.slice(0, 20)).toEqual([]);
  // The drill must have exercised what it claims to.
  expect(books.ALPHA.confirmed.size).toBeGreaterThan(TRIALS);
  expect(books.RELAY.confirmed.size).toBeGreaterThan(TRIALS);
  expect(book.figures('ALPHA').confirmed).toBeGreaterThan(TRIALS);
  expect(book.figures('RELAY').confirmed).toBeGreaterThan(TRIALS);
  expect(txn.overLease).toBeGreaterThan(0);
}, 3_600_000);
