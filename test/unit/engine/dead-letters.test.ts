import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MessageClass } from '@qk/model';
import { openHarness, type Harness } from './helpers.js';

let h: Harness;
const TX = '.\\private$\\orders-tx';
const PLAIN = '.\\private$\\orders';
const ADMIN = '.\\private$\\admin';
const XDLQ = '.\\XACTDEADLETTER$';
const DLQ = '.\\DEADLETTER$';

beforeEach(() => {
  h = openHarness();
  h.qm.createQueue({ path: TX, transactional: true });
  h.qm.createQueue({ path: PLAIN });
  h.qm.createQueue({ path: ADMIN });
});
afterEach(async () => {
  await h.dispose();
});

const classes = (path: string): number[] => h.qm.browse({ path }).messages.map((m) => m.classCode);

describe('transactional dead letters when a message leaves unreceived (R-D2, R-D3)', () => {
  test('R-D2 purging a transactional queue: NACK 0xC001 and the dead letter in XACTDEADLETTER$', async () => {
    const id = await h.qm.send(
      TX,
      { body: 'p', journal: 1, acknowledge: 0x08, adminQueue: ADMIN },
      { transactional: true },
    );
    await h.qm.send(TX, { body: 'no DL flag' }, { transactional: true });
    expect(await h.qm.purgeQueue(TX)).toBe(2);
    const dead = h.qm.browse({ path: XDLQ, includeBody: true }).messages;
    expect(dead.map((m) => [m.id, m.classCode, m.body])).toEqual([[id, MessageClass.NACK_Q_PURGED, 'p']]);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_Q_PURGED]);
  });

  test('R-D2 deleting a transactional queue: dead letters of class 0xC000', async () => {
    await h.qm.send(TX, { body: 'd', journal: 1 }, { transactional: true });
    await h.qm.deleteQueue(TX);
    expect(classes(XDLQ)).toEqual([MessageClass.NACK_Q_DELETED]);
  });

  test('R-D3 with XactDeadLetterAlways = 1 every transactional message is dead-lettered, flag or not', async () => {
    h.qm.setSetting('XactDeadLetterAlways', 1);
    await h.reopen();
    await h.qm.send(TX, { body: 'a' }, { transactional: true });
    await h.qm.purgeQueue(TX);
    expect(classes(XDLQ)).toEqual([MessageClass.NACK_Q_PURGED]);
  });

  test('R-P5 purging nontransactional messages dead-letters nothing, even with the DL flag', async () => {
    await h.qm.send(PLAIN, { body: 'n', journal: 1 });
    await h.qm.purgeQueue(PLAIN);
    expect(classes(DLQ)).toEqual([]);
    expect(classes(XDLQ)).toEqual([]);
  });

  test('R-D2 a transactional message from another computer is dead-lettered at its source, not here', async () => {
    await h.qm.arrive(TX, {
      id: '{11111111-2222-3333-4444-555555555555}\\7',
      sourceMachineId: '11111111-2222-3333-4444-555555555555',
      sourceMachine: 'BETA',
      transactional: true,
      body: 'remote',
      journal: 1,
    });
    expect(await h.qm.purgeQueue(TX)).toBe(1);
    expect(classes(XDLQ)).toEqual([]);
  });
});

describe("an administrator's delete of one message is a purge of one", () => {
  test('NACK_Q_PURGED when asked, the transactional dead letter, never a journal copy', async () => {
    h.qm.setQueue({ path: TX, journal: true });
    await h.qm.send(TX, { body: 'x', journal: 3, acknowledge: 0x0c, adminQueue: ADMIN }, { transactional: true });
    const [m] = h.qm.browse({ path: TX }).messages;
    h.qm.deleteMessage(TX, m?.lookupId ?? 0);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_Q_PURGED]);
    expect(classes(XDLQ)).toEqual([MessageClass.NACK_Q_PURGED]);
    expect(h.qm.showQueue(TX).journalMessageCount).toBe(0);
    expect(h.qm.showQueue('.\\JOURNAL$').messageCount).toBe(0);
  });

  test('R-P6 deleting a message from an outgoing queue is a purge there: NACK_PURGED 0x8001', async () => {
    await h.qm.send('FARAWAY\\private$\\q', { body: 'o', acknowledge: 0x04, adminQueue: ADMIN });
    const outgoing = h.qm.listQueues().find((q) => q.type === 'outgoing');
    const [m] = h.qm.browse({ path: outgoing?.path ?? '' }).messages;
    expect(h.qm.deleteMessages(outgoing?.path ?? '', [m?.lookupId ?? 0])).toBe(1);
    expect(classes(ADMIN)).toEqual([MessageClass.NACK_PURGED]);
  });
});

describe('acknowledgments never enter a transactional administration queue (R-M1)', () => {
  test('an arrival ACK addressed to a transactional queue is not delivered', async () => {
    await h.qm.send(PLAIN, { body: 'a', acknowledge: 0x0f, adminQueue: TX });
    await h.qm.receive({ path: PLAIN });
    expect(h.qm.showQueue(TX).messageCount).toBe(0);
    expect(classes(DLQ)).toEqual([]);
  });

  test('nor to a system queue or a journal', async () => {
    await h.qm.send(PLAIN, { body: 'a', acknowledge: 0x0f, adminQueue: DLQ });
    await h.qm.send(PLAIN, { body: 'b', acknowledge: 0x0f, adminQueue: `${ADMIN}\\JOURNAL$` });
    await h.qm.receive({ path: PLAIN });
    expect(h.qm.showQueue(DLQ).messageCount).toBe(0);
    expect(h.qm.showQueue(ADMIN).journalMessageCount).toBe(0);
  });
});

describe('per-application dead-letter queue (R-D9)', () => {
  const APP_DLQ = '.\\private$\\orders-dlq';

  test('a transactional message that names one is dead-lettered there instead of XACTDEADLETTER$', async () => {
    h.qm.createQueue({ path: APP_DLQ, transactional: true });
    const id = await h.qm.send(TX, { body: 'mine', journal: 1, deadLetterQueue: APP_DLQ }, { transactional: true });
    await h.qm.purgeQueue(TX);
    const copies = h.qm.browse({ path: APP_DLQ }).messages;
    expect(copies.map((m) => [m.id, m.classCode, m.deadLetterQueue])).toEqual([
      [id, MessageClass.NACK_Q_PURGED, APP_DLQ],
    ]);
    expect(classes(XDLQ)).toEqual([]);
  });

  test('it falls back to XACTDEADLETTER$ when the named queue was deleted meanwhile', async () => {
    h.qm.createQueue({ path: APP_DLQ, transactional: true });
    await h.qm.send(TX, { body: 'orphan', journal: 1, deadLetterQueue: APP_DLQ }, { transactional: true });
    await h.qm.deleteQueue(APP_DLQ);
    await h.qm.purgeQueue(TX);
    expect(classes(XDLQ)).toEqual([MessageClass.NACK_Q_PURGED]);
  });

  test.each([
    ['a nontransactional message', { journal: 1 }, false, 'transactional'],
    ['no dead-letter flag', { journal: 0 }, true, 'flag'],
    ['a nontransactional queue', { journal: 1, deadLetterQueue: PLAIN }, true, 'transactional queue'],
    ['a queue of another computer', { journal: 1, deadLetterQueue: 'BETA\\private$\\dlq' }, true, 'this computer'],
  ])('the send fails for %s (INVALID_PARAMETER)', async (_what, props, transactional, words) => {
    h.qm.createQueue({ path: APP_DLQ, transactional: true });
    const send = h.qm.send(
      transactional ? TX : PLAIN,
      { body: 'x', deadLetterQueue: APP_DLQ, ...props },
      { transactional },
    );
    await expect(send).rejects.toMatchObject({ code: 'INVALID_PARAMETER', message: expect.stringContaining(words) });
    expect(h.qm.showQueue(TX).messageCount + h.qm.showQueue(PLAIN).messageCount).toBe(0);
  });
});
