import { expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from './support/fixtures.js';

test('Ctrl+F filters by label, body and class on the service; sorting by a column asks the service', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('queueCreate', { path: '.\\private$\\admin' });
  await service.fill('.\\private$\\orders', 30, (i) => ({
    label: i % 3 === 0 ? `invoice-${i}` : `order-${i}`,
    body: i === 7 ? 'needle in the body' : `body ${i}`,
    priority: i % 8,
  }));
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  await expect(page.locator('.result-facts')).toContainText('30 messages');

  await messageGrid(page).focus();
  await page.keyboard.press('Control+f');
  const filter = page.getByRole('search', { name: 'Filter messages' });
  await expect(filter.getByLabel('Label contains')).toBeFocused();
  await page.keyboard.type('invoice');
  await expect(page.locator('.result-facts')).toContainText('10 messages match the filter');
  await filter.getByLabel('Label contains').fill('');
  await filter.getByLabel('Body contains').fill('NEEDLE');
  await expect(page.locator('.result-facts')).toContainText('1 message matches the filter');
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'order-7' })).toBeVisible();
  await saveScreenshot(page, 'filter');
  await filter.getByRole('button', { name: 'Clear' }).click();
  await expect(page.locator('.result-facts')).toContainText('30 messages');

  // Sort by priority, descending on the second click (evaluated by the service).
  const priority = page.getByRole('columnheader', { name: /Priority/ });
  await priority.click();
  await expect(priority).toHaveAttribute('aria-sort', 'ascending');
  await expect(messageGrid(page).locator('[aria-rowindex="2"] [role="gridcell"]').nth(1)).toHaveText('0');
  await priority.click();
  await expect(priority).toHaveAttribute('aria-sort', 'descending');
  await expect(messageGrid(page).locator('[aria-rowindex="2"] [role="gridcell"]').nth(1)).toHaveText('7');

  // Class filter: only NACKs.
  await service.call('send', {
    path: '.\\private$\\orders',
    message: { label: 'to purge', acknowledge: 0x0c, adminQueue: '.\\private$\\admin' },
  });
  await service.call('queuePurge', { path: '.\\private$\\orders' });
  await expect(treeItem(page, 'orders').locator('.tree-count')).toHaveText('0');
  await expandPath(page, ['admin']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).first().click();
  await expect(page.locator('.result-title')).toHaveText('admin › Queue messages');
  await page.keyboard.press('Control+f');
  await page.getByRole('search').getByLabel('Class').selectOption({ label: 'NACK_Q_PURGED 0xC001' });
  await expect(page.locator('.result-facts')).toContainText('1 message matches the filter');
});

test('the console follows a dark system theme', async ({ consolePage: page, service }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.fill('.\\private$\\orders', 12, (i) => ({ label: `order-${i + 1}`, body: 'x', priority: 3 }));
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'order-12' })).toBeVisible();
  const background = await page.evaluate(
    () => getComputedStyle(document.querySelector('.tree-pane') as Element).backgroundColor,
  );
  expect(background).toBe('rgb(43, 43, 43)');
  await saveScreenshot(page, 'dark-theme');
});
