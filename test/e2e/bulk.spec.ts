import { readFileSync } from 'node:fs';
import {
  action,
  expandPath,
  expect,
  messageGrid,
  readMessageFile,
  saveScreenshot,
  test,
  treeItem,
} from './support/fixtures.js';

test('moves, exports, imports and deletes selected messages', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('queueCreate', { path: '.\\private$\\archive' });
  for (let i = 1; i <= 4; i += 1)
    await service.call('send', {
      path: '.\\private$\\orders',
      message: { label: `order-${i}`, bodyBase64: Buffer.from([0, 1, 2, 250 + i]).toString('base64'), priority: i },
    });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  const grid = messageGrid(page);
  const row = (label: string) => grid.getByRole('row').filter({ hasText: label });

  // Select two with Ctrl+click and export them.
  await row('order-1').click();
  await row('order-3').click({ modifiers: ['Control'] });
  await expect(page.locator('.result-facts')).toContainText('2 selected');
  const download = page.waitForEvent('download');
  await action(page, 'export').click();
  const file = await (await download).path();
  const exported = readMessageFile(readFileSync(file, 'utf8'));
  // The file `qk import` reads too (docs/message-file-format.md).
  expect(exported.header).toMatchObject({ format: 'queuekeeper.messages', version: 2, path: '.\\private$\\orders' });
  expect(exported.messages.map((m) => m.label).sort()).toEqual(['order-1', 'order-3']);
  expect(exported.messages.find((m) => m.label === 'order-1')?.bodyBase64).toBe(
    Buffer.from([0, 1, 2, 251]).toString('base64'),
  );

  // Move them to the archive queue.
  await action(page, 'moveMessages').click();
  const move = page.getByRole('dialog', { name: 'Move to another queue' });
  await expect(move).toContainText('Move 2 messages from .\\private$\\orders to:');
  await move.getByLabel('Destination queue').selectOption('.\\private$\\archive');
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(page.locator('.result-facts')).toContainText('2 messages');
  expect((await service.call('browse', { path: '.\\private$\\archive' })).messages.map((m) => m.label).sort()).toEqual([
    'order-1',
    'order-3',
  ]);

  // Import the export back into orders as new messages; binary bodies survive byte for byte.
  await action(page, 'import').click();
  const importDialog = page.getByRole('dialog', { name: 'Import messages into orders' });
  await importDialog.getByLabel('Export file').setInputFiles(file);
  await expect(importDialog.getByLabel(/Send as new messages/)).toBeChecked();
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(page.locator('.status-bar .job').last()).toContainText(
    'Imported 2 of 2 messages into .\\private$\\orders as new messages.',
  );
  await expect(page.locator('.result-facts')).toContainText('4 messages');
  const orders = await service.call('browse', { path: '.\\private$\\orders', includeBody: true });
  expect(orders.messages.find((m) => m.label === 'order-3')?.bodyBase64).toBe(
    Buffer.from([0, 1, 2, 253]).toString('base64'),
  );

  // Del deletes the selection after confirming the count. The imported rows must be on screen first: a click
  // while the page refreshes lands on whatever row is under the pointer by then (order-3 moves into order-2's place).
  await expect(grid.getByRole('row').filter({ hasText: /order-\d/ })).toHaveText([
    /order-4/,
    /order-3/,
    /order-2/,
    /order-1/,
  ]);
  await row('order-2').click();
  await expect(page.locator('.result-facts')).toContainText('1 selected');
  await grid.press('Delete');
  const confirm = page.getByRole('alertdialog', { name: 'Delete messages' });
  await expect(confirm).toContainText('Delete 1 message from .\\private$\\orders?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('.result-facts')).toContainText('3 messages');
  await expect(row('order-2')).toHaveCount(0);
});

test('queue properties: label and quota change, transactional stays read-only', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\billing', transactional: true, journal: true });
  await service.call('send', {
    path: '.\\private$\\billing',
    message: { label: 'invoice', body: 'x'.repeat(600) },
    transactional: true,
  });
  await expandPath(page, ['Private Queues']);
  await treeItem(page, 'billing').click();
  await action(page, 'queueProperties').click();
  const props = page.getByRole('dialog', { name: 'billing Properties' });
  await expect(props.getByLabel(/Transactional \(set when/)).toBeChecked();
  await expect(props.getByLabel(/Transactional \(set when/)).toBeDisabled();
  await props.getByLabel('Label').fill('Invoices to post');
  await props.getByLabel('Limit message storage to (KB)').fill('64');
  await props.getByRole('button', { name: 'Apply' }).click();
  await expect(props.locator('.field').filter({ hasText: 'Messages' }).getByRole('progressbar')).toHaveAttribute(
    'aria-valuetext',
    /of 64 KB/,
  );
  await saveScreenshot(page, 'queue-properties');
  await props.getByRole('tab', { name: 'Journal' }).click();
  await expect(props.getByLabel(/Enabled \(keep a copy/)).toBeChecked();
  await props.getByRole('button', { name: 'OK' }).click();
  const queue = await service.call('queueShow', { path: '.\\private$\\billing' });
  expect(queue).toMatchObject({ label: 'Invoices to post', quotaKB: 64, transactional: true });
  await treeItem(page, 'Private Queues').click();
  await expect(
    page.getByRole('grid', { name: 'Private Queues' }).getByRole('row').filter({ hasText: 'Invoices to post' }),
  ).toBeVisible();
});

test('send test message dialog offers every send property', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('queueCreate', { path: '.\\private$\\admin' });
  await expandPath(page, ['Private Queues']);
  await treeItem(page, 'orders').click();
  await action(page, 'sendTest').click();
  const send = page.getByRole('dialog', { name: /Send test message to orders/ });
  await send.getByLabel('Label', { exact: true }).fill('full');
  await send.getByLabel('Recoverable').check();
  await send.getByRole('tab', { name: 'Acknowledgment and timers' }).click();
  await send.getByLabel('Acknowledgment', { exact: true }).selectOption('full-reach-queue');
  await send.getByLabel('Administration queue').fill('.\\private$\\admin');
  await send.getByLabel('Journal').selectOption('both');
  await send.getByLabel('Time to reach queue (s)').fill('600');
  await saveScreenshot(page, 'send-test-message');
  await send.getByRole('tab', { name: 'Advanced' }).click();
  await send.getByLabel('Application-specific').fill('42');
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden();
  const [m] = (await service.call('browse', { path: '.\\private$\\orders' })).messages;
  expect(m).toMatchObject({
    label: 'full',
    delivery: 'recoverable',
    acknowledge: 5,
    adminQueue: '.\\private$\\admin',
    journal: 3,
    timeToReachQueue: 600,
    appSpecific: 42,
  });
  // ACK_REACH_QUEUE arrived in the admin queue.
  await expect(treeItem(page, 'admin').locator('.tree-count')).toHaveText('1');
});
