/**
 * Crash drill (R-V1, issue 7): several clients send recoverable messages (single and batches), receive them
 * (plain and in transactions that commit or abort, single and batches) and purge, while the service is killed
 * with SIGKILL at a random moment — sometimes again while it recovers — and started again. After every
 * restart the ledger (crash/ledger.ts) judges the queues: every confirmed send exactly once, nothing a
 * committed transaction took back again, nothing an aborted or interrupted one took missing.
 */
import { afterAll, expect, test } from 'vitest';
import { Ledger, type Anomaly, type QueueKey } from './crash/ledger.js';
import { emptyStats, OP_NAMES, runClient } from './crash/workload.js';
import type { ApiSession } from './support/api.js';
import { count, reportFigures } from './support/figures.js';
import { Random } from './support/random.js';
import { DrillService } from './support/service-process.js';
import { sized } from './support/size.js';

const TRIALS = sized(4, 20);
const CLIENTS = sized(4, 6);
/** How long the clients run before the kill: a random moment in this window (ms). */
const KILL_WINDOW = sized<[number, number]>([300, 1_500], [200, 4_000]);
/** Chance that the restarted service is killed again while it opens its store. */
const RECOVERY_KILL_CHANCE = 0.25;

const PATHS: Record<QueueKey, string> = {
  plain: '.\\private$\\crash-plain',
  xact: '.\\private$\\crash-xact',
  purge: '.\\private$\\crash-purge',
};

const service = new DrillService();
afterAll(() => service.dispose());

interface Page {
  total: number;
  messages: { label: string }[];
}

/** Every message of a queue, by tag (label), paging through it. */
async function contentsOf(api: ApiSession, path: string): Promise<string[]> {
  const tags: string[] = [];
  for (let offset = 0; ; offset += 1_000) {
    const page = await api.value<Page>('browse', { path, offset, limit: 1_000 });
    tags.push(...page.messages.map((m) => m.label));
    if (page.messages.length === 0 || offset + page.messages.length >= page.total) return tags;
  }
}

test('crash drill: SIGKILL under load loses no confirmed message and duplicates none', async () => {
  const started = Date.now();
  const random = Random.fromEnv();
  const ledger = new Ledger();
  const stats = emptyStats();
  const anomalies: Anomaly[] = [];
  const countMismatches: string[] = [];
  let recoveryKills = 0;
  let unplannedExits = 0;
  let slowestRecoveryMs = 0;

  await service.start();
  await service.api().value('queueCreate', { path: PATHS.plain });
  await service.api().value('queueCreate', { path: PATHS.xact, transactional: true });
  await service.api().value('queueCreate', { path: PATHS.purge });

  const verify = async (): Promise<void> => {
    const api = service.api();
    const contents = {} as Record<QueueKey, string[]>;
    for (const key of Object.keys(PATHS) as QueueKey[]) {
      contents[key] = await contentsOf(api, PATHS[key]);
      const shown = await api.value<{ messageCount: number }>('queueShow', { path: PATHS[key] });
      if (shown.messageCount !== contents[key].length) {
        countMismatches.push(`${key}: messageCount ${shown.messageCount}, browse found ${contents[key].length}`);
      }
    }
    anomalies.push(...ledger.verify(contents));
  };

  for (let trial = 1; trial <= TRIALS; trial++) {
    ledger.trial = trial;
    const api = service.api();
    let killing = false;
    let exitedOnItsOwn = false;
    service.waitForExit().then(
      () => (exitedOnItsOwn = !killing),
      // waitForExit resolves with the exit code and never rejects; were it to, the trial fails as an unasked exit.
      () => (exitedOnItsOwn = true),
    );
    const clients = Array.from({ length: CLIENTS }, (_, client) =>
      runClient({
        api,
        ledger,
        random,
        paths: PATHS,
        stats,
        prefix: `t${trial}c${client}`,
        first: OP_NAMES[(trial * CLIENTS + client) % OP_NAMES.length] as (typeof OP_NAMES)[number],
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, random.int(KILL_WINDOW[0], KILL_WINDOW[1])));
    killing = true;
    await service.kill9();
    if (exitedOnItsOwn) unplannedExits += 1;
    await Promise.all(clients);
    ledger.crashed();

    if (random.chance(RECOVERY_KILL_CHANCE)) {
      await service.startAndKill(random.int(30, 600));
      recoveryKills += 1;
    }
    const restartedAt = Date.now();
    await service.start();
    slowestRecoveryMs = Math.max(slowestRecoveryMs, Date.now() - restartedAt);
    await verify();
  }
  // Last, a clean stop and start: nothing may change across it.
  await service.stop();
  await service.start();
  await verify();
  ledger.tally();

  const f = ledger.figures;
  const calls = Object.values(stats.calls).reduce((a, b) => a + b, 0);
  const accounted = f.present + f.consumed + f.purged + f.takenByInterruptedReceives;
  const holds =
    anomalies.length === 0 &&
    countMismatches.length === 0 &&
    unplannedExits === 0 &&
    stats.internal.length === 0 &&
    stats.malformed.length === 0;
  reportFigures({
    drill: 'crash',
    title: 'Crash drill',
    tried: `${CLIENTS} clients sending (single, batch, in transactions), receiving (plain, batch, transactional commit/abort) and purging while the service is killed with SIGKILL`,
    often: `${TRIALS} trials (${TRIALS} kills under load, ${recoveryKills} more during recovery), ${count(calls)} calls`,
    lost: f.lost,
    crashed: unplannedExits,
    holds,
    seed: random.seed,
    durationMs: Date.now() - started,
    figures: {
      'confirmed sends': f.confirmedSends,
      'found (in queue / received for good / purged)': `${accounted} (${f.present} / ${f.consumed} / ${f.purged})`,
      'taken by receives without reply (allowed up to)': `${f.takenByInterruptedReceives} (${f.interruptedReceiveBudget})`,
      lost: f.lost,
      duplicated: f.duplicated,
      'sends without reply: stored / not stored': `${f.inDoubtStored} / ${f.inDoubtNotStored}`,
      'commits without reply (found committed)': `${f.commitsInDoubt} (${f.commitsInDoubtResolvedCommitted})`,
      'torn batches / torn transactions': `${f.tornBatches} / ${f.tornTransactions}`,
      'survived a purge / aborted sends stored / phantoms': `${f.survivedPurge} / ${f.abortedSendsStored} / ${f.phantoms}`,
      'counter mismatches (messageCount vs browse)': countMismatches.length,
      'INTERNAL errors / malformed replies': `${stats.internal.length} / ${stats.malformed.length}`,
      'slowest restart after a kill (ms)': slowestRecoveryMs,
      'calls by kind': Object.entries(stats.calls)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      refusals: Object.entries(stats.refused)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    },
  });

  expect(anomalies.slice(0, 20), 'anomalies (first 20)').toEqual([]);
  expect(countMismatches).toEqual([]);
  expect(stats.internal.slice(0, 10)).toEqual([]);
  expect(stats.malformed.slice(0, 10)).toEqual([]);
  expect(unplannedExits, 'service exits nobody asked for').toBe(0);
  // The drill must have exercised what it claims to, or a green result means nothing.
  expect(f.confirmedSends).toBeGreaterThan(TRIALS * 5);
  expect(f.consumed).toBeGreaterThan(0);
  expect(stats.calls['transactionCommit'] ?? 0).toBeGreaterThan(0);
  expect(stats.calls['queuePurge'] ?? 0).toBeGreaterThan(0);
});
