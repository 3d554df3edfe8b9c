/**
 * Issue 12, point 2: MMC's selection model. The item selected in the result pane is what the toolbar, the
 * Action menu, the Actions pane and the context menu act on; the context menu opens where one right-clicks
 * and shows that row's actions, without opening the queue.
 */
import { expandPath, expect, test, treeItem } from '../support/fixtures.js';

test('a queue selected in a folder list drives the toolbar, the Action menu, the Actions pane and its menu', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders', journal: true });
  await service.call('queueCreate', { path: '.\\private$\\billing', transactional: true });
  await service.call('send', { path: '.\\private$\\billing', message: { label: 'invoice' }, transactional: true });
  await expandPath(page, ['Private Queues']);
  await treeItem(page, 'Private Queues').click();
  const list = page.getByRole('grid', { name: 'Private Queues' });
  const toolbar = page.getByRole('toolbar', { name: 'Toolbar' });
  await expect(toolbar.getByRole('button', { name: /Properties/ })).toBeDisabled();
  await expect(toolbar.getByRole('button', { name: /Delete/ })).toBeDisabled();

  // Selecting a row: the toolbar, the Actions pane and the Action menu follow it.
  await list.getByRole('row').filter({ hasText: 'orders' }).click();
  await expect(list.getByRole('row', { selected: true })).toContainText('orders');
  await expect(toolbar.getByRole('button', { name: /Properties/ })).toBeEnabled();
  await expect(toolbar.getByRole('button', { name: /Purge/ })).toBeEnabled();
  await expect(toolbar.getByRole('button', { name: /Delete/ })).toBeEnabled();
  await expect(page.locator('.actions-section').nth(1).locator('.actions-title')).toHaveText('orders');
  await page.getByRole('menuitem', { name: 'Action' }).click();
  const actionMenu = page.getByRole('menu', { name: 'Action' });
  await expect(actionMenu.getByRole('menuitem', { name: 'Purge journal messages…' })).toBeVisible();
  await page.keyboard.press('Escape');
  await toolbar.getByRole('button', { name: /Properties/ }).click();
  const props = page.getByRole('dialog', { name: 'orders Properties' });
  await expect(props).toBeVisible();
  await props.getByRole('button', { name: 'Cancel' }).click();

  // Alt+Enter acts on the same selection.
  await list.focus();
  await page.keyboard.press('Alt+Enter');
  await expect(props).toBeVisible();
  await page.keyboard.press('Escape');

  // Right-click another row: its menu opens where the pointer is; the queue is not opened.
  const billing = list.getByRole('row').filter({ hasText: 'billing' });
  const box = await billing.boundingBox();
  const at = { x: (box?.x ?? 0) + 60, y: (box?.y ?? 0) + 8 };
  await page.mouse.click(at.x, at.y, { button: 'right' });
  const menu = page.getByRole('menu', { name: 'Context menu' });
  const menuBox = await menu.boundingBox();
  expect(Math.abs((menuBox?.x ?? 0) - at.x)).toBeLessThanOrEqual(2);
  expect(Math.abs((menuBox?.y ?? 0) - at.y)).toBeLessThanOrEqual(2);
  await expect(page.locator('.result-title')).toHaveText('Private Queues');
  await expect(list.getByRole('row', { selected: true })).toContainText('billing');
  await menu.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete queue' });
  await expect(confirm).toContainText('Delete the queue .\\private$\\billing with its 1 message?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // Enter opens the selected queue's messages.
  await list.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.result-title')).toHaveText('billing › Queue messages');
});

test('selected messages drive the toolbar and the Action menu; a right-clicked row gets the menu', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.fill('.\\private$\\orders', 3);
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  const grid = page.locator('.message-grid');
  const toolbar = page.getByRole('toolbar', { name: 'Toolbar' });
  await expect(toolbar.getByRole('button', { name: /Delete/ })).toBeDisabled();
  await grid.getByRole('row').filter({ hasText: 'message 2' }).click({ button: 'right' });
  await expect(grid.getByRole('row', { selected: true })).toContainText('message 2');
  const menu = page.getByRole('menu', { name: 'Context menu' });
  await expect(menu.getByRole('menuitem', { name: 'Edit and resend…' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(toolbar.getByRole('button', { name: /Delete/ })).toBeEnabled();
  await toolbar.getByRole('button', { name: /Properties/ }).click();
  await expect(page.getByRole('dialog', { name: 'message 2 Properties' })).toBeVisible();
});
