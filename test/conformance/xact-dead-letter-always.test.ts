/**
 * R-D3 with XactDeadLetterAlways = 1 (seed 000: MSMQ 1.0 semantics, effective after a restart of the
 * service). Its own service, because the setting changes what every transactional message does.
 */
import { expect, test } from 'vitest';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { SYSTEM } from '../helpers/qk-ops.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { delay } from '../helpers/service-harness.js';

const file = serviceForFile();

test('R-D3 XactDeadLetterAlways = 1 takes effect after a restart: undelivered transactional messages go to .\\XACTDEADLETTER$ without DL', async () => {
  const { q, svc } = file;
  const [tx, plain, nontx] = await Promise.all([
    q.newQueue('xa', '--transactional'),
    q.newQueue('xa-plain'),
    q.newQueue('xa-nontx'),
  ]);

  const set = await q.setSetting('XactDeadLetterAlways', 1);
  expect(set).toMatchObject({ value: 0, pending: 1 });

  // Before the restart the old value still rules.
  const early = await q.send(tx, '--transactional', '--ttbr', '1', '--label', 'before restart');
  await waitFor(async () => (await q.messages(tx)).length === 0, 'the early message to expire');
  await delay(1_500);
  expect(await q.copiesOf(SYSTEM.xactDeadLetter, early), 'dead-lettered before the restart').toHaveLength(0);

  await svc.restart();
  expect((await q.setting('XactDeadLetterAlways')).value).toBe(1);

  const [expired, mismatch, nontransactional] = await Promise.all([
    q.send(tx, '--transactional', '--ttbr', '1', '--label', 'expired'),
    q.send(plain, '--transactional', '--label', 'mismatch'),
    q.send(nontx, '--ttbr', '1', '--label', 'nontransactional'),
  ]);
  const expiredCopy = await waitFor(
    async () => (await q.copiesOf(SYSTEM.xactDeadLetter, expired))[0],
    'expired in XACTDEADLETTER$',
    8_000,
  );
  const mismatchCopy = await waitFor(
    async () => (await q.copiesOf(SYSTEM.xactDeadLetter, mismatch))[0],
    'mismatch in XACTDEADLETTER$',
  );
  expect(expiredCopy).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT', classCode: 0xc002, journal: 0 });
  expect(mismatchCopy).toMatchObject({ class: 'NACK_NOT_TRANSACTIONAL_Q', classCode: 0x8009, journal: 0 });
  // Only transactional messages are affected: a nontransactional one without DL is still just discarded.
  await waitFor(async () => (await q.messages(nontx)).length === 0, 'the nontransactional message to expire');
  expect(await q.copiesOf(SYSTEM.deadLetter, nontransactional)).toHaveLength(0);
  expect(await q.copiesOf(SYSTEM.xactDeadLetter, nontransactional)).toHaveLength(0);
});

test("R-D3 with XactDeadLetterAlways = 1 a purge, a queue deletion and an administrator's delete dead-letter unflagged transactional messages", async () => {
  const { q, svc } = file;
  if ((await q.setting('XactDeadLetterAlways')).value !== 1) {
    await q.setSetting('XactDeadLetterAlways', 1);
    await svc.restart();
  }
  const [purged, deleted, one] = await Promise.all([
    q.newQueue('xa-purge', '--transactional'),
    q.newQueue('xa-delete', '--transactional'),
    q.newQueue('xa-one', '--transactional'),
  ]);
  const [idPurged, idDeleted, idOne] = await Promise.all([
    q.send(purged, '--transactional', '--label', 'purged'),
    q.send(deleted, '--transactional', '--label', 'deleted'),
    q.send(one, '--transactional', '--label', 'deleted alone'),
  ]);
  expect(await q.purge(purged)).toBe(1);
  ok(await svc.qk('queue', 'delete', deleted));
  const [m] = await q.messages(one);
  ok(await svc.qk('message', 'delete', one, String(m?.lookupId)));
  const copyOf = (id: string) =>
    waitFor(async () => (await q.copiesOf(SYSTEM.xactDeadLetter, id))[0], `${id} in XACTDEADLETTER$`, 8_000);
  expect(await copyOf(idPurged)).toMatchObject({ class: 'NACK_Q_PURGED', classCode: 0xc001, label: 'purged' });
  expect(await copyOf(idDeleted)).toMatchObject({ class: 'NACK_Q_DELETED', classCode: 0xc000, label: 'deleted' });
  expect(await copyOf(idOne)).toMatchObject({ class: 'NACK_Q_PURGED', classCode: 0xc001 });
});
