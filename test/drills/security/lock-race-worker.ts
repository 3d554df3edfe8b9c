/**
 * One contender of the lock race (lock-race.test.ts), run as its own process: waits for the start signal,
 * then tries to take the data-folder lock `attempts` times. Whenever it holds the lock it writes `+pid` and,
 * a moment later, `-pid` to a shared log (O_APPEND: each line lands whole, in the order the writes happened),
 * so two holders at once show as two `+` without a `-` between them. With `crash`, it ends its last hold by
 * writing `x` and exiting without releasing, as a crash would. With `hold`, it takes the lock once, says
 * `held` and waits to be killed.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { acquireDataLock } from '../../../core/service/src/host/data-lock.js';

const [dataDir, logFile, goFile, attemptsText, mode] = process.argv.slice(2);
if (!dataDir || !logFile || !goFile || !attemptsText) throw new Error('usage: DIR LOG GO ATTEMPTS [crash|hold]');
const attempts = Number(attemptsText);
const crash = mode === 'crash';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (mode === 'hold') {
  acquireDataLock(dataDir);
  process.stdout.write('held\n');
  setInterval(() => undefined, 60_000);
  await new Promise(() => undefined);
}

while (!existsSync(goFile)) await pause(2);
let held = 0;
let refused = 0;
// A crashing contender goes on past its attempts until it holds once more, then dies holding.
const limit = crash ? attempts + 5_000 : attempts;
for (let attempt = 0; attempt < limit; attempt++) {
  let lock;
  try {
    lock = acquireDataLock(dataDir);
  } catch (error) {
    if ((error as { code?: string }).code !== 'SERVICE_ALREADY_RUNNING') throw error;
    refused++;
    await pause(Math.random() * 3);
    continue;
  }
  held++;
  appendFileSync(logFile, `+${process.pid}\n`);
  await pause(1 + Math.random() * 3);
  if (crash && attempt >= attempts - 1) {
    appendFileSync(logFile, `x${process.pid}\n`);
    process.stdout.write(`${JSON.stringify({ held, refused, crashed: true })}\n`);
    process.exit(0);
  }
  appendFileSync(logFile, `-${process.pid}\n`);
  lock.release();
  await pause(Math.random() * 3);
}
process.stdout.write(`${JSON.stringify({ held, refused, crashed: false })}\n`);
