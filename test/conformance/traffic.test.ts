/**
 * What the console charts: traffic per second of a queue and of the computer (`qk traffic`), and a queue's
 * messages grouped by class (`qk queue classes`, the dead-letter view by failure).
 */
import { describe, expect, test } from 'vitest';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM } from '../helpers/qk-ops.js';
import { serviceForFile } from '../helpers/service-for-file.js';

interface Traffic {
  endTime: string;
  intervalSeconds: number;
  incoming: number[];
  outgoing: number[];
  depth: number[];
}

const file = serviceForFile();
const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

describe.concurrent('traffic', () => {
  test('qk traffic PATH: per-second incoming and outgoing counts and the depth after each second', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('traffic');
    await Promise.all([1, 2, 3, 4].map((i) => q.send(dest, '--label', `t${i}`)));
    await q.receive(dest);
    const t = ok(await svc.qk<Traffic>('traffic', dest, '--seconds', '30'));
    expect(t.intervalSeconds).toBe(1);
    expect([t.incoming.length, t.outgoing.length, t.depth.length]).toEqual([30, 30, 30]);
    expect(sum(t.incoming)).toBe(4);
    expect(sum(t.outgoing)).toBe(1);
    expect(t.depth[29]).toBe(3);
    expect(t.depth[0]).toBe(0);
    expect(Math.abs(Date.parse(t.endTime) - Date.now())).toBeLessThan(5_000);
  });

  test('qk traffic without a path is the whole computer: every queue counts', async () => {
    const { q, svc } = file;
    const before = ok(await svc.qk<Traffic>('traffic', '--seconds', '1'));
    const [a, b] = await Promise.all([q.newQueue('traffic-a'), q.newQueue('traffic-b')]);
    await Promise.all([q.send(a), q.send(b), q.send(b)]);
    const after = ok(await svc.qk<Traffic>('traffic', '--seconds', '60'));
    expect(sum(after.incoming)).toBeGreaterThanOrEqual(3);
    expect(after.depth[59]).toBeGreaterThanOrEqual((before.depth[0] ?? 0) + 3);
  });
});

describe.concurrent('messages by class', () => {
  test('R-D4 qk queue classes groups dead letters by their failure class, most frequent first', async () => {
    const { q, svc } = file;
    const full = await q.newQueue('classes-full', '--quota', '0');
    const timed = await q.newQueue('classes-ttbr');
    const ids = await Promise.all([
      q.send(timed, '--ttbr', '1', '--journal', 'deadletter'),
      q.send(timed, '--ttbr', '1', '--journal', 'deadletter'),
      q.send(full, '--journal', 'deadletter', '--body', 'no room'),
    ]);
    await waitFor(
      async () => (await q.messages(SYSTEM.deadLetter)).filter((m) => ids.includes(m.id)).length === 3,
      'three dead letters',
      15_000,
    );
    const { counts } = ok(
      await svc.qk<{ counts: { class: string; classCode: number; count: number }[] }>(
        'queue',
        'classes',
        SYSTEM.deadLetter,
      ),
    );
    const timeout = counts.find((c) => c.classCode === 0xc002);
    const quota = counts.find((c) => c.classCode === 0x8003);
    expect(timeout).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT' });
    expect(quota).toMatchObject({ class: 'NACK_Q_EXCEED_QUOTA' });
    expect(timeout?.count).toBeGreaterThanOrEqual(2);
    expect(quota?.count).toBeGreaterThanOrEqual(1);
    const order = counts.map((c) => c.count);
    expect(order).toEqual([...order].sort((x, y) => y - x));
  });
});
