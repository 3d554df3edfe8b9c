import { openEngine, freshQueue, fill, receiveBatches, sendBatches } from './lib/engine.js';
import { tempFolder } from './lib/cleanup.js';
const delivery = (process.argv[2] ?? 'express') as 'express' | 'recoverable';
const pre = Number(process.argv[3] ?? 0);
const qm = openEngine(tempFolder('x'));
const n = 50_000;
for (let i = 0; i < pre; i++) {
  const q = freshQueue(qm, `s-${delivery}`);
  await sendBatches(qm, q, delivery, n, 1_000, 1);
  await qm.deleteQueue(q);
}
for (let r = 0; r < 3; r++) {
  const q = freshQueue(qm, `r-${delivery}`);
  await fill(qm, q, delivery, n);
  const t0 = performance.now();
  const { count, ms } = await receiveBatches(qm, q, 1_000);
  console.log(delivery, 'pre', pre, count, Math.round((count / ms) * 1000), 'msg/s');
  await qm.deleteQueue(q);
}
await qm.dispose();
