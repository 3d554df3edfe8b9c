/**
 * `npm run bench`: throughput, latency, paging, memory and semantics costs of Queuekeeper, in-process and
 * through the real service, against the targets of the performance brief. Prints a table and writes
 * bench/results.json. See bench/README.md.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, installExitHandlers } from './lib/cleanup.js';
import { parseArgs, SECTIONS, USAGE, UsageError, type Options, type Section } from './lib/config.js';
import { runEngine } from './lib/engine.js';
import { currentLoad, machineInfo, sourceInfo } from './lib/machine.js';
import { runMemory } from './lib/memory.js';
import { runNetwork } from './lib/network-bench.js';
import { runPaging } from './lib/paging.js';
import { Results } from './lib/results.js';
import { runExpiry, runSemantics } from './lib/semantics.js';
import { runService } from './lib/service-bench.js';
import { now } from './lib/stats.js';
import { runUi } from './lib/ui.js';
import { runWorkloads } from './lib/workloads/run-workloads.js';

/** The repository: this file is bundled to dist/bench/run.mjs. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface SectionContext {
  root: string;
  options: Options;
  results: Results;
}

const runners: Record<Section, (ctx: SectionContext) => Promise<void>> = {
  engine: (ctx) => runEngine(ctx.results, ctx.options.counts),
  service: (ctx) => runService(ctx.root, ctx.results, ctx.options.counts),
  network: (ctx) => runNetwork(ctx.root, ctx.results, ctx.options.counts),
  workloads: (ctx) => {
    const { counts, workloads } = ctx.options;
    const [maxMessages, maxSeconds, bodyBytes] = workloads.args ?? [
      counts.workloadMessages,
      counts.workloadSeconds,
      200,
    ];
    const out = workloads.out ?? join(ctx.root, `bench/results.workloads${ctx.options.quick ? '.quick' : ''}.json`);
    return runWorkloads(ctx.root, ctx.results, { ...workloads, out, maxMessages, maxSeconds, bodyBytes });
  },
  paging: (ctx) => runPaging(ctx.root, ctx.results, ctx.options.counts),
  memory: (ctx) => runMemory(ctx.root, ctx.results, ctx.options.counts),
  semantics: (ctx) => runSemantics(ctx.results, ctx.options.counts),
  expiry: (ctx) => runExpiry(ctx.results, ctx.options.counts),
  ui: (ctx) => runUi(ctx.root, ctx.results, ctx.options.quick),
};

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(error.message);
    console.error(USAGE);
    return error.message ? 2 : 0;
  }
  installExitHandlers();
  const needsService = ['service', 'network', 'workloads', 'paging', 'memory'].some((s) =>
    options.only.has(s as Section),
  );
  if (needsService && !existsSync(join(root, 'dist/cli/qk.mjs'))) {
    console.error('dist/cli/qk.mjs is missing: run `npm run build:node` first (npm run bench does).');
    return 1;
  }

  const machine = machineInfo();
  const source = sourceInfo(root);
  const results = new Results();
  console.log(`Queuekeeper bench${options.quick ? ' (--quick: small counts, a smoke check)' : ''}`);
  console.log(
    `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGB} GB, Node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')}; commit ${source.commit}${source.coreDirty ? ' (core/ has uncommitted changes)' : ''}`,
  );
  const started = now();
  const durations: Record<string, number> = {};
  try {
    for (const section of SECTIONS) {
      if (!options.only.has(section)) continue;
      console.log(`\n== ${section} ==`);
      const t0 = now();
      try {
        await runners[section]({ root, options, results });
      } catch (error) {
        results.fail(section, error);
      } finally {
        // Every section leaves nothing running for the next one.
        await cleanup();
      }
      durations[section] = Math.round((now() - t0) / 100) / 10;
      console.log(`   (${durations[section]} s)`);
    }
  } finally {
    await cleanup();
  }

  console.log(`\n${results.table()}`);
  if (options.markdown) console.log(`\n${results.markdown()}`);
  if (results.errors.length > 0)
    console.log(`\n${results.errors.length} section(s) failed: ${results.errors.map((e) => e.section).join(', ')}`);
  const out = options.out ?? join(root, options.quick ? 'bench/results.quick.json' : 'bench/results.json');
  results.write(out, {
    machine: { ...machine, loadAverageAtEnd: currentLoad() },
    source,
    mode: options.quick ? 'quick' : 'full',
    sections: [...options.only],
    sectionSeconds: durations,
    totalSeconds: Math.round((now() - started) / 100) / 10,
    bodyBytes: 200,
  });
  console.log(`\nwrote ${out} (${Math.round((now() - started) / 1000)} s in all)`);
  return results.errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  },
);
