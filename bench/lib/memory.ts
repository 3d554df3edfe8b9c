/** Section `memory`: resident memory of the service process holding a million recoverable messages. */
import { tempFolder } from './cleanup.js';
import type { Counts } from './config.js';
import type { Results, Target } from './results.js';
import { startService } from './service.js';
import { fillThroughService } from './service-bench.js';
import { rate, sleep } from './stats.js';

const SECTION = 'memory';
const RSS_TARGET: Target = { op: '<=', value: 200 };

export async function runMemory(root: string, results: Results, counts: Counts): Promise<void> {
  const total = counts.bigQueue;
  const svc = await startService(root, tempFolder('memory'));
  try {
    await sleep(1_000);
    results.add(
      SECTION,
      'service RSS, idle and empty',
      svc.memory().rssMB,
      'MB',
      'VmRSS of the service process 1 s after ready',
    );
    const client = await svc.client();
    const path = '.\\private$\\big';
    await client.queueCreate({ path });
    const ms = await fillThroughService(client, path, 'recoverable', total, 1_000, 4);
    results.add(
      SECTION,
      `service fill of the ${total.toLocaleString('en-US')} queue`,
      rate(total, ms),
      'msg/s',
      '1 client, recoverable, sendBatch of 1,000, 4 in flight',
    );
    const shown = await client.queueShow({ path });
    if (shown.messageCount !== total) throw new Error(`the queue holds ${shown.messageCount} of ${total}`);
    await sleep(2_000);
    const { rssMB, peakMB } = svc.memory();
    results.add(
      SECTION,
      `service RSS with ${total.toLocaleString('en-US')} messages stored`,
      rssMB,
      'MB',
      'VmRSS of the service process, 2 s after the fill',
      RSS_TARGET,
    );
    results.add(SECTION, 'service peak RSS during the fill', peakMB, 'MB', 'VmHWM of the service process');
  } finally {
    await svc.stop();
  }
}
