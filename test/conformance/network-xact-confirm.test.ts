/**
 * The source's wait for the final confirmation of a transactional message (R-A9, R-D2): after its
 * time-to-be-received runs out, the source waits XactDelayReceiveNack more before it dead-letters the message
 * as in doubt, so that a late positive receive confirmation can still cancel the dead letter. Two real
 * services on loopback; the destination's offline mode (`qk service disconnect`) holds its confirmations back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Computers, type Computer } from '../helpers/computers.js';
import { ok, waitFor } from '../helpers/qk-expect.js';
import { uniqueName } from '../helpers/qk-ops.js';
import type { QkOutgoing } from '../helpers/qk-types.js';

const env = { QK_PEER_BACKOFF_MAX_MS: '1000', QK_PEER_CALL_TIMEOUT_MS: '5000' };
// Long enough that a loaded machine still receives the message in time in the first test.
const TTBR_S = 8;
const DELAY_S = 8;

let net: Computers;
let alpha: Computer;
let beta: Computer;
beforeAll(async () => {
  net = await Computers.start([
    { name: 'XCALPHA', env },
    { name: 'XCBETA', env },
  ]);
  alpha = net.get('XCALPHA');
  beta = net.get('XCBETA');
  await alpha.q.setSetting('XactDelayReceiveNack', DELAY_S);
  await alpha.svc.restart(); // the setting applies at the next start, as MSMQ's registry value does
  await net.trust('XCALPHA', 'XCBETA');
}, 60_000);
afterAll(async () => {
  await net?.dispose();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one transactional message with a dead letter asked for; returns when BETA accepted and confirmed it. */
async function sendAccepted(queue: string): Promise<{ id: string; sentAt: number }> {
  const sentAt = Date.now();
  const id = await alpha.q.send(
    `XCBETA\\private$\\${queue}`,
    ...['--body', 'in doubt?', '--transactional', '--ttbr', String(TTBR_S), '--journal', 'deadletter'],
  );
  await waitFor(
    async () => {
      const o = ok(await alpha.svc.qk<QkOutgoing[]>('outgoing', 'list')).find(
        (q) => q.formatName === `DIRECT=OS:XCBETA\\private$\\${queue}`,
      );
      return o && o.messageCount === 0 && o.unconfirmedCount === 0 ? o : undefined;
    },
    'BETA accepted the message (the order acknowledgment came back)',
    20_000,
  );
  return { id, sentAt };
}

describe('many computers: the final confirmation of transactional messages', () => {
  test('R-A9 a positive receive confirmation that comes after time-to-be-received ran out, but within XactDelayReceiveNack, cancels the dead letter', async () => {
    const queue = uniqueName('late');
    await beta.q.createQueue(`.\\private$\\${queue}`, '--transactional');
    const { id, sentAt } = await sendAccepted(queue);
    ok(await beta.svc.qk('service', 'disconnect'));
    try {
      const received = await beta.q.receive(`.\\private$\\${queue}`, '--transactional');
      expect(received.id).toBe(id);
      await sleep(Math.max(0, sentAt + (TTBR_S + 2) * 1000 - Date.now()));
    } finally {
      ok(await beta.svc.qk('service', 'connect'));
    }
    // The positive confirmation is on its way now, late. Past TTBR + XactDelayReceiveNack, no dead letter.
    await sleep(Math.max(0, sentAt + (TTBR_S + DELAY_S + 3) * 1000 - Date.now()));
    expect(await alpha.q.copiesOf('.\\XACTDEADLETTER$', id)).toEqual([]);
  });

  test('R-A9 R-D2 without any final confirmation the source dead-letters in doubt only after time-to-be-received plus XactDelayReceiveNack', async () => {
    const queue = uniqueName('doubt');
    await beta.q.createQueue(`.\\private$\\${queue}`, '--transactional');
    const { id, sentAt } = await sendAccepted(queue);
    ok(await beta.svc.qk('service', 'disconnect'));
    try {
      await sleep(Math.max(0, sentAt + (TTBR_S + 2) * 1000 - Date.now()));
      const early = await alpha.q.copiesOf('.\\XACTDEADLETTER$', id);
      // Only meaningful while the wait is not over yet (a stalled machine could overshoot it).
      if (Date.now() < sentAt + (TTBR_S + DELAY_S) * 1000) expect(early).toEqual([]);
      const [dead] = await waitFor(
        async () => {
          const copies = await alpha.q.copiesOf('.\\XACTDEADLETTER$', id);
          return copies.length > 0 ? copies : undefined;
        },
        'the in-doubt dead letter on the source',
        30_000,
      );
      expect(Date.now()).toBeGreaterThanOrEqual(sentAt + (TTBR_S + DELAY_S) * 1000);
      expect(dead).toMatchObject({ class: 'NACK_RECEIVE_TIMEOUT', transactional: true });
      expect(await beta.q.copiesOf('.\\XACTDEADLETTER$', id)).toEqual([]);
    } finally {
      ok(await beta.svc.qk('service', 'connect'));
    }
    // BETA's own negative confirmation arrives late: it adds no second dead letter.
    await sleep(4_000);
    expect(await alpha.q.copiesOf('.\\XACTDEADLETTER$', id)).toHaveLength(1);
  });

  test('R-X8 R-D2 after a negative final confirmation (the queue was purged at the destination) the source waits XactDelayReceiveNack before it dead-letters, with that class', async () => {
    const queue = uniqueName('purged');
    await beta.q.createQueue(`.\\private$\\${queue}`, '--transactional');
    const { id } = await sendAccepted(queue);
    const purgedAt = Date.now();
    expect(await beta.q.purge(`.\\private$\\${queue}`)).toBe(1);
    // NACK_Q_PURGED reaches ALPHA within a second or so; the dead letter waits the delay after it.
    await sleep(4_000);
    if (Date.now() < purgedAt + DELAY_S * 1000) expect(await alpha.q.copiesOf('.\\XACTDEADLETTER$', id)).toEqual([]);
    const [dead] = await waitFor(
      async () => {
        const copies = await alpha.q.copiesOf('.\\XACTDEADLETTER$', id);
        return copies.length > 0 ? copies : undefined;
      },
      'the dead letter on the source after XactDelayReceiveNack',
      30_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(purgedAt + DELAY_S * 1000);
    // Before time-to-be-received plus the delay: the negative confirmation, not the in-doubt case, made it.
    expect(dead).toMatchObject({ class: 'NACK_Q_PURGED', transactional: true });
    expect(await beta.q.copiesOf('.\\XACTDEADLETTER$', id)).toEqual([]);
  });
});
