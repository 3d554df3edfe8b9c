/**
 * Issue 9 in the console: subqueues in the tree (R-S1), Move to subqueue and back with the move count
 * (R-S3, R-S7), the abort count (R-S7), Reject with its 0xC004 NACK (R-S8), and walking a queue with a
 * cursor (R-C2–R-C5).
 */
import { action, expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from '../support/fixtures.js';

const ORDERS = '.\\private$\\orders';
const ACKS = '.\\private$\\acks';

test('move to a subqueue and back, the move count, reject with its NACK', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('queueCreate', { path: ACKS });
  for (let i = 1; i <= 3; i += 1)
    await service.call('send', {
      path: ORDERS,
      message: { label: `order ${i}`, acknowledge: 0x0c, adminQueue: ACKS },
    });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).first().click();
  const grid = messageGrid(page);
  const row = (label: string) => grid.getByRole('row').filter({ hasText: label });

  // Move to subqueue: it appears under its queue in the tree, with its count.
  await row('order 1').click();
  await action(page, 'moveToSubqueue').click();
  const move = page.getByRole('dialog', { name: 'Move to subqueue' });
  await expect(move.getByLabel('Subqueue name')).toHaveValue('poison');
  await move.getByRole('button', { name: 'Move' }).click();
  const poison = treeItem(page, 'poison');
  await expect(poison).toHaveAttribute('aria-level', '5');
  await expect(poison.locator('.tree-count')).toHaveText('1');
  await expect(treeItem(page, 'orders').locator('.tree-count')).toHaveText('2');
  await poison.click();
  await expect(page.locator('.result-title')).toHaveText('orders › poison');
  await row('order 1').dblclick();
  const props = page.getByRole('dialog', { name: 'order 1 Properties' });
  await expect(props.locator('.field').filter({ hasText: 'Moves (queue ⇄ subqueues)' })).toContainText('1 — last');
  await saveScreenshot(page, 'subqueue-move-count');
  await page.keyboard.press('Escape');

  // And back: the move count goes on.
  await row('order 1').click();
  await action(page, 'moveBack').click();
  await expect(poison.locator('.tree-count')).toHaveText('0');
  const [back] = (await service.call('browse', { path: ORDERS })).messages.filter((m) => m.label === 'order 1');
  expect(back?.moveCount).toBe(2);

  // Reject: asks first; the message leaves and its sender gets NACK_RECEIVE_REJECTED (0xC004).
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).first().click();
  await row('order 2').click();
  await action(page, 'reject').click();
  const confirm = page.getByRole('alertdialog', { name: 'Reject messages' });
  await expect(confirm).toContainText(`Reject 1 message of ${ORDERS}?`);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Reject' }).click();
  await expect(row('order 2')).toHaveCount(0);
  await expect
    .poll(async () => (await service.call('browse', { path: ACKS })).messages.map((m) => m.classCode))
    .toContain(0xc004);
});

test('the abort count of a message whose receiving transactions aborted', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: '.\\private$\\billing', transactional: true });
  await service.call('send', { path: '.\\private$\\billing', message: { label: 'invoice' }, transactional: true });
  for (let i = 0; i < 2; i += 1) {
    const { transaction } = await service.call('transactionBegin', {});
    await service.call('receive', { path: '.\\private$\\billing', transaction });
    await service.call('transactionAbort', { transaction });
  }
  await expandPath(page, ['Private Queues', 'billing']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  await messageGrid(page).getByRole('row').filter({ hasText: 'invoice' }).dblclick();
  await expect(
    page.getByRole('dialog', { name: 'invoice Properties' }).locator('.field').filter({ hasText: 'Aborted receives' }),
  ).toContainText('2');
});

test('walk a queue with a cursor: current, next, receive, wait at the end', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: ORDERS });
  for (let i = 1; i <= 3; i += 1) await service.call('send', { path: ORDERS, message: { label: `order ${i}` } });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  await action(page, 'walkCursor').click();
  const dialog = page.getByRole('dialog', { name: 'Cursor on orders' });
  const current = dialog.getByRole('region', { name: 'Message under the cursor' });
  const receive = async (label: string) => {
    await dialog.getByRole('button', { name: 'Receive…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Receive message' });
    await expect(confirm).toContainText(`Receive ${label} from orders?`);
    await confirm.getByRole('button', { name: 'Receive' }).click();
  };
  await expect(current).toContainText('order 1');
  // R-C5: another program takes the message under the cursor; Receive says so and Next moves on.
  await service.call('receive', { path: ORDERS });
  await receive('order 1');
  await expect(current).toContainText('MESSAGE_ALREADY_RECEIVED');
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(current).toContainText('order 2');
  await receive('order 2');
  // R-C3: after a receive the cursor stands on the message after it.
  await expect(current).toContainText('order 3');
  await expect(current.getByRole('note')).toContainText('Received order 2');
  await saveScreenshot(page, 'cursor-walk');
  expect((await service.call('browse', { path: ORDERS })).messages.map((m) => m.label)).toEqual(['order 3']);
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'order 2' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(current.getByRole('status')).toHaveText(
    'The cursor is at the end of the queue: no message after it now.',
  );
  // R-C4: waiting at the end, the cursor takes the next arrival.
  await dialog.getByRole('button', { name: 'Wait for the next message' }).click();
  await service.call('send', { path: ORDERS, message: { label: 'late arrival' } });
  await expect(current).toContainText('late arrival');
  await dialog.getByRole('button', { name: 'Close' }).click();
});

test('R-D9 a test message names its own dead-letter queue', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: '.\\private$\\billing', transactional: true });
  await service.call('queueCreate', { path: '.\\private$\\billing-dead', transactional: true });
  await expandPath(page, ['Private Queues', 'billing']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).first().click();
  await action(page, 'sendTest').click();
  const send = page.getByRole('dialog', { name: /Send test message to billing/ });
  await send.getByLabel('Label', { exact: true }).fill('invoice 7');
  await send.getByLabel('Transactional (a single-message transaction)').check();
  await send.getByRole('tab', { name: 'Acknowledgment and timers' }).click();
  await send.getByLabel('Journal', { exact: true }).selectOption('deadletter');
  await send.getByRole('tab', { name: 'Advanced' }).click();
  await send.getByLabel('Dead-letter queue').fill('.\\private$\\billing-dead');
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden();
  await messageGrid(page).getByRole('row').filter({ hasText: 'invoice 7' }).dblclick();
  await expect(
    page
      .getByRole('dialog', { name: 'invoice 7 Properties' })
      .locator('.field')
      .filter({ hasText: 'Dead-letter queue' }),
  ).toContainText('.\\private$\\billing-dead');
});
