/**
 * Storage-fault drill: a store from a newer version, a damaged header, damaged pages, a read-only folder and a
 * full disk. Each must end in a clear error with a stable code (never INTERNAL) and exit code 1 when the
 * service cannot start, leave the stored files byte for byte as they were, lose nothing already stored, and —
 * while the service runs — keep serving reads. The read-only and full-disk cases mount a small tmpfs, so they
 * run as root only; elsewhere they are skipped with the reason printed. (A folder cannot turn read-only under
 * a running service here: a tmpfs with files open for writing refuses the remount.)
 */
import { closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { reportFigures } from './support/figures.js';
import { DrillService } from './support/service-process.js';
import { sized } from './support/size.js';
import { errorCodeOf, mountUnavailable, SmallDisk, storeFingerprint } from './support/storage.js';

const Q = '.\\private$\\stored';
const SCRATCH = '.\\private$\\scratch';
const SEEDED = sized(40, 200);
const STORE = 'queuekeeper.db';

interface Outcome {
  scenario: string;
  exitCode: number | null;
  code: string | null;
  untouched: boolean | null;
  kept: string;
  reads: string;
  holds: boolean;
}
const outcomes: Outcome[] = [];
const skipped: string[] = [];
const started = Date.now();

afterAll(() => {
  if (outcomes.length === 0) return;
  reportFigures({
    drill: 'storage',
    title: 'Storage faults',
    tried: 'a store from a newer version, a damaged header, damaged pages, a read-only folder, a full disk',
    often: `${outcomes.length} scenarios${skipped.length > 0 ? ` (${skipped.length} skipped)` : ''}, ${SEEDED} stored messages each`,
    lost: outcomes.filter((o) => !o.kept.startsWith('all')).length,
    crashed: outcomes.filter((o) => o.code === 'INTERNAL').length,
    holds: outcomes.every((o) => o.holds),
    durationMs: Date.now() - started,
    figures: Object.fromEntries([
      ...outcomes.map((o) => [
        o.scenario,
        `exit ${o.exitCode ?? '-'}, ${o.code ?? 'no error'}, files ${o.untouched === null ? '-' : o.untouched ? 'untouched' : 'CHANGED'}, kept ${o.kept}, reads ${o.reads}`,
      ]),
      ...skipped.map((why, i) => [`skipped ${i + 1}`, why]),
    ]),
  });
});

/** A stopped service whose store holds SEEDED recoverable messages; returns their IDs. */
async function seeded(dataDir?: string): Promise<{ service: DrillService; ids: string[] }> {
  const service = new DrillService(dataDir === undefined ? {} : { dataDir });
  await service.start();
  const api = service.api();
  await api.value('queueCreate', { path: Q });
  const ids: string[] = [];
  for (let i = 0; i < SEEDED; i++) {
    const { id } = await api.value<{ id: string }>('send', {
      path: Q,
      message: { label: `kept-${i}`, body: `body ${i} ${'x'.repeat(2_000)}`, delivery: 'recoverable' },
    });
    ids.push(id);
  }
  await service.stop();
  return { service, ids };
}

/** How many of `ids` the running service holds, once each. */
async function keptOf(service: DrillService, ids: string[]): Promise<string> {
  const page = await service.api().value<{ messages: { id: string }[] }>('browse', { path: Q, limit: 1_000 });
  const found = page.messages.map((m) => m.id);
  const once = ids.filter((id) => found.filter((f) => f === id).length === 1).length;
  return once === ids.length ? `all ${ids.length}` : `${once} of ${ids.length}`;
}

/** Starts a service that must refuse: exit 1, a stable code, the store files untouched. */
async function refusedStart(
  service: DrillService,
  expectedCodes: string[],
): Promise<Omit<Outcome, 'scenario' | 'kept' | 'reads' | 'holds'>> {
  const before = storeFingerprint(service.dataDir);
  const failure = await service.startExpectingFailure(30_000);
  const code = errorCodeOf(failure.stderr);
  const untouched = storeFingerprint(service.dataDir) === before;
  expect(failure.becameReady, 'the service started on a store it cannot use').toBe(false);
  expect({ exitCode: failure.exitCode, code, untouched }, failure.stderr).toEqual({
    exitCode: 1,
    code: expect.toSatisfy((c: string | null) => c !== null && expectedCodes.includes(c)),
    untouched: true,
  });
  return { exitCode: failure.exitCode, code, untouched };
}

describe('storage faults', () => {
  test('a store from a newer version is refused with STORE_VERSION_TOO_NEW and left untouched', async () => {
    const { service, ids } = await seeded();
    try {
      const file = join(service.dataDir, STORE);
      const db = new Database(file);
      const version = db.pragma('user_version', { simple: true }) as number;
      db.pragma('user_version = 999');
      db.close();
      const refused = await refusedStart(service, ['STORE_VERSION_TOO_NEW']);
      // The same file back at its own version: everything is still there.
      const again = new Database(file);
      again.pragma(`user_version = ${version}`);
      again.close();
      await service.start();
      const kept = await keptOf(service, ids);
      outcomes.push({
        scenario: 'newer schema',
        ...refused,
        kept,
        reads: 'n/a (not started)',
        holds: kept.startsWith('all'),
      });
      expect(kept).toBe(`all ${ids.length}`);
    } finally {
      await service.dispose();
    }
  });

  for (const damage of ['header', 'pages'] as const) {
    test(`a store with a damaged ${damage === 'header' ? 'header' : 'page range'} is refused with STORE_CORRUPT and left untouched`, async () => {
      const { service, ids } = await seeded();
      try {
        const file = join(service.dataDir, STORE);
        const original = readFileSync(file);
        const size = statSync(file).size;
        const fd = openSync(file, 'r+');
        if (damage === 'header') writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0);
        else writeSync(fd, Buffer.alloc(3 * 4096, 0x5a), 0, 3 * 4096, Math.floor(size / 2 / 4096) * 4096);
        closeSync(fd);
        const refused = await refusedStart(service, ['STORE_CORRUPT']);
        writeFileSync(file, original);
        await service.start();
        const kept = await keptOf(service, ids);
        outcomes.push({
          scenario: `damaged ${damage}`,
          ...refused,
          kept,
          reads: 'n/a (not started)',
          holds: kept.startsWith('all'),
        });
        expect(kept).toBe(`all ${ids.length}`);
      } finally {
        await service.dispose();
      }
    });
  }

  const noMount = mountUnavailable;
  if (noMount) {
    console.log(`storage drill: read-only folder and full disk skipped: ${noMount}`);
    skipped.push(`read-only folder, full disk: ${noMount}`);
  }

  test.runIf(noMount === null)(
    'a read-only folder: the start is refused with a clear error and the files are untouched',
    async () => {
      const disk = new SmallDisk(32);
      const { service, ids } = await seeded(disk.path);
      try {
        disk.remount('ro');
        const refused = await refusedStart(service, ['ACCESS_DENIED', 'MESSAGE_STORAGE_FAILED']);
        disk.remount('rw');
        await service.start();
        const kept = await keptOf(service, ids);
        outcomes.push({
          scenario: 'read-only folder at start',
          ...refused,
          kept,
          reads: 'n/a (not started)',
          holds: kept.startsWith('all'),
        });
        expect(kept).toBe(`all ${ids.length}`);
      } finally {
        disk.remount('rw');
        await service.dispose();
        disk.unmount();
      }
    },
  );

  test.runIf(noMount === null)(
    'a full disk: sends refused clearly, reads served, a restart on it refused clearly, nothing confirmed lost',
    async () => {
      const disk = new SmallDisk(24);
      const service = new DrillService({ dataDir: disk.path });
      try {
        await service.start();
        const api = service.api();
        await api.value('queueCreate', { path: Q });
        await api.value('queueCreate', { path: SCRATCH });
        for (let i = 0; i < 5; i++) {
          await api.value('send', { path: SCRATCH, message: { body: 's'.repeat(100_000), delivery: 'recoverable' } });
        }
        const confirmed: string[] = [];
        const refusals: Record<string, number> = {};
        const fill = async (): Promise<void> => {
          for (let i = 0, refusedInARow = 0; refusedInARow < 5 && i < 1_000; i++) {
            const outcome = await api.call<{ id: string }>('send', {
              path: Q,
              message: { label: `fill-${confirmed.length}-${i}`, body: 'f'.repeat(100_000), delivery: 'recoverable' },
            });
            if (outcome.kind === 'ok') {
              confirmed.push(outcome.value.id);
              refusedInARow = 0;
            } else {
              const key = outcome.kind === 'refused' ? outcome.code : outcome.kind;
              refusals[key] = (refusals[key] ?? 0) + 1;
              refusedInARow += 1;
            }
          }
        };
        await fill();
        const show = await api.call('queueShow', { path: Q });
        const browse = await api.call('browse', { path: Q, limit: 10 });
        const peek = await api.call('peek', { path: Q });
        const reads = [show, browse, peek].every((o) => o.kind === 'ok') ? 'served' : 'failed';
        // What an administrator does first to make room: it must work on a full disk.
        const purge = await api.call('queuePurge', { path: SCRATCH });
        const afterPurge = await api.call('send', {
          path: Q,
          message: { label: 'after purge', delivery: 'recoverable' },
        });
        if (afterPurge.kind === 'ok') confirmed.push((afterPurge.value as { id: string }).id);
        // Full again, then a crash: the restart meets a disk with no room at all.
        await fill();
        expect(service.running, 'the service must survive a full disk').toBe(true);
        expect(
          Object.keys(refusals).every((code) => ['MESSAGE_STORAGE_FAILED', 'INSUFFICIENT_RESOURCES'].includes(code)),
          JSON.stringify(refusals),
        ).toBe(true);
        await service.kill9();
        const restart = await service.startExpectingFailure(30_000);
        const restartCode = restart.becameReady ? null : errorCodeOf(restart.stderr);
        disk.remount('size=64m');
        await service.start();
        const kept = await keptOf(service, confirmed);
        outcomes.push({
          scenario: 'full disk',
          exitCode: restart.exitCode,
          code: restartCode,
          untouched: null,
          kept,
          reads: `${reads}; sends refused ${JSON.stringify(refusals)}; purge of another queue to make room ${purge.kind === 'ok' ? 'ok' : purge.kind === 'refused' ? purge.code : purge.kind}, a send after it ${afterPurge.kind === 'refused' ? afterPurge.code : afterPurge.kind}`,
          holds: kept.startsWith('all') && reads === 'served' && restartCode !== 'INTERNAL' && purge.kind === 'ok',
        });
        expect(confirmed.length).toBeGreaterThan(10);
        expect(reads).toBe('served');
        expect(purge.kind, 'a purge to make room on a full disk').toBe('ok');
        expect(
          restart.becameReady || (restart.exitCode === 1 && restartCode !== null && restartCode !== 'INTERNAL'),
          restart.stderr,
        ).toBe(true);
        expect(kept).toBe(`all ${confirmed.length}`);
      } finally {
        await service.dispose();
        disk.unmount();
      }
    },
  );
});
