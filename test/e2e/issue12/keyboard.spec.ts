/**
 * Issue 12, point 6: the keyboard. Focus returns where it was after every menu and dialog; Shift+F10 and
 * the Menu key open the context menu in the tree and the lists; the menu bar answers F10 and Alt+letter;
 * a queue can be created, used and deleted without the mouse.
 */
import { expandPath, expect, test, treeItem } from '../support/fixtures.js';

test('focus comes back after a context menu and a dialog, and the next arrow key moves on', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.fill('.\\private$\\orders', 5);
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  const grid = page.locator('.message-grid');
  await grid.getByRole('row').filter({ hasText: 'message 2' }).click();

  // Shift+F10 opens the selection's menu; Esc closes it and the grid has the keyboard again.
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu', { name: 'Context menu' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu', { name: 'Context menu' })).toBeHidden();
  await expect(grid).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(grid.getByRole('row', { selected: true })).toContainText('message 3');

  // A right-click menu dismissed with Esc gives the focus back the same way; so does the Menu key's.
  await grid.getByRole('row').filter({ hasText: 'message 3' }).click({ button: 'right' });
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowDown');
  await expect(grid.getByRole('row', { selected: true })).toContainText('message 4');
  await page.keyboard.press('ContextMenu');
  await expect(page.getByRole('menu', { name: 'Context menu' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(grid).toBeFocused();

  // A dialog opened from the grid returns the focus to it.
  await page.keyboard.press('Enter');
  const props = page.getByRole('dialog', { name: 'message 4 Properties' });
  await expect(props).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(props).toBeHidden();
  await expect(grid).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(grid.getByRole('row', { selected: true })).toContainText('message 3');

  // A menu item that opens a dialog: when the dialog closes, the focus is back in the grid.
  await page.keyboard.press('Shift+F10');
  await page.getByRole('menu', { name: 'Context menu' }).getByRole('menuitem', { name: 'Properties' }).click();
  await page.keyboard.press('Escape');
  await expect(grid).toBeFocused();
});

test('Shift+F10 and the Menu key in the tree; F10 and Alt+letter reach the menu bar', async ({ consolePage: page }) => {
  const tree = page.getByRole('tree', { name: 'Console tree' });
  await treeItem(page, 'Message Queuing').click();
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: 'Context menu' });
  await expect(menu.getByRole('menuitem', { name: 'Properties' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(tree).toBeFocused();
  await page.keyboard.press('ContextMenu');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(tree).toBeFocused();

  // F10 focuses File; the arrows walk the bar and open a menu; Esc twice goes back to the tree.
  await page.keyboard.press('F10');
  await expect(page.getByRole('menuitem', { name: 'File' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menu', { name: 'View' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'View' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(tree).toBeFocused();

  // Alt+V opens View; Customize View… runs with Enter after the type-ahead letter.
  await page.keyboard.press('Alt+v');
  await page.keyboard.press('c');
  await page.keyboard.press('c');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Customize View' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(tree).toBeFocused();
});

test('a queue created, filled and deleted without the mouse', async ({ consolePage: page, service }) => {
  const tree = page.getByRole('tree', { name: 'Console tree' });
  await treeItem(page, 'Message Queuing').click();
  // Down to Private Queues (Outgoing, Public, Private).
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown');
  await expect(treeItem(page, 'Private Queues')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Alt+a');
  await page.keyboard.press('Enter'); // New private queue…
  const create = page.getByRole('dialog', { name: 'New Private Queue' });
  await expect(create.getByLabel('Queue name')).toBeFocused();
  await page.keyboard.type('by-keyboard');
  await page.keyboard.press('Enter');
  await expect(create).toBeHidden();
  // The new queue is selected in the folder's list.
  const list = page.getByRole('grid', { name: 'Private Queues' });
  await expect(list.getByRole('row', { selected: true })).toContainText('by-keyboard');
  expect((await service.call('queueShow', { path: '.\\private$\\by-keyboard' })).path).toBeTruthy();

  // Send a test message from the Action menu (the selection's part), then delete the queue with Del.
  await list.focus();
  await page.keyboard.press('Shift+F10');
  await page.keyboard.press('s'); // Send test message…
  await page.keyboard.press('Enter');
  const send = page.getByRole('dialog', { name: /Send test message to by-keyboard/ });
  await expect(send.getByLabel('Label', { exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(send).toBeHidden();
  await expect
    .poll(async () => (await service.call('queueShow', { path: '.\\private$\\by-keyboard' })).messageCount)
    .toBe(1);
  await expect(list).toBeFocused();
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('alertdialog', { name: 'Delete queue' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect
    .poll(async () => (await service.call('queueList', {})).some((q) => q.path.endsWith('by-keyboard')))
    .toBe(false);
  await expect(tree).toBeVisible();
});
