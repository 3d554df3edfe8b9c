/** The heap in use after a full garbage collection: what a test that looks for a leak compares. */
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
