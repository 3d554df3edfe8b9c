import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
beforeEach(() => {
  h = openHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('queue manager basics', () => {
  test('system queues exist from the first start', () => {
    const paths = h.qm.listQueues().map((q) => q.path);
    expect(paths).toEqual(expect.arrayContaining(['.\\JOURNAL$', '.\\DEADLETTER$', '.\\XACTDEADLETTER$']));
  });

  test('send, peek, receive round trip', async () => {
    h.qm.createQueue({ path: '.\\private$\\orders' });
    const id = await h.qm.send('.\\private$\\orders', {
      body: 'hello',
      label: 'L',
      priority: 5,
      delivery: 'recoverable',
    });
    expect(id).toMatch(new RegExp(`^\\{${h.qm.id}\\}\\\\\\d+$`));
    const peeked = await h.qm.peek({ path: '.\\private$\\orders' });
    expect(peeked.body).toBe('hello');
    const got = await h.qm.receive({ path: '.\\private$\\orders' });
    expect(got.id).toBe(id);
    expect(got.priority).toBe(5);
    await expect(h.qm.receive({ path: '.\\private$\\orders' })).rejects.toMatchObject({ code: 'IO_TIMEOUT' });
  });

  test('R-O1 priority order then arrival order', async () => {
    h.qm.createQueue({ path: '.\\private$\\p' });
    for (const [p, b] of [
      [1, 'a'],
      [7, 'b'],
      [1, 'c'],
      [7, 'd'],
    ] as const)
      await h.qm.send('.\\private$\\p', { body: b, priority: p });
    const order: string[] = [];
    for (let i = 0; i < 4; i++) order.push((await h.qm.receive({ path: '.\\private$\\p' })).body ?? '');
    expect(order).toEqual(['b', 'd', 'a', 'c']);
  });

  test('R-V1 restart keeps recoverable and drops express', async () => {
    h.qm.createQueue({ path: '.\\private$\\r' });
    await h.qm.send('.\\private$\\r', { body: 'keep', delivery: 'recoverable' });
    await h.qm.send('.\\private$\\r', { body: 'lose' });
    expect(h.qm.showQueue('.\\private$\\r').messageCount).toBe(2);
    await h.reopen();
    const page = h.qm.browse({ path: '.\\private$\\r', includeBody: true });
    expect(page.messages.map((m) => m.body)).toEqual(['keep']);
    expect(h.qm.showQueue('.\\private$\\r').messageCount).toBe(1);
  });
});
