/**
 * Issue 12, point 5: honest results for bulk jobs. A resend reports destination by destination — when every
 * message to one destination fails, it says so; an import shows a preview (count, source queue, classes)
 * first and sends the messages as new ones by default (class NORMAL, sent now, timers from now).
 */
import { readFileSync } from 'node:fs';
import { action, expandPath, expect, messageGrid, readMessageFile, test, treeItem } from '../support/fixtures.js';

test('resend says per destination what was sent and what failed', async ({ consolePage: page, service }) => {
  // Too small for the messages: with the dead-letter flag each send becomes a dead letter (NACK_Q_EXCEED_QUOTA).
  await service.call('queueCreate', { path: '.\\private$\\orders', quotaKB: 1 });
  await service.call('queueCreate', { path: '.\\private$\\billing', quotaKB: 1 });
  const big = 'x'.repeat(3_000);
  for (let i = 1; i <= 3; i += 1)
    await service.call('send', {
      path: '.\\private$\\orders',
      message: { label: `order-${i}`, body: big, journal: 1 },
    });
  for (let i = 1; i <= 2; i += 1)
    await service.call('send', {
      path: '.\\private$\\billing',
      message: { label: `bill-${i}`, body: big, journal: 1 },
    });
  // orders gets room again; billing stays full, so every message to billing fails again.
  await service.call('queueSet', { path: '.\\private$\\orders', quotaKB: null });
  await expandPath(page, ['System Queues']);
  await treeItem(page, 'Dead-letter messages').click();
  await expect(page.locator('.result-facts')).toContainText('5 messages');
  await action(page, 'resendAll').click();
  await page.getByRole('dialog', { name: 'Resend dead letters' }).getByRole('button', { name: 'Resend' }).click();
  const job = page.locator('.status-bar .job');
  await expect(job).toHaveAttribute('data-job-state', 'done');
  await expect(job.locator('.job-summary')).toHaveText(
    /^Resent 3 of 5 messages\. \.\\private\$\\orders: 3 sent\. \.\\private\$\\billing: 2 failed \([A-Z_]+ 2\)\.$/,
  );
  await job.locator('summary').click();
  await expect(job.locator('.job-failures li')).toHaveCount(2);
  await expect(job.locator('.job-failures li').first()).toContainText('billing');
});

test('import previews the file and sends the messages as new ones by default', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\full', quotaKB: 1 });
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  for (let i = 1; i <= 4; i += 1)
    await service.call('send', {
      path: '.\\private$\\full',
      message: { label: `late-${i}`, body: 'y'.repeat(2_000), journal: 1 },
    });
  await expandPath(page, ['System Queues', 'Private Queues']);
  await treeItem(page, 'Dead-letter messages').click();
  await expect(page.locator('.result-facts')).toContainText('4 messages');

  // Export the four dead letters (Ctrl+A, Export…).
  await messageGrid(page).getByRole('row').filter({ hasText: 'late-1' }).click();
  await page.keyboard.press('Control+a');
  const download = page.waitForEvent('download');
  await action(page, 'export').click();
  const file = await (await download).path();
  expect(readMessageFile(readFileSync(file, 'utf8')).messages).toHaveLength(4);

  // Import into orders: the preview first, "send as new messages" chosen by default.
  await treeItem(page, 'orders').click();
  await action(page, 'import').click();
  const dialog = page.getByRole('dialog', { name: 'Import messages into orders' });
  await dialog.getByLabel('Export file').setInputFiles(file);
  const preview = dialog.getByRole('region', { name: 'File contents' });
  await expect(preview).toContainText('4 (');
  await expect(preview).toContainText('.\\DEADLETTER$ on ALPHA');
  await expect(preview).toContainText('NACK_Q_EXCEED_QUOTA 4');
  await expect(dialog.getByLabel(/Send as new messages/)).toBeChecked();
  // Keeping them as they were is a choice, with what it means said beside it.
  await dialog.getByLabel(/Keep them as they were/).check();
  await expect(dialog.getByRole('note')).toContainText('4 keep a NACK class');
  await dialog.getByLabel(/Send as new messages/).check();
  await dialog.getByRole('button', { name: 'Import' }).click();
  const job = page.locator('.status-bar .job').last();
  await expect(job).toContainText('Imported 4 of 4 messages into .\\private$\\orders as new messages.');
  const imported = (await service.call('browse', { path: '.\\private$\\orders' })).messages;
  expect(imported.map((m) => m.classCode)).toEqual([0, 0, 0, 0]);
  const dead = (await service.call('browse', { path: '.\\DEADLETTER$' })).messages;
  expect(imported.some((m) => dead.some((d) => d.id === m.id))).toBe(false);
  expect(Date.now() - Date.parse(imported[0]?.sentTime ?? '')).toBeLessThan(60_000);
});
