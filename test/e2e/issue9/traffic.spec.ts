/**
 * Issue 9, the console's part that is on main: live rate and depth charts (uPlot) of the computer and of a
 * queue while a script sends, and the dead-letter view grouped by class, each group one click from its
 * messages.
 */
import { expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from '../support/fixtures.js';

test('the computer overview and a queue properties sheet chart the traffic live', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await treeItem(page, 'Message Queuing').click();
  const overview = page.getByRole('region', { name: 'Traffic of Message Queuing' });
  await expect(overview.getByRole('img', { name: 'Messages per second' }).locator('canvas')).toBeVisible();
  // A script sends while the administrator watches: the counts go up without F5.
  for (let i = 0; i < 25; i += 1)
    await service.call('send', { path: '.\\private$\\orders', message: { label: `t${i}` } });
  await service.call('receiveBatch', { path: '.\\private$\\orders', max: 5 });
  await expect(overview.getByRole('status')).toContainText(/Last 5 minutes: 25 in, 5 out; .* depth 20\./);
  await saveScreenshot(page, 'traffic-overview');

  await expandPath(page, ['Private Queues']);
  await treeItem(page, 'orders').click();
  await page.keyboard.press('Alt+Enter');
  const props = page.getByRole('dialog', { name: 'orders Properties' });
  await props.getByRole('tab', { name: 'Traffic' }).click();
  const traffic = props.getByRole('region', { name: 'Traffic of orders' });
  await expect(traffic.getByRole('img', { name: 'Depth (messages in the queue)' }).locator('canvas')).toBeVisible();
  await expect(traffic.getByRole('status')).toContainText('25 in, 5 out');
  await service.call('send', { path: '.\\private$\\orders', message: { label: 'one more' } });
  await expect(traffic.getByRole('status')).toContainText('26 in, 5 out');
});

test('the dead-letter queue by class: counts per failure, one click to its messages', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\small', quotaKB: 1 });
  for (let i = 0; i < 3; i += 1)
    await service.call('send', {
      path: '.\\private$\\small',
      message: { label: `big ${i}`, body: 'x'.repeat(3_000), journal: 1 },
    });
  for (let i = 0; i < 2; i += 1)
    await service.call('messageArrive', {
      path: '.\\private$\\nowhere',
      message: {
        id: `{6f1c2a3b-0000-4000-8000-00000000beef}\\${i + 1}`,
        sourceMachine: 'BETA',
        sourceMachineId: '6f1c2a3b-0000-4000-8000-00000000beef',
        label: `lost ${i}`,
        journal: 1,
      },
    });
  await expandPath(page, ['System Queues']);
  await treeItem(page, 'Dead-letter messages').click();
  const groups = page.getByRole('group', { name: 'Messages by class' });
  await expect(groups.getByRole('button')).toHaveText(['NACK_Q_EXCEED_QUOTA 0x8003 3', 'NACK_BAD_DST_Q 0x8000 2']);
  await groups.getByRole('button', { name: /NACK_BAD_DST_Q/ }).click();
  await expect(groups.getByRole('button', { name: /NACK_BAD_DST_Q/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.result-facts')).toContainText('2 messages match the filter');
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'lost' })).toHaveCount(2);
  await saveScreenshot(page, 'dead-letters-by-class');
  await groups.getByRole('button', { name: /NACK_BAD_DST_Q/ }).click();
  await expect(page.locator('.result-facts')).toContainText('5 messages');
});
