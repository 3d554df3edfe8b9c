#!/usr/bin/env node
/**
 * The reliability table from a drills results file.
 *   node test/drills/report.mjs [RESULTS]                 prints it (default: artifacts/drills/results.json)
 *   node test/drills/report.mjs [RESULTS] --write FILE    replaces the part of FILE between the markers
 *                                                          <!-- drills:begin --> and <!-- drills:end -->
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BEGIN = '<!-- drills:begin -->';
const END = '<!-- drills:end -->';

/** The order drills appear in the table; others follow alphabetically. */
const ORDER = ['crash', 'transport', 'fuzz-api', 'fuzz-cli', 'storage', 'soak', 'lock-race'];

function cell(value) {
  return String(value ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
}

/** Markdown for the entries: the summary table, then each drill's detailed figures. */
export function renderReport(results) {
  const entries = [...(results.entries ?? [])].sort((a, b) => {
    const ia = ORDER.indexOf(a.drill);
    const ib = ORDER.indexOf(b.drill);
    if (ia !== ib) return (ia < 0 ? ORDER.length : ia) - (ib < 0 ? ORDER.length : ib);
    return a.drill.localeCompare(b.drill);
  });
  if (entries.length === 0) return '_No drill has recorded figures yet: run `npm run drills`._\n';
  const lines = [
    '| Drill | What was tried | How often | Lost | Crashed | Holds | Run |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const e of entries) {
    const run = `${e.mode}, ${cell(e.commit)}, ${String(e.finishedAt ?? '').slice(0, 10)}`;
    lines.push(
      `| ${cell(e.title)} | ${cell(e.tried)} | ${cell(e.often)} | ${cell(e.lost)} | ${cell(e.crashed)} | ${e.holds ? 'yes' : '**no**'} | ${run} |`,
    );
  }
  for (const e of entries) {
    lines.push(
      '',
      `**${cell(e.title)}** (${e.machine ?? ''}${e.durationMs ? `, ${(e.durationMs / 1000).toFixed(0)} s` : ''}${e.seed !== undefined ? `, seed ${e.seed}` : ''})`,
      '',
    );
    for (const [key, value] of Object.entries(e.figures ?? {})) lines.push(`- ${key}: ${cell(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function printReport(path) {
  if (!existsSync(path)) {
    process.stdout.write(`\nNo drill figures in ${path}.\n`);
    return;
  }
  process.stdout.write(`\nDrill figures (${path}):\n\n${renderReport(JSON.parse(readFileSync(path, 'utf8')))}`);
}

function main() {
  const args = process.argv.slice(2);
  const writeAt = args.indexOf('--write');
  const target = writeAt >= 0 ? args[writeAt + 1] : undefined;
  const rest = args.filter((_, i) => writeAt < 0 || (i !== writeAt && i !== writeAt + 1));
  const path = rest[0] ?? join(root, 'artifacts', 'drills', 'results.json');
  if (!target) return printReport(path);
  const markdown = renderReport(JSON.parse(readFileSync(path, 'utf8')));
  const doc = readFileSync(target, 'utf8');
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${target} has no ${BEGIN} … ${END} section`);
  writeFileSync(target, `${doc.slice(0, begin + BEGIN.length)}\n${markdown}${doc.slice(end)}`);
  process.stdout.write(`wrote the drills table into ${target}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
