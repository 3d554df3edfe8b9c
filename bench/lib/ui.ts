/**
 * Section `ui`: the console's own figures, from `bench/ui.ts` when the console engineer has written it
 * (exporting `runUiBench(): Promise<Record<string, number>>`). It is bundled here, at run time, with the
 * same options as the bench itself, because a missing file cannot be a static import.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import type { Results, Target } from './results.js';

const SECTION = 'ui';

/** A unit from the figure's name: `…Ms`/`…_ms` → ms, `…Fps` → fps, `…MB` → MB; else a bare number. */
function unitOf(name: string): string {
  if (/ms$/i.test(name)) return 'ms';
  if (/fps$/i.test(name)) return 'fps';
  if (/mb$/i.test(name)) return 'MB';
  if (/pct$/i.test(name)) return '%';
  if (/^messages$/i.test(name)) return 'msgs';
  return '';
}

/** The console's own targets (bench/ui.ts: rows painted ≤ 300 ms, median frame ≤ 16 ms). */
function targetOf(name: string, unit: string): Target | null {
  if (unit !== 'ms') return null;
  if (/^selectToRowsPaintedMedian/i.test(name)) return { op: '<=', value: 300, source: 'bench/ui.ts' };
  if (/^scrollFrameMedian/i.test(name)) return { op: '<=', value: 16, source: 'bench/ui.ts' };
  return null;
}

/**
 * Each bundled source file keeps its own `import.meta.url`, as if it ran from source: code that finds the
 * repository relative to itself (test/e2e/support) then works from the bundle too.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes('node_modules')) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      return {
        contents: source.replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      };
    });
  },
};

export async function runUi(root: string, results: Results, quick: boolean): Promise<void> {
  const entry = join(root, 'bench/ui.ts');
  if (!existsSync(entry)) {
    console.log('  bench/ui.ts does not exist (yet): no console figures');
    return;
  }
  // Without the console's build the service serves no console, and the section would time out looking for its tree.
  if (!existsSync(join(root, 'dist/renderer/index.html')))
    throw new Error('the console is not built (dist/renderer/index.html is missing): run `npm run build` first');
  const outfile = join(root, 'dist/bench/ui.mjs');
  mkdirSync(join(root, 'dist/bench'), { recursive: true });
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    tsconfig: join(root, 'tsconfig.base.json'),
    outfile,
    plugins: [ownImportMetaUrl],
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __qkCreateRequire } from 'node:module'; const require = __qkCreateRequire(import.meta.url);",
    },
  });
  const mod = (await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)) as {
    runUiBench?: (options?: { quick?: boolean }) => Promise<Record<string, number>>;
  };
  if (typeof mod.runUiBench !== 'function') throw new Error('bench/ui.ts does not export runUiBench()');
  const figures = await mod.runUiBench({ quick });
  for (const [name, value] of Object.entries(figures)) {
    const unit = unitOf(name);
    results.add(SECTION, `console: ${name}`, value, unit, 'bench/ui.ts runUiBench()', targetOf(name, unit));
  }
}
