/**
 * Fuzz drill, API half: property-based inputs (fast-check) for every operation of core/api, generated from
 * the contract's zod schemas — valid, at the boundaries, hostile, and raw bodies no schema describes — against
 * a live service. Judged by fuzz/fuzz-target.ts: no crash, no hang, no 5xx but the documented resource states,
 * and a refused call changes nothing (state digest before and after).
 */
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { operationNames, operations } from '@qk/api';
import type { z } from 'zod';
import { count, reportFigures } from './support/figures.js';
import { Random } from './support/random.js';
import { sized } from './support/size.js';
import { FuzzTarget, preview } from './fuzz/fuzz-target.js';
import { arbitraryOf, hostileOf, jsonSchemaOf, type Mode } from './fuzz/schema-arbitrary.js';
import { HOSTILE_STRINGS } from './fuzz/pools.js';

const CASES = Number(process.env['QK_FUZZ_CASES'] ?? sized(1_500, 100_000));
/** The service's request body limit (CLI.md: oversized input is refused). */
const HTTP_BODY_LIMIT = 16 * 1024 * 1024;
/**
 * The drill is bounded in time: on a machine too busy to run every case in this long, it says how many ran.
 * 100,000 cases took ~95 min at the ~17 cases/s of a 2-core machine shared with other builds.
 */
const TIME_BUDGET_MS = sized(10, 120) * 60_000;
/**
 * Cases fast-check may draw beyond a lane's share: a case the harness could not judge (the digest before it
 * failed) does not count toward the share, so the lane draws another.
 */
const SPARE_RUNS = 1_000;
/** A lane with this many findings stops early: the run has failed, the rest would only repeat it. */
const MAX_FINDINGS = 100;
/** Cases between two tidy-ups of the fixture. */
const TIDY_EVERY = 150;
/** Stopping or restarting the service is not an input error to survive; the crash drill covers restarts. */
const EXCLUDED = new Set(['serviceStop', 'serviceRestart']);
/** Operations that cannot change messages: their before/after digests skip the per-message part. */
const READ_ONLY = new Set([
  'serviceStatus',
  'queueList',
  'queueShow',
  'peek',
  'browse',
  'messageGet',
  'messageFind',
  'acknowledgmentsFor',
  'settingsList',
  'traffic',
  'queueClassCounts',
]);

type Case =
  | { op: string; mode: Mode; input: unknown }
  | { op: string; mode: 'raw'; body: string; headers: Record<string, string> };

const RAW_BODIES: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'not json',
    '{',
    '{"path":',
    'null',
    '"a string"',
    '[]',
    '42',
    '\uFEFF{}',
    '{"path":"a","path":"b"}',
    '{"path":1e400}',
    '{"path":"\\ud800"}',
    '{"__proto__":{"admin":true},"path":".\\\\private$\\\\fz-a"}',
    '{"constructor":{"prototype":{"x":1}}}',
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `{"a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);

const RAW_HEADERS: fc.Arbitrary<Record<string, string>> = fc.constantFrom(
  {},
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=utf-16' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-type': 'multipart/form-data; boundary=x' },
  { 'content-type': '' },
);

function caseArbitrary(): fc.Arbitrary<Case> {
  const perOp = new Map<string, fc.Arbitrary<Case>>();
  for (const op of operationNames) {
    if (EXCLUDED.has(op)) continue;
    const schema = jsonSchemaOf(operations[op].input as z.ZodType);
    const valid = arbitraryOf(schema, 'valid');
    const boundary = arbitraryOf(schema, 'boundary');
    perOp.set(
      op,
      fc.oneof(
        { weight: 45, arbitrary: valid.map((input): Case => ({ op, mode: 'valid', input })) },
        { weight: 20, arbitrary: boundary.map((input): Case => ({ op, mode: 'boundary', input })) },
        {
          weight: 30,
          arbitrary: hostileOf(fc.oneof(valid, boundary)).map((input): Case => ({ op, mode: 'hostile', input })),
        },
        {
          weight: 5,
          arbitrary: fc
            .tuple(
              RAW_BODIES,
              RAW_HEADERS,
              fc.oneof(
                { weight: 9, arbitrary: fc.constant(op) },
                fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 100)),
              ),
            )
            .map(([body, headers, name]): Case => ({ op: name, mode: 'raw', body, headers })),
        },
      ),
    );
  }
  return fc.constantFrom(...perOp.keys()).chain((op) => perOp.get(op) as fc.Arbitrary<Case>);
}

/**
 * Independent lanes, each a service with its own fixture and its own stream of cases: on two cores one lane
 * leaves the CPU idle while it waits on the service, and the full run needs its 100,000 cases in reasonable time.
 */
const LANES = sized(1, 2);
const targets = Array.from({ length: LANES }, () => new FuzzTarget());
afterAll(() => Promise.all(targets.map((t) => t.dispose())));

interface LaneCounts {
  perOp: Record<string, number>;
  perMode: Record<string, number>;
}

async function runLane(
  target: FuzzTarget,
  cases: number,
  random: Random,
  counts: LaneCounts,
  deadline: number,
): Promise<void> {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(caseArbitrary(), async (c) => {
      // A lane stops once it has judged its share. Past the time budget, or once its findings are many (the run
      // fails anyway), the remaining cases are skipped, and the figures say how many ran.
      if (target.stats.cases >= cases || Date.now() > deadline || target.findings.length >= MAX_FINDINGS) return true;
      n += 1;
      if (n % TIDY_EVERY === 0) await target.tidy();
      counts.perOp[c.op] = (counts.perOp[c.op] ?? 0) + 1;
      counts.perMode[c.mode] = (counts.perMode[c.mode] ?? 0) + 1;
      try {
        // Queues and counts are compared around every case; settings and message IDs around the cases that
        // can reach the engine and change them (valid and boundary input to a writing operation, any settingsSet).
        const full = (c.mode !== 'hostile' && c.mode !== 'raw' && !READ_ONLY.has(c.op)) || c.op === 'settingsSet';
        const before = await target.before(full);
        const input =
          c.mode === 'raw'
            ? c.body
            : FuzzTarget.withoutShortTimers(
                c.op,
                target.substitute(c.input, (k) => random.int(0, k - 1)),
              );
        const body = c.mode === 'raw' ? c.body : (JSON.stringify(input) ?? '');
        const path = `/api/v1/${encodeURIComponent(c.op.toWellFormed())}`;
        const headers = c.mode === 'raw' ? c.headers : {};
        const outcome = await target.api.post(path, body, { headers, timeoutMs: 15_000 });
        const cutOff =
          outcome.kind === 'no-reply' &&
          body.length > HTTP_BODY_LIMIT &&
          target.service.running &&
          /EPIPE|ECONNRESET|closed/i.test(outcome.error);
        if (cutOff) await target.judgeCutOff(c.op, input, before);
        else await target.judgeCall(c.op, input, outcome, before);
      } catch (error) {
        target.finding('threw', c.op, 'input' in c ? c.input : c.body, preview(String(error)));
        target.stateMayHaveChanged();
        if (!target.service.running) await target.start();
      }
      return true;
    }),
    { numRuns: cases + SPARE_RUNS, seed: random.seed | 0, endOnFailure: true },
  );
  await target.tidy();
}

function sum(records: Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const record of records) for (const [k, v] of Object.entries(record)) total[k] = (total[k] ?? 0) + v;
  return total;
}

test('fuzz drill: hostile, boundary and valid input to every API operation — no crash, no 5xx, a refusal changes nothing', async () => {
  const started = Date.now();
  const random = Random.fromEnv();
  const counts: LaneCounts[] = targets.map(() => ({ perOp: {}, perMode: {} }));
  for (const target of targets) {
    await target.start();
    const calibration = await target.calibrate();
    expect(calibration.light, 'the state digest must see one more message').not.toBeNull();
    expect(calibration.full, 'the full state digest must see one more message').not.toBeNull();
  }
  const deadline = Date.now() + TIME_BUDGET_MS;
  await Promise.all(
    targets.map((target, lane) =>
      runLane(target, Math.ceil(CASES / LANES), new Random(random.seed + lane), counts[lane] as LaneCounts, deadline),
    ),
  );
  const statuses = await Promise.all(targets.map((t) => t.api.call('serviceStatus', {})));

  const findings = targets.flatMap((t) => t.findings);
  const stat = (key: keyof FuzzTarget['stats']): number => targets.reduce((n, t) => n + t.stats[key], 0);
  const perOp = sum(counts.map((c) => c.perOp));
  const perMode = sum(counts.map((c) => c.perMode));
  const codes = sum(targets.map((t) => t.codes));
  const byKind = (kind: string): number => findings.filter((f) => f.kind === kind).length;
  const fiveXx = byKind('5xx') + byKind('internal');
  const operationsCovered = Object.keys(perOp).filter((op) => operationNames.includes(op as never)).length;
  const alive = statuses.every((s) => s.kind === 'ok');
  reportFigures({
    drill: 'fuzz-api',
    title: 'Fuzz: API operations',
    tried: `valid, boundary, hostile and raw inputs generated from the zod schemas of ${operationsCovered} operations, over HTTP against live services`,
    often: `${count(stat('cases'))} cases (${LANES} service${LANES > 1 ? 's' : ''})`,
    lost: `${byKind('state-changed')} refusals that changed state`,
    crashed: `${stat('crashes')} crashes, ${fiveXx} undocumented 5xx/INTERNAL`,
    holds: findings.length === 0 && alive && stat('cases') >= CASES,
    seed: random.seed,
    durationMs: Date.now() - started,
    figures: {
      'cases by mode': Object.entries(perMode)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      'answered ok / refused': `${stat('succeeded')} / ${stat('refused')}`,
      'refusals by code': Object.entries(codes)
        .sort(([, a], [, b]) => b - a)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      'state digests (with settings and message IDs)': `${stat('digests')} (${stat('fullDigests')}), ${Math.round(stat('digestMs') / 1000)} s`,
      'crashes / hangs / malformed answers': `${stat('crashes')} / ${byKind('no-reply')} / ${byKind('malformed')}`,
      'undocumented 5xx / INTERNAL': `${byKind('5xx')} / ${byKind('internal')}`,
      'refusals that changed state': byKind('state-changed'),
      'harness errors': byKind('threw'),
      'fewest cases of one operation': Math.min(
        ...Object.entries(perOp)
          .filter(([op]) => operationNames.includes(op as never))
          .map(([, v]) => v),
      ),
    },
  });

  expect(findings.slice(0, 15), `${findings.length} findings (first 15)`).toEqual([]);
  expect(alive).toBe(true);
  expect(stat('cases'), `cases run within ${TIME_BUDGET_MS / 60_000} min`).toBeGreaterThanOrEqual(CASES);
  expect(operationsCovered).toBe(operationNames.length - EXCLUDED.size);
});
