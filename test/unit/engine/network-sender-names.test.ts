/**
 * CLI.md "Many computers": a path that starts with `.` (an administration or response queue) names the sending
 * computer and is resolved to its name when the message is sent to another computer — so the copies the
 * sender keeps (its outgoing queue, its source journal) show the same names the destination sees.
 */
import { describe, expect, test } from 'vitest';
import { labEachTest } from './network-helpers.js';

const lab = labEachTest();

const ORDERS = 'DIRECT=OS:BETA\\private$\\orders';

describe('a `.` administration or response queue of a message sent to another computer', () => {
  test('is stored resolved on the sender: its outgoing queue and its journal copy show what BETA sees', async () => {
    const alpha = lab().open('ALPHA');
    const beta = lab().open('BETA');
    beta.qm.createQueue({ path: '.\\private$\\orders' });
    alpha.qm.createQueue({ path: '.\\private$\\admin' });
    const id = await alpha.qm.send('BETA\\private$\\orders', {
      body: 'hello',
      delivery: 'recoverable',
      journal: 2,
      adminQueue: '.\\private$\\admin',
      responseQueue: 'DIRECT=OS:.\\private$\\reply',
    });
    const resolved = { adminQueue: 'ALPHA\\private$\\admin', responseQueue: 'DIRECT=OS:ALPHA\\private$\\reply' };
    expect(alpha.qm.browse({ path: ORDERS }).messages).toMatchObject([{ id, ...resolved }]);
    await lab().drain('ALPHA', 'BETA', ORDERS);
    expect(alpha.qm.browse({ path: '.\\JOURNAL$' }).messages).toMatchObject([{ id, ...resolved }]);
    expect(beta.qm.browse({ path: '.\\private$\\orders' }).messages).toMatchObject([{ id, ...resolved }]);
  });

  test('a message sent to a queue of this computer keeps the `.` it was given (it never leaves)', async () => {
    const alpha = lab().open('ALPHA');
    alpha.qm.createQueue({ path: '.\\private$\\local' });
    await alpha.qm.send('.\\private$\\local', { body: 'x', adminQueue: '.\\private$\\admin' });
    expect(alpha.qm.browse({ path: '.\\private$\\local' }).messages).toMatchObject([
      { adminQueue: '.\\private$\\admin' },
    ]);
  });
});
