/**
 * The console as an administrator sees it on a Monday morning (ten queues, about 3,000 messages, dead
 * letters, NACKs, journals, a full journal), at 1400×860 and 1024×640, light and dark. Each view is
 * checked for what it must show, then saved (into docs/screenshots with QK_SCREENSHOTS=docs).
 */
import { expandPath, expect, saveScreenshot, test, treeItem } from '../support/fixtures.js';
import { mondayMorning } from '../support/scene.js';

const variants = [
  { width: 1400, height: 860, scheme: 'light' },
  { width: 1400, height: 860, scheme: 'dark' },
  { width: 1024, height: 640, scheme: 'light' },
  { width: 1024, height: 640, scheme: 'dark' },
] as const;

for (const v of variants) {
  test.describe(`${v.width}×${v.height} ${v.scheme}`, () => {
    test.use({ viewport: { width: v.width, height: v.height }, colorScheme: v.scheme });

    test('the main views', async ({ consolePage: page, service }) => {
      test.setTimeout(120_000);
      await mondayMorning(service);
      await page.keyboard.press('F5');
      const name = (view: string) => `${view}-${v.width}-${v.scheme}`;
      await expandPath(page, ['Private Queues', 'System Queues']);

      // Private Queues: quotas, journal columns, the full journal flagged.
      await treeItem(page, 'Private Queues').click();
      const list = page.getByRole('grid', { name: 'Private Queues' });
      await list.getByRole('row').filter({ hasText: 'Orders from the web shop' }).click();
      await expect(treeItem(page, 'orders').locator('.warn-badge')).toBeVisible();
      await expect(page.locator('.status-bar [data-status="quota-warning"]')).toBeVisible();
      await saveScreenshot(page, name('queues'));

      // A queue's messages with the filter bar open.
      await expandPath(page, ['orders']);
      await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
      await expect(page.locator('.message-grid [aria-rowindex="2"]')).not.toContainText('Loading');
      await page.keyboard.press('Control+f');
      await page.locator('.message-grid').getByRole('row').nth(3).click();
      await saveScreenshot(page, name('messages'));

      // Dead letters: NACK classes by name and code.
      await treeItem(page, 'Dead-letter messages').click();
      await expect(page.locator('.message-grid')).toContainText('NACK_BAD_DST_Q');
      await saveScreenshot(page, name('dead-letters'));

      // A message's properties with names beside numbers.
      await page.locator('.message-grid').getByRole('row').nth(1).dblclick();
      await expect(page.getByRole('dialog', { name: /Properties/ })).toContainText('Acknowledgment requested');
      await saveScreenshot(page, name('message-properties'));
      await page.keyboard.press('Escape');

      // The restart question with what it would lose.
      await treeItem(page, 'Message Queuing').click();
      await page.locator('.actions-pane [data-action="restart"]').click();
      await expect(page.getByRole('alertdialog', { name: 'Restart Message Queuing' })).toContainText(
        'express messages in',
      );
      await saveScreenshot(page, name('restart-confirmation'));
      await page.keyboard.press('Escape');
    });
  });
}
