/**
 * Issue 12, point 8: small windows. At 1024×640 the side panes give way so the list shows its main columns
 * and the filter bar stays compact; View › Customize View hides the tree, the Actions pane, the toolbar and
 * the status bar (remembered), and the list takes the room.
 */
import { expandPath, expect, test, treeItem } from '../support/fixtures.js';

test.use({ viewport: { width: 1024, height: 640 } });

test('at 1024×640 the list shows its main columns and the filter bar takes at most two rows', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.fill('.\\private$\\orders', 30);
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  const grid = page.locator('.message-grid');
  const gridBox = await grid.boundingBox();
  const right = (gridBox?.x ?? 0) + (gridBox?.width ?? 0);
  for (const name of ['Label', 'Priority', 'Class', 'Size', 'Arrived']) {
    const header = await grid.getByRole('columnheader', { name, exact: true }).boundingBox();
    expect((header?.x ?? 0) + (header?.width ?? 0), `${name} fits`).toBeLessThanOrEqual(right + 1);
  }
  await page.keyboard.press('Control+f');
  const bar = await page.getByRole('search', { name: 'Filter messages' }).boundingBox();
  expect(bar?.height ?? 0).toBeLessThanOrEqual(64);
});

test('Customize View hides the tree, the Actions pane, the toolbar and the status bar, and remembers it', async ({
  consolePage: page,
}) => {
  await treeItem(page, 'Private Queues').click();
  const before = (await page.locator('.result-pane').boundingBox())?.width ?? 0;
  await page.getByRole('menuitem', { name: 'View' }).click();
  await page.getByRole('menuitem', { name: 'Customize View…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Customize View' });
  for (const part of ['Console tree', 'Action pane', 'Standard toolbar', 'Status bar'])
    await dialog.getByRole('checkbox', { name: part }).uncheck();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('tree', { name: 'Console tree' })).toHaveCount(0);
  await expect(page.locator('.actions-pane')).toHaveCount(0);
  await expect(page.getByRole('toolbar', { name: 'Toolbar' })).toHaveCount(0);
  await expect(page.locator('.status-bar')).toHaveCount(0);
  const after = (await page.locator('.result-pane').boundingBox())?.width ?? 0;
  expect(after).toBeGreaterThan(before + 300);
  expect(after).toBeGreaterThan(1000);

  // Remembered: a reload keeps the layout; the menu bar still reaches Customize View to bring them back.
  await page.reload();
  await expect(page.getByRole('menuitem', { name: 'View' })).toBeVisible();
  await expect(page.getByRole('tree', { name: 'Console tree' })).toHaveCount(0);
  await page.keyboard.press('Alt+v');
  await page.keyboard.press('c');
  await page.keyboard.press('c');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Customize View' }).getByRole('checkbox', { name: 'Console tree' }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tree', { name: 'Console tree' })).toBeVisible();
});
