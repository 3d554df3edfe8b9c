#!/usr/bin/env node
// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): where the time went, by function (self and total)
// by file, and the hot lines of one function. Usage:
//   node bench/lib/profile-summary.mjs FILE.cpuprofile [--top N] [--filter TEXT] [--lines FUNCTION] [--focus FUNCTION]
// --focus keeps only the samples with FUNCTION on the stack (e.g. one operation's handler).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const file = args[0] && !args[0].startsWith('--') ? args[0] : undefined;
const top = Number(args[args.indexOf('--top') + 1]) || 25;
const filter = args.includes('--filter') ? args[args.indexOf('--filter') + 1] : null;
const linesOf = args.includes('--lines') ? args[args.indexOf('--lines') + 1] : null;
const focus = args.includes('--focus') ? args[args.indexOf('--focus') + 1] : null;
if (!file) {
  console.error('usage: node bench/lib/profile-summary.mjs FILE.cpuprofile [--top N] [--filter TEXT]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from the sample deltas.
const onStack = (id, name) => {
  for (let cur = id; cur !== undefined; cur = parent.get(cur))
    if (nodes.get(cur).callFrame.functionName === name) return true;
  return false;
};
const self = new Map();
profile.samples.forEach((id, i) => {
  if (focus && !onStack(id, focus)) return;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
});
const totalMs = [...self.values()].reduce((a, b) => a + b, 0);

const short = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\//, 'nm:')
    .replace(/.*\/work\/main\//, '');
const key = (n) =>
  `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const selfBy = new Map();
const totalBy = new Map();
const fileBy = new Map();
for (const [id, ms] of self) {
  const n = nodes.get(id);
  selfBy.set(key(n), (selfBy.get(key(n)) ?? 0) + ms);
  const f = short(n.callFrame.url) || `(${n.callFrame.functionName})`;
  fileBy.set(f, (fileBy.get(f) ?? 0) + ms);
  // Inclusive: every distinct frame on the stack gets the sample once.
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(nodes.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    totalBy.set(k, (totalBy.get(k) ?? 0) + ms);
  }
}
const show = (title, map) => {
  console.log(`\n${title}`);
  [...map.entries()]
    .filter(([k]) => !filter || k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, ms]) =>
      console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${k}`),
    );
};
console.log(`${file}: ${totalMs.toFixed(0)} ms sampled${focus ? ` with ${focus} on the stack` : ''}`);
show('self time by function', selfBy);
show('total time by function (inclusive)', totalBy);
show('self time by file', fileBy);

if (linesOf) {
  // Samples per source line of the function (V8 positionTicks), with the line's text.
  const ticks = new Map();
  let url = '';
  for (const n of profile.nodes) {
    if (n.callFrame.functionName !== linesOf || !n.positionTicks) continue;
    url = n.callFrame.url;
    for (const t of n.positionTicks) ticks.set(t.line, (ticks.get(t.line) ?? 0) + t.ticks);
  }
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const text = existsSync(path) ? readFileSync(path, 'utf8').split('\n') : [];
  const sum = [...ticks.values()].reduce((a, b) => a + b, 0);
  console.log(`\nhot lines of ${linesOf} (${short(url)}), ${sum} self samples`);
  [...ticks.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([line, n]) =>
      console.log(
        `${String(n).padStart(7)} ${((n / sum) * 100).toFixed(1).padStart(5)}%  ${String(line).padStart(6)}: ${(text[line - 1] ?? '').trim().slice(0, 140)}`,
      ),
    );
}
