#!/usr/bin/env node
/**
 * `npm run drills` (after the build): every drill at full size (QK_DRILLS=full), one worker, figures into
 * artifacts/drills/results.json (ignored by git), and the table of docs/reliability.md printed at the end.
 * Arguments go to Vitest: `npm run drills -- crash` runs only the files whose names contain "crash".
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printReport } from './report.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const env = { ...process.env, QK_DRILLS: 'full' };
const args = ['run', '--config', 'build/vitest.config.ts', '--project', 'drills', ...process.argv.slice(2)];
const run = spawnSync(process.execPath, [vitest, ...args], { cwd: root, env, stdio: 'inherit' });
printReport(env.QK_DRILLS_RESULTS ?? join(root, 'artifacts', 'drills', 'results.json'));
process.exit(run.status ?? 1);
