#!/usr/bin/env node
// Launcher of the `qk` command: runs the bundle built by `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/cli/qk.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('qk is not built yet: run npm run build\n');
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
