/**
 * Fuzz drill, command-line half: generated command lines for every `qk` command (read from the CLI's command
 * tree) against a live service. Most run in this process through runCli (a process each would allow a few
 * hundred cases, not tens of thousands); every 200th runs as a real `qk` process. Judged: an exit code of
 * CLI.md (0–3), with --json exactly one JSON document (the error document on failure), no INTERNAL error, no
 * stack trace, no hang, the service alive, and a failed command changes nothing (state digest).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { buildProgram, runCli, type CliIo } from '@qk/cli';
import { qkBin } from '../helpers/service-harness.js';
import { cliCaseArbitrary, commandSpecs, type CliCase } from './fuzz/cli-args.js';
import { FuzzTarget, preview } from './fuzz/fuzz-target.js';
import { count, reportFigures } from './support/figures.js';
import { Random } from './support/random.js';
import { sized } from './support/size.js';

const CASES = Number(process.env['QK_FUZZ_CASES'] ?? sized(500, 10_000));
/** The drill is bounded in time: on a machine too busy to run every case in this long, it says how many ran. */
const TIME_BUDGET_MS = sized(10, 30) * 60_000;
const TIDY_EVERY = 150;
const REAL_PROCESS_EVERY = 200;
const CASE_TIMEOUT_MS = 20_000;

const target = new FuzzTarget();
const tempDir = mkdtempSync(join(tmpdir(), 'qk-cli-fuzz-'));
const emptyDir = join(tempDir, 'no-service');
mkdirSync(emptyDir);
mkdirSync(join(tempDir, 'out'));
writeFileSync(join(tempDir, 'body.txt'), 'a body from a file\n');
writeFileSync(join(tempDir, 'empty.bin'), '');
// qk runs in this process: a relative file name it is given must land in the temp folder, never the checkout.
const checkout = process.cwd();
process.chdir(tempDir);
afterAll(async () => {
  process.chdir(checkout);
  await target.dispose();
  rmSync(tempDir, { recursive: true, force: true });
});

interface Ran {
  code: number | 'hang';
  stdout: string;
  stderr: string;
}

function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, QK_DATA: target.service.dataDir, XDG_DATA_HOME: tempDir };
  delete env['QK_SERVICE'];
  delete env['QK_TOKEN'];
  return env;
}

async function inProcess(argv: string[]): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: environment() };
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), CASE_TIMEOUT_MS)));
  const code = await Promise.race([runCli(argv, io), hang]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

function asProcess(argv: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [qkBin, ...argv], { cwd: tempDir, env: environment() });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const timer = setTimeout(() => child.kill('SIGKILL'), CASE_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 'hang', stdout, stderr });
    });
  });
}

/** `settings set LongLiveTime N` with N under a day would make messages expire mid-run (see FuzzTarget). */
function withoutShortTimers(argv: string[]): string[] {
  const at = argv.findIndex((a, i) => a === 'set' && argv[i - 1] === 'settings');
  const value = Number(argv[at + 2]);
  if (at < 0 || argv[at + 1]?.toLowerCase() !== 'longlivetime' || !(value >= 0 && value < 86_400)) return argv;
  return argv.map((a, i) => (i === at + 2 ? '86400' : a));
}

/**
 * `receive --follow` streams until it is interrupted, by design (issue 11): a case could only hang, and an
 * in-process run left behind would go on taking messages under later digests. Its own tests cover it.
 */
function withoutFollow(argv: string[]): string[] {
  return argv.filter((a) => a !== '--follow' && !a.startsWith('--follow='));
}

/** What is wrong with one run's output, if anything. */
function outputProblem(c: CliCase, ran: Ran): { kind: 'bad-exit' | 'malformed' | 'internal'; detail: string } | null {
  if (ran.code === 'hang') return null;
  if (![0, 1, 2, 3].includes(ran.code)) return { kind: 'bad-exit', detail: `exit ${ran.code}: ${ran.stderr}` };
  if (/\n\s+at .+:\d+:\d+/.test(ran.stderr))
    return { kind: 'malformed', detail: `stack trace on stderr: ${ran.stderr}` };
  if (ran.code !== 0 && ran.stderr.trim() === '')
    return { kind: 'malformed', detail: `exit ${ran.code} with nothing on stderr` };
  if (!c.json) return null;
  const stream = ran.code === 0 ? ran.stdout : ran.stderr;
  let doc: unknown;
  try {
    doc = JSON.parse(stream);
  } catch {
    return { kind: 'malformed', detail: `--json exit ${ran.code} but not one JSON document: ${stream}` };
  }
  if (ran.code === 0) return null;
  const error = (doc as { error?: { code?: unknown; message?: unknown } }).error;
  if (typeof error?.code !== 'string' || typeof error.message !== 'string' || error.message === '') {
    return { kind: 'malformed', detail: `error document without code and message: ${stream}` };
  }
  if (error.code === 'INTERNAL') return { kind: 'internal', detail: error.message };
  return null;
}

test('fuzz drill: generated command lines for every qk command — CLI.md exit codes and documents, no crash, a failure changes nothing', async () => {
  const started = Date.now();
  const random = Random.fromEnv();
  await target.start();
  const calibration = await target.calibrate();
  expect(calibration.light, 'the state digest must see one more message').not.toBeNull();
  expect(calibration.full, 'the full state digest must see one more message').not.toBeNull();
  const specs = commandSpecs(buildProgram({ stdout: () => undefined, stderr: () => undefined, env: {} }));
  const reach = { dataDir: target.service.dataDir, emptyDir, url: target.service.url };
  const exits: Record<string, number> = {};
  const perCommand: Record<string, number> = {};
  let n = 0;
  let realProcesses = 0;
  const deadline = Date.now() + TIME_BUDGET_MS;

  await fc.assert(
    fc.asyncProperty(cliCaseArbitrary(specs, reach, tempDir), async (c) => {
      // Past the time budget the remaining cases are skipped, and the figures say how many ran.
      if (Date.now() > deadline) return true;
      n += 1;
      if (n % TIDY_EVERY === 0) await target.tidy();
      perCommand[c.command] = (perCommand[c.command] ?? 0) + 1;
      try {
        // --service cases must reach this run's service: its URL changes if it had to be restarted.
        const argv = withoutFollow(withoutShortTimers(c.argv.map((a) => (a === reach.url ? target.service.url : a))));
        const before = await target.before(c.writes && c.mode === 'valid');
        // The OS passes arguments as C strings: a NUL byte cannot reach a real process, only the in-process run.
        const real = n % REAL_PROCESS_EVERY === 0 && !argv.some((a) => a.includes('\0'));
        const ran = real ? await asProcess(argv) : await inProcess(argv);
        if (real) realProcesses += 1;
        exits[String(ran.code)] = (exits[String(ran.code)] ?? 0) + 1;
        target.stats.cases += 1;
        const shown = argv.join(' ');
        if (ran.code === 'hang') target.finding('no-reply', c.command, shown, `no exit within ${CASE_TIMEOUT_MS} ms`);
        const problem = outputProblem(c, ran);
        if (problem) target.finding(problem.kind, c.command, shown, problem.detail);
        if (!target.service.running) {
          target.finding('crash', c.command, shown, preview(ran.stderr));
          target.stateMayHaveChanged();
          await target.start();
        } else if (ran.code === 0 || ran.code === 'hang') {
          target.stateMayHaveChanged();
        } else {
          await target.checkUnchanged(c.command, shown, before);
        }
      } catch (error) {
        target.finding('threw', c.command, c.argv.join(' '), preview(String(error)));
        target.stateMayHaveChanged();
        if (!target.service.running) await target.start();
      }
      return true;
    }),
    { numRuns: CASES, seed: random.seed | 0, endOnFailure: true },
  );
  const status = await target.api.call('serviceStatus', {});

  const findings = target.findings;
  const byKind = (kind: string): number => findings.filter((f) => f.kind === kind).length;
  reportFigures({
    drill: 'fuzz-cli',
    title: 'Fuzz: qk command lines',
    tried: `generated command lines (valid, boundary and hostile arguments and options, shell mistakes) for ${specs.length} qk commands against a live service`,
    often: `${count(target.stats.cases)} command lines (${realProcesses} as real processes)`,
    lost: `${byKind('state-changed')} failed commands that changed state`,
    crashed: `${target.stats.crashes} crashes, ${byKind('internal')} INTERNAL errors`,
    holds: findings.length === 0 && status.kind === 'ok' && target.stats.cases >= CASES,
    seed: random.seed,
    durationMs: Date.now() - started,
    figures: {
      'exit codes': Object.entries(exits)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
      'crashes / hangs / INTERNAL': `${target.stats.crashes} / ${byKind('no-reply')} / ${byKind('internal')}`,
      'exit codes outside CLI.md / malformed output': `${byKind('bad-exit')} / ${byKind('malformed')}`,
      'failed commands that changed state': byKind('state-changed'),
      'harness errors': byKind('threw'),
      'commands covered': `${Object.keys(perCommand).length} of ${specs.length}`,
    },
  });

  expect(findings.slice(0, 15), `${findings.length} findings (first 15)`).toEqual([]);
  expect(status.kind).toBe('ok');
  expect(Object.keys(perCommand).length).toBe(specs.length);
  expect(realProcesses).toBeGreaterThan(0);
  expect(target.stats.cases, `command lines run within ${TIME_BUDGET_MS / 60_000} min`).toBeGreaterThanOrEqual(CASES);
});
