/**
 * A service process as `qk service start` runs it (runService with processOwner), driven through stdin so a
 * test can do what no API call does: reject a promise nobody handles, throw from a timer, or have the store
 * fail as a corrupt one does. Prints `{"ready":…}` when ready, then one line per command done.
 */
import { createInterface } from 'node:readline';
import { runService } from '../../../core/service/src/index.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: DIR');
const running = await runService({
  dataDir,
  listen: { host: '127.0.0.1', port: 0 },
  handleSignals: true,
  processOwner: true,
  terminal: process.stderr,
});
process.stdout.write(`${JSON.stringify({ ready: true, url: running.url, pid: process.pid })}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (command) => {
  // The point of this command: a rejection nobody handles, which the service's guard must log and survive.
  // eslint-disable-next-line @typescript-eslint/no-floating-promises
  if (command === 'reject') Promise.reject(new Error('a promise nobody waits for failed'));
  else if (command === 'throw')
    setTimeout(() => {
      throw new RangeError('a timer threw');
    });
  else if (command === 'corrupt')
    setTimeout(() => {
      throw Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    });
  setTimeout(() => process.stdout.write(`done ${command}\n`), 50);
});
