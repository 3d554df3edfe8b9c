/** Entry point of the `qk` bundle (dist/cli/qk.mjs). */
import { runCli } from './run-cli.js';

// exitCode rather than exit(): stdout may still be flushing a large document into a pipe.
process.exitCode = await runCli(process.argv.slice(2));
