/**
 * Issue 12, point 3: names beside numbers everywhere (acknowledgment level, journal flags, delivery), and
 * timers shown only where they still run: a message in its queue has met its time to reach queue.
 */
import { expandPath, expect, test } from '../support/fixtures.js';

test('a message shows its acknowledgment level and journal flags by name, and only the timers that run', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('queueCreate', { path: '.\\private$\\acks' });
  await service.call('send', {
    path: '.\\private$\\orders',
    message: {
      label: 'named',
      acknowledge: 5,
      adminQueue: '.\\private$\\acks',
      journal: 3,
      timeToBeReceived: 3600,
    },
  });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).first().click();
  const grid = page.locator('.message-grid');
  await grid.getByRole('row').filter({ hasText: 'named' }).dblclick();
  const props = page.getByRole('dialog', { name: 'named Properties' });
  const field = (label: string) => props.locator('.field').filter({ has: page.getByText(label, { exact: true }) });
  await expect(field('Acknowledgment requested')).toContainText('Full reach queue (positive and negative arrival) · 5');
  await expect(field('Journal / dead letter')).toContainText('Journal and dead letter · 3');
  await expect(field('Delivery')).toContainText('Express (in memory; lost if Message Queuing restarts)');
  // It reached its queue: that timer no longer runs. Time to be received does, until it is received.
  await expect(field('Time to reach queue')).toContainText('— met: arrived');
  await expect(field('Time to reach queue')).not.toContainText('left');
  // Issue 9, §1.1: the time that remains, counting down while the sheet is open.
  const left = async () => {
    const text = (await field('Time to be received').textContent()) ?? '';
    const match = /(?:(\d+) h )?(\d+) min(?: (\d+) s)? left \(until /.exec(text);
    return match ? Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0) : Number.NaN;
  };
  const first = await left();
  expect(first).toBeGreaterThan(3_500);
  await expect.poll(left, { timeout: 5_000 }).toBeLessThan(first);
  await props.getByRole('button', { name: 'Close' }).click();

  // The same names in the list's columns (View › Add/Remove Columns).
  await page.getByRole('menuitem', { name: 'View' }).click();
  await page.getByRole('menuitem', { name: 'Add/Remove Columns…' }).click();
  const columns = page.getByRole('dialog', { name: 'Add/Remove Columns' });
  for (const name of ['Acknowledgment', 'Journal', 'Delivery']) {
    await columns
      .getByRole('listbox', { name: 'Available columns' })
      .getByRole('option', { name, exact: true })
      .click();
    await columns.getByRole('button', { name: 'Add →' }).click();
  }
  await columns.getByRole('button', { name: 'OK' }).click();
  const row = grid.getByRole('row').filter({ hasText: 'named' });
  await expect(row).toContainText('Full reach queue (positive and negative arrival)');
  await expect(row).toContainText('Journal and dead letter');
  await expect(row).toContainText('Express');
});
