import { expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from './support/fixtures.js';

const COUNT = 1_000_000;

test('opens a 1,000,000-message queue and scrolls to the end', async ({ consolePage: page, service }) => {
  test.setTimeout(400_000);
  await service.call('queueCreate', { path: '.\\private$\\million' });
  await service.fill('.\\private$\\million', COUNT, (i) => ({
    label: `message ${i + 1}`,
    body: `body ${i + 1}`,
    priority: 3,
  }));
  await expandPath(page, ['Private Queues', 'million']);
  await expect(treeItem(page, 'million').locator('.tree-count')).toHaveText('1,000,000');

  const started = Date.now();
  await treeItem(page, 'Queue messages').click();
  const grid = messageGrid(page);
  await expect(grid.getByRole('row', { name: /message 1\b/ }).first()).toBeVisible();
  test.info().annotations.push({
    type: 'first rows painted (ms, incl. test overhead)',
    description: String(Date.now() - started),
  });
  await expect(page.locator('.result-facts')).toContainText('1,000,000 messages');
  await expect(grid).toHaveAttribute('aria-rowcount', String(COUNT + 1));
  // Only a window of rows exists in the DOM.
  expect(await grid.getByRole('row').count()).toBeLessThan(120);

  // Wheel scrolling stays smooth and rows fill in from the service's pages.
  await grid.hover();
  for (let i = 0; i < 10; i += 1) await page.mouse.wheel(0, 2_000);
  await expect(grid.locator('.loading-cell')).toHaveCount(0);

  // End key: focus and selection go to the last message, which is painted.
  await grid.focus();
  await page.keyboard.press('End');
  const last = grid.locator(`[aria-rowindex="${COUNT + 1}"]`);
  await expect(last).toBeVisible();
  await expect(last).toContainText(`message ${COUNT}`);
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(grid.locator('.loading-cell')).toHaveCount(0, { timeout: 15_000 });
  await saveScreenshot(page, 'million-messages-end');

  // Dragging the scroll bar to the middle lands on the middle rows.
  await grid.evaluate((el) => el.scrollTo({ top: (el.scrollHeight - el.clientHeight) / 2 }));
  await expect(grid.locator('.loading-cell')).toHaveCount(0, { timeout: 15_000 });
  const middle = Number(await grid.getByRole('row').nth(10).getAttribute('aria-rowindex'));
  expect(Math.abs(middle - COUNT / 2)).toBeLessThan(100);

  // Home returns to the first message.
  await page.keyboard.press('Home');
  await expect(grid.locator('[aria-rowindex="2"]')).toContainText('message 1');
});
