/**
 * Entry point of the `qk` bundle (dist/cli/qk.mjs): the CLI, given the one thing only the service layer can
 * do — run a service in this process for `qk service start` — so the CLI layer never imports this one.
 */
import { processIo, runCli } from '@qk/cli';
import { serviceStarter } from './service-starter.js';

const code = await runCli(process.argv.slice(2), { ...processIo, serviceStarter });
// Exit once stdout and stderr have flushed (a large document may still be going into a pipe) rather than
// wait for idle keep-alive connections to time out, which cost every qk call a fifth of a second.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
