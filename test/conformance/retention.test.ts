/**
 * Message retention (reference §8, seed 002 — Service Broker's RETENTION = ON): received messages stay
 * with status 0, sent messages leave a status-3 copy in the sender's queue, END CONVERSATION removes them.
 */
import { describe, expect, test } from 'vitest';
import { ok } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';
import { serviceForFile } from '../helpers/service-for-file.js';

const file = serviceForFile();

describe.concurrent('retention', () => {
  test('seed 002 a queue with --retention keeps a received message with status 0: browsable, never receivable again', async () => {
    const { q, svc } = file;
    const dest = await q.newQueue('keep', '--retention');
    expect((await q.show(dest)).retention).toBe(true);
    const id = await q.send(dest, '--label', 'kept', '--conversation', uniqueName('conv'));
    const received = await q.receive(dest);
    expect(received.id).toBe(id);
    const retained = await q.messages(dest);
    expect(retained.map((m) => [m.id, m.status])).toEqual([[id, 0]]);
    const again = await svc.qk('receive', dest, '--timeout', '0');
    expect(again.exitCode, again.stdout).toBe(3);
    expect((await q.messages(dest)).map((m) => m.status)).toEqual([0]);
  });

  test('seed 002 without retention a received message is deleted', async () => {
    const { q } = file;
    const dest = await q.newQueue('nokeep');
    expect((await q.show(dest)).retention).toBe(false);
    await q.send(dest, '--label', 'gone', '--conversation', uniqueName('conv'));
    await q.receive(dest);
    expect(await q.messages(dest)).toHaveLength(0);
  });

  test('seed 002 a message sent --from a retention queue leaves a status-3 copy there, which cannot be received', async () => {
    const { q, svc } = file;
    const [mine, theirs] = await Promise.all([q.newQueue('sender', '--retention'), q.newQueue('receiver')]);
    const id = await q.send(
      theirs,
      '--from',
      mine,
      '--label',
      'outgoing',
      '--body',
      'copy me',
      '--conversation',
      uniqueName('conv'),
    );
    const copies = await q.messages(mine);
    expect(copies.map((m) => [m.id, m.status, m.label])).toEqual([[id, 3, 'outgoing']]);
    const attempt = await svc.qk('receive', mine, '--timeout', '0');
    expect(attempt.exitCode, attempt.stdout).toBe(3);
    expect((await q.receive(theirs)).id).toBe(id);
    expect((await q.messages(mine)).map((m) => m.status)).toEqual([3]);
  });

  test('seed 002 a message sent --from a queue without retention leaves no copy', async () => {
    const { q } = file;
    const [mine, theirs] = await Promise.all([q.newQueue('sender-plain'), q.newQueue('receiver-plain')]);
    await q.send(theirs, '--from', mine, '--label', 'outgoing', '--conversation', uniqueName('conv'));
    expect(await q.messages(mine)).toHaveLength(0);
  });

  test('seed 002 conversation end removes every retained message of that conversation and no other', async () => {
    const { q, svc } = file;
    const [mine, theirs] = await Promise.all([q.newQueue('conv-mine', '--retention'), q.newQueue('conv-theirs')]);
    const conversation = uniqueName('conversation');
    const other = uniqueName('other');
    await q.send(mine, '--conversation', conversation, '--label', 'incoming');
    await q.receive(mine); // status 0
    await q.send(theirs, '--from', mine, '--conversation', conversation, '--label', 'outgoing'); // status-3 copy in mine
    await q.receive(theirs);
    const otherId = await q.send(mine, '--conversation', other, '--label', 'other conversation');
    expect((await q.messages(mine)).map((m) => m.status).sort()).toEqual([0, 1, 3]);
    const ended = ok(await svc.qk<{ removed: number }>('conversation', 'end', conversation));
    expect(ended).toEqual({ removed: 2 });
    expect((await q.messages(mine)).map((m) => m.id)).toEqual([otherId]);
    expect(ok(await svc.qk<{ removed: number }>('conversation', 'end', conversation))).toEqual({ removed: 0 });
  });
});
