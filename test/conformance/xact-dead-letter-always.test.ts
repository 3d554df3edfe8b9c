/**
 * R-D3 with XactDeadLetterAlways = 1 (seed 000: MSMQ 1.0 semantics, effective after a restart of the
 * service). Its own service, because the setting changes what every transactional message does.
 */
import { expect, test } from 'vitest';
import { waitFor } from '../helpers/qk-expect.js';
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
