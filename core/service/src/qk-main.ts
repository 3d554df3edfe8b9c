/**
 * Entry point of the `qk` bundle (dist/cli/qk.mjs): the CLI, given the one thing only the service layer can
 * do — run a service in this process for `qk service start` — so the CLI layer never imports this one.
 */
import { processIo, runCli } from '@qk/cli';
import { serviceStarter } from './service-starter.js';

// exitCode rather than exit(): stdout may still be flushing a large document into a pipe.
process.exitCode = await runCli(process.argv.slice(2), { ...processIo, serviceStarter });
