import { action, expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from './support/fixtures.js';

test('purges with a confirmation that states the count, and NACK_Q_PURGED arrives', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('queueCreate', { path: '.\\private$\\admin' });
  for (let i = 1; i <= 3; i += 1) {
    await service.call('send', {
      path: '.\\private$\\orders',
      message: { label: `order-${i}`, acknowledge: 0x0c, adminQueue: '.\\private$\\admin' },
    });
  }
  await expandPath(page, ['Private Queues', 'orders']);
  await treeItem(page, 'Queue messages').click();
  await expect(page.locator('.result-facts')).toContainText('3 messages');

  await action(page, 'purge').click();
  const confirm = page.getByRole('alertdialog', { name: 'Purge' });
  await expect(confirm).toContainText('Purge 3 messages from orders › Queue messages?');
  await saveScreenshot(page, 'purge-confirmation');
  await confirm.getByRole('button', { name: 'Purge' }).click();
  await expect(page.locator('.empty-note')).toContainText('There are no messages in this queue');
  await expect(treeItem(page, 'orders').locator('.tree-count')).toHaveText('0');

  // The receive NACKs (0xC001) land in the admin queue: its count updates live in the tree.
  await expandPath(page, ['admin']);
  await expect(treeItem(page, 'admin').locator('.tree-count')).toHaveText('3');
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).nth(0).click();
  await expect(page.locator('.result-title')).toHaveText('admin › Queue messages');
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'NACK_Q_PURGED 0xC001' })).toHaveCount(3);
});

test('cancelling the confirmation purges nothing', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('send', { path: '.\\private$\\orders', message: { label: 'keep me' } });
  await expandPath(page, ['Private Queues']);
  await treeItem(page, 'orders').click();
  await action(page, 'purge').click();
  await page.getByRole('alertdialog', { name: 'Purge' }).getByRole('button', { name: 'Cancel' }).click();
  expect((await service.call('queueShow', { path: '.\\private$\\orders' })).messageCount).toBe(1);
});
