// Bundles the Node parts: the `qk` CLI, and (when their sources exist) the Electron main/preload and the bench.
// Run with `npm run build:node`. `@qk/*` aliases resolve through tsconfig.base.json; npm packages stay external.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const at = (path) => join(root, path);

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  tsconfig: at('tsconfig.base.json'),
  define: { __QK_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
};

// ESM bundles of CommonJS-minded code may call require(); give them one.
const requireBanner = "import { createRequire as __qkCreateRequire } from 'node:module'; const require = __qkCreateRequire(import.meta.url);";

const jobs = [
  {
    name: 'cli',
    entry: 'core/cli/src/main.ts',
    options: { format: 'esm', packages: 'external', outfile: at('dist/cli/qk.mjs'), banner: { js: requireBanner } },
  },
  {
    name: 'electron main',
    entry: 'electron/main.ts',
    options: { format: 'cjs', external: ['electron', 'better-sqlite3'], outfile: at('dist/electron/main.cjs') },
  },
  {
    name: 'electron preload',
    entry: 'electron/preload.ts',
    options: { format: 'cjs', external: ['electron'], outfile: at('dist/electron/preload.cjs') },
  },
  {
    name: 'bench',
    entry: 'bench/run.ts',
    options: { format: 'esm', packages: 'external', outfile: at('dist/bench/run.mjs'), banner: { js: requireBanner } },
  },
];

let built = 0;
for (const job of jobs) {
  if (!existsSync(at(job.entry))) {
    if (job.name === 'cli') throw new Error(`${job.entry} is missing`);
    continue;
  }
  const started = Date.now();
  try {
    await build({ ...common, ...job.options, entryPoints: [at(job.entry)] });
  } catch {
    // esbuild has printed the errors with their locations already.
    console.error(`esbuild: ${job.name} failed`);
    process.exit(1);
  }
  console.log(`built ${job.name}: ${job.options.outfile.slice(root.length + 1)} (${Date.now() - started} ms)`);
  built++;
}
console.log(`esbuild: ${built} bundle${built === 1 ? '' : 's'}`);
