/**
 * Section `ui`: the console's own figures, from `bench/ui.ts` when the console engineer has written it
 * (exporting `runUiBench(): Promise<Record<string, number>>`). It is bundled here, at run time, with the
 * same options as the bench itself, because a missing file cannot be a static import.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Results, Target } from './results.js';

const SECTION = 'ui';

/** A unit from the figure's name: `…Ms`/`…_ms` → ms, `…Fps` → fps, `…MB` → MB; else a bare number. */
function unitOf(name: string): string {
  if (/ms$/i.test(name)) return 'ms';
  if (/fps$/i.test(name)) return 'fps';
  if (/mb$/i.test(name)) return 'MB';
  return '';
}

function targetOf(name: string, unit: string): Target | null {
  if (/frame/i.test(name) && unit === 'ms') return { op: '<=', value: 16.7, source: 'one frame at 60 fps' };
  return null;
}

export async function runUi(root: string, results: Results, quick: boolean): Promise<void> {
  const entry = join(root, 'bench/ui.ts');
  if (!existsSync(entry)) {
    console.log('  bench/ui.ts does not exist (yet): no console figures');
    return;
  }
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
    logLevel: 'warning',
    banner: { js: "import { createRequire as __qkCreateRequire } from 'node:module'; const require = __qkCreateRequire(import.meta.url);" },
  });
  const mod = (await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)) as { runUiBench?: (options?: { quick?: boolean }) => Promise<Record<string, number>> };
  if (typeof mod.runUiBench !== 'function') throw new Error('bench/ui.ts does not export runUiBench()');
  const figures = await mod.runUiBench({ quick });
  for (const [name, value] of Object.entries(figures)) {
    const unit = unitOf(name);
    results.add(SECTION, `console: ${name}`, value, unit, 'bench/ui.ts runUiBench()', targetOf(name, unit));
  }
}
