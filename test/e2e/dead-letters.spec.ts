import { action, expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from './support/fixtures.js';

test('resends dead letters to their original destination and reports those that fail again', async ({
  consolePage: page,
  service,
}) => {
  // Queues too small for the messages: with the dead-letter flag, each send is dead-lettered as
  // NACK_Q_EXCEED_QUOTA (0x8003) — for two destinations.
  await service.call('queueCreate', { path: '.\\private$\\orders', quotaKB: 1 });
  await service.call('queueCreate', { path: '.\\private$\\billing', quotaKB: 1 });
  const big = 'x'.repeat(3_000);
  for (let i = 1; i <= 4; i += 1)
    await service.call('send', {
      path: '.\\private$\\orders',
      message: { label: `order-${i}`, body: big, journal: 1 },
    });
  await service.call('send', { path: '.\\private$\\billing', message: { label: 'invoice-1', body: big, journal: 1 } });
  await expandPath(page, ['System Queues']);
  await treeItem(page, 'Dead-letter messages').click();
  await expect(page.locator('.result-facts')).toContainText('5 messages');
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'NACK_Q_EXCEED_QUOTA 0x8003' })).toHaveCount(5);
  await saveScreenshot(page, 'dead-letter-messages');

  // The administrator lifts the orders quota; billing stays full, so its message must fail again and stay.
  await service.call('queueSet', { path: '.\\private$\\orders', quotaKB: null });
  await action(page, 'resendAll').click();
  const confirm = page.getByRole('dialog', { name: 'Resend dead letters' });
  await expect(confirm).toContainText('Resend 5 messages to their original destination queues?');
  await confirm.getByRole('button', { name: 'Resend' }).click();
  const job = page.locator('.status-bar .job');
  await expect(job).toHaveAttribute('data-job-state', 'done');
  await expect(job).toContainText(
    'Resent 4 of 5 messages. .\\private$\\orders: 4 sent. .\\private$\\billing: 1 failed',
  );
  await job.locator('summary').click();
  await expect(job.locator('.job-failures li')).toContainText('billing');
  await saveScreenshot(page, 'resend-dead-letters');
  await expect(page.locator('.result-facts')).toContainText('1 message');
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'invoice-1' })).toBeVisible();
  expect((await service.call('queueShow', { path: '.\\private$\\orders' })).messageCount).toBe(4);
});

test('resends only the selected dead letters', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: '.\\private$\\orders', quotaKB: 1 });
  for (let i = 1; i <= 3; i += 1)
    await service.call('send', {
      path: '.\\private$\\orders',
      message: { label: `order-${i}`, body: 'x'.repeat(3_000), journal: 1 },
    });
  await service.call('queueSet', { path: '.\\private$\\orders', quotaKB: null });
  await expandPath(page, ['System Queues']);
  await treeItem(page, 'Dead-letter messages').click();
  await messageGrid(page).getByRole('row').filter({ hasText: 'order-2' }).click();
  await action(page, 'resend').click();
  await page.getByRole('dialog', { name: 'Resend dead letters' }).getByRole('button', { name: 'Resend' }).click();
  await expect(page.locator('.status-bar .job')).toContainText('Resent 1 of 1 message. .\\private$\\orders: 1 sent.');
  await expect(page.locator('.result-facts')).toContainText('2 messages');
  const orders = await service.call('browse', { path: '.\\private$\\orders' });
  expect(orders.messages.map((m) => m.label)).toEqual(['order-2']);
});
