// `npm run docs:cli`: rewrites docs/cli.md from qk's command definitions (build/cli-reference.ts), keeping its
// hand-written blocks. The generator is TypeScript that imports core/cli, so it is bundled first (esbuild, as
// the other Node bundles are) into dist/docs/, where the packages it leaves external resolve.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist/docs/cli-reference.mjs');
await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'build/cli-reference.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  tsconfig: join(root, 'tsconfig.base.json'),
  outfile,
  logLevel: 'warning',
});
const { renderCliReference, keptBlocks } = await import(pathToFileURL(outfile).href);
const target = join(root, 'docs/cli.md');
let existing = '';
try {
  existing = readFileSync(target, 'utf8');
} catch {
  // First run: every hand-written block starts empty.
}
const next = renderCliReference(existing);
const dropped = [...keptBlocks(existing).keys()].filter((name) => !keptBlocks(next).has(name));
for (const name of dropped) console.warn(`docs/cli.md: dropped the hand-written block ${name} (its command is gone)`);
if (next === existing) console.log('docs/cli.md is up to date.');
else {
  writeFileSync(target, next);
  console.log('docs/cli.md rewritten.');
}
