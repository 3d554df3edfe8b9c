/**
 * Entry of the `qk` bundle (dist/cli/qk.mjs, built by build/esbuild.mjs; bin/qk.mjs launches it). The
 * composition root: the CLI (core/cli) given the service starter, which only this layer may join to it.
 */
import { runQkProcess } from '@qk/cli';
import { serviceStarter } from './service-starter.js';

await runQkProcess({ serviceStarter });
