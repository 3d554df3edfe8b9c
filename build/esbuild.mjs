// Bundles the Node parts: the `qk` CLI, and (when their sources exist) the Electron main/preload and the bench.
// Run with `npm run build:node`. `@qk/*` aliases resolve through tsconfig.base.json; npm packages stay external.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

// The Electron main bundle is CJS and has no import.meta: give import.meta.url its real value so ESM-minded
// code (findConsoleDir) works. Not the preload: a sandboxed preload's require() offers no node:url.
const cjsImportMeta = {
  banner: { js: "const __qkImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__qkImportMetaUrl' },
};

// ESM bundles of CommonJS-minded code may call require(); give them one.
const requireBanner =
  "import { createRequire as __qkCreateRequire } from 'node:module'; const require = __qkCreateRequire(import.meta.url);";

const jobs = [
  {
    name: 'cli',
    entry: 'bin/qk-entry.ts',
    // Split so that `service start` alone loads the HTTP server and the engine: every other command starts faster.
    options: {
      format: 'esm',
      packages: 'external',
      splitting: true,
      outdir: at('dist/cli'),
      entryNames: 'qk',
      chunkNames: 'chunks/[name]-[hash]',
      outExtension: { '.js': '.mjs' },
      banner: { js: requireBanner },
    },
    output: 'dist/cli/qk.mjs',
  },
  {
    name: 'data folder',
    entry: 'bin/data-folder.ts',
    // npm start reads the data folder through this (build/start.mjs): one definition of the folder and of a live service.
    options: { format: 'esm', packages: 'external', outfile: at('dist/cli/data-folder.mjs') },
  },
  {
    name: 'electron main',
    entry: 'electron/main.ts',
    options: {
      format: 'cjs',
      external: ['electron', 'better-sqlite3'],
      outfile: at('dist/electron/main.cjs'),
      ...cjsImportMeta,
    },
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

/** Chunk names carry a content hash, so every rebuild leaves the previous ones behind: remove those. */
function removeStaleChunks(outdir, metafile) {
  const chunks = join(outdir, 'chunks');
  if (!existsSync(chunks)) return;
  const current = new Set(Object.keys(metafile.outputs).map((file) => join(root, file)));
  for (const file of readdirSync(chunks)) {
    if (!current.has(join(chunks, file))) rmSync(join(chunks, file), { force: true });
  }
}

let built = 0;
const failed = [];
for (const job of jobs) {
  if (!existsSync(at(job.entry))) {
    if (job.name === 'cli') throw new Error(`${job.entry} is missing`);
    continue;
  }
  const started = Date.now();
  try {
    const define = { ...common.define, ...job.options.define };
    const result = await build({ ...common, ...job.options, define, entryPoints: [at(job.entry)], metafile: true });
    if (job.options.splitting) removeStaleChunks(job.options.outdir, result.metafile);
  } catch {
    // esbuild has printed the errors with their locations already; build the other bundles, fail at the end.
    console.error(`esbuild: ${job.name} failed`);
    failed.push(job.name);
    continue;
  }
  console.log(
    `built ${job.name}: ${job.output ?? job.options.outfile.slice(root.length + 1)} (${Date.now() - started} ms)`,
  );
  built++;
}
console.log(
  `esbuild: ${built} bundle${built === 1 ? '' : 's'}${failed.length ? `, failed: ${failed.join(', ')}` : ''}`,
);
if (failed.length) process.exitCode = 1;
