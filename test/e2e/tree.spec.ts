import { action, expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from './support/fixtures.js';

test('navigates the tree to each system queue, by mouse and by keyboard', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: '.\\private$\\orders', journal: true });
  await expandPath(page, ['Private Queues', 'System Queues']);
  for (const caption of ['Journal messages', 'Dead-letter messages', 'Transactional dead-letter messages']) {
    const node = treeItem(page, caption).and(page.getByRole('treeitem', { level: 4 }));
    await node.click();
    await expect(node).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('.result-title')).toHaveText(caption);
    await expect(messageGrid(page)).toHaveAttribute('aria-label', caption);
    await expect(page.locator('.result-facts')).toContainText('0 messages');
    await expect(action(page, 'purge')).toBeVisible();
  }
  // Keyboard: Up from the transactional DLQ reaches the dead-letter queue, Left goes to System Queues.
  await page.getByRole('tree').focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.locator('.result-title')).toHaveText('Dead-letter messages');
  await page.keyboard.press('ArrowLeft');
  await expect(treeItem(page, 'System Queues')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await expect(treeItem(page, 'System Queues')).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(page, 'System Queues')).toHaveAttribute('aria-expanded', 'true');

  await treeItem(page, 'Private Queues').click();
  await expect(
    page.getByRole('grid', { name: 'Private Queues' }).getByRole('row').filter({ hasText: 'orders' }),
  ).toBeVisible();
  await saveScreenshot(page, 'private-queues');
});
