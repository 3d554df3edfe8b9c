/**
 * A drill's figures: printed when it ends, and kept in a JSON results file (one entry per drill, the latest
 * run of each) from which `node test/drills/report.mjs` writes the table of docs/reliability.md.
 * A drill reports before it asserts, so a run that fails still leaves its figures behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../helpers/service-harness.js';
import { drillMode } from './size.js';

export type Figure = number | string | boolean | null;

/** What a drill reports: the four columns of the reliability table, and its detailed figures. */
export interface DrillReport {
  /** Short key, e.g. `crash`; a later report of the same key replaces the earlier one. */
  drill: string;
  title: string;
  /** What was tried, in a sentence. */
  tried: string;
  /** How often, e.g. "20 trials, 4,210 calls". */
  often: string;
  /** Messages lost (confirmed and gone), or what was lost in the drill's own terms. */
  lost: Figure;
  /** Unplanned process exits or 5xx answers. */
  crashed: Figure;
  /** Whether the drill's conditions held (the same ones it asserts). */
  holds: boolean;
  figures: Record<string, Figure>;
  seed?: number;
  durationMs?: number;
}

export interface ResultsEntry extends DrillReport {
  mode: string;
  finishedAt: string;
  commit: string;
  machine: string;
}

export interface ResultsFile {
  entries: ResultsEntry[];
}

/**
 * Where figures go: QK_DRILLS_RESULTS, else artifacts/drills/ (ignored by git: a run must not dirty the checkout;
 * docs/reliability.md is the record kept in the repository, written from this file on purpose).
 */
export function resultsPath(): string {
  const fromEnv = process.env['QK_DRILLS_RESULTS'];
  if (fromEnv) return fromEnv;
  return join(repoRoot, 'artifacts', 'drills', drillMode === 'full' ? 'results.json' : 'results.short.json');
}

function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: repoRoot,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'unknown';
  }
}

function readResults(path: string): ResultsFile {
  if (!existsSync(path)) return { entries: [] };
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ResultsFile>;
    return { entries: Array.isArray(parsed.entries) ? parsed.entries : [] };
  } catch {
    return { entries: [] };
  }
}

/** Prints the figures and records them; returns the entry written. */
export function reportFigures(report: DrillReport): ResultsEntry {
  const entry: ResultsEntry = {
    ...report,
    mode: drillMode,
    finishedAt: new Date().toISOString(),
    commit: commitOf(),
    machine: `${cpus().length} cores, Node ${process.versions.node}`,
  };
  const path = resultsPath();
  mkdirSync(dirname(path), { recursive: true });
  const results = readResults(path);
  results.entries = [...results.entries.filter((e) => e.drill !== entry.drill), entry];
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  console.log(formatReport(entry));
  return entry;
}

/** The figures as a block of aligned lines. */
export function formatReport(entry: ResultsEntry): string {
  const rows: [string, string][] = [
    ['tried', entry.tried],
    ['how often', entry.often],
    ['lost', String(entry.lost)],
    ['crashed', String(entry.crashed)],
    ...Object.entries(entry.figures).map(([key, value]): [string, string] => [key, String(value)]),
  ];
  if (entry.seed !== undefined) rows.push(['seed', `${entry.seed} (QK_DRILLS_SEED=${entry.seed} replays it)`]);
  if (entry.durationMs !== undefined) rows.push(['duration', `${(entry.durationMs / 1000).toFixed(1)} s`]);
  const width = Math.max(...rows.map(([key]) => key.length));
  const verdict = entry.holds ? 'holds' : 'DOES NOT HOLD';
  return [
    `── drill ${entry.drill} (${entry.mode}): ${entry.title} — ${verdict}`,
    ...rows.map(([key, value]) => `   ${key.padEnd(width)}  ${value}`),
  ].join('\n');
}

/** A number with thousands separators, for `often` sentences. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
