import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openHarness, type Harness } from './helpers.js';

/** Issue 7 item 8: an application's receive or peek never drains this computer's outgoing queue. */
describe('R-P1 reading an outgoing queue is an admin action', () => {
  let h: Harness;
  beforeEach(() => {
    h = openHarness('ALPHA');
  });
  afterEach(() => h.dispose());

  const remote = 'BETA\\private$\\orders';

  test('receive, receiveBatch and peek of a remote path are ACCESS_DENIED naming the remedy; nothing moves', async () => {
    const id = await h.qm.send(remote, { body: 'for BETA', delivery: 'recoverable' });
    const spellings = [remote, 'DIRECT=OS:BETA\\private$\\orders', 'beta\\PRIVATE$\\ORDERS'];
    for (const path of spellings) {
      await expect(h.qm.receive({ path })).rejects.toMatchObject({
        code: 'ACCESS_DENIED',
        message: expect.stringMatching(/beta's own service.*--service/is),
      });
      await expect(h.qm.receive({ path, lookupId: 1 })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
      await expect(h.qm.receiveBatch({ path, max: 10 })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
      await expect(h.qm.peek({ path })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    }
    const page = h.qm.browse({ path: remote });
    expect(page.messages.map((m) => m.id)).toEqual([id]);
    expect(h.qm.showQueue(remote)).toMatchObject({ type: 'outgoing', messageCount: 1 });
  });

  test('refused even before the outgoing queue exists (not QUEUE_NOT_FOUND, which would say it might)', async () => {
    await expect(h.qm.receive({ path: 'GAMMA\\private$\\q' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(h.qm.peek({ path: 'GAMMA\\q' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  test("this computer's own name, '.', localhost and its GUID stay local and readable", async () => {
    const queue = h.qm.createQueue({ path: '.\\private$\\here' });
    const spellings = [
      '.\\private$\\here',
      'ALPHA\\private$\\here',
      'localhost\\private$\\here',
      'DIRECT=OS:ALPHA\\private$\\here',
      queue.formatName,
    ];
    expect(queue.formatName).toMatch(/^PRIVATE=/);
    for (const path of spellings) {
      await h.qm.send(path, { body: path });
      expect((await h.qm.receive({ path })).body).toBe(path);
    }
    expect(h.qm.isRemotePath('ALPHA\\private$\\here')).toBe(false);
    expect(h.qm.isRemotePath(remote)).toBe(true);
    expect(h.qm.isRemotePath('not a path')).toBe(false);
  });

  test('purging the outgoing queue through the remote path stays possible', async () => {
    await h.qm.send(remote, { body: 'x' });
    expect(await h.qm.purgeQueue(remote)).toBe(1);
  });
});
