import { action, expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from './support/fixtures.js';

test('creates a queue, sends a test message that arrives live, and shows its properties and body', async ({
  consolePage: page,
  service,
}) => {
  // Create a private queue through the New private queue dialog.
  await treeItem(page, 'Private Queues').click();
  await action(page, 'newPrivateQueue').click();
  const create = page.getByRole('dialog', { name: 'New Private Queue' });
  await create.getByLabel('Queue name').fill('orders');
  await create.getByLabel('Journal enabled').check();
  await create.getByRole('button', { name: 'OK' }).click();
  await expect(create).toBeHidden();
  const queues = await service.call('queueList', {});
  expect(queues.find((q) => q.path.toLowerCase() === '.\\private$\\orders')?.journal).toBe(true);
  await expandPath(page, ['Private Queues', 'orders']);
  await treeItem(page, 'Queue messages').click();
  await expect(page.locator('.result-facts')).toHaveText('0 messages · 0 B');

  // Send a test message with a JSON body; it appears in the open list and in the tree count without F5.
  await action(page, 'sendTest').click();
  const send = page.getByRole('dialog', { name: /Send test message to orders/ });
  await send.getByLabel('Label', { exact: true }).fill('order-17');
  await send.getByLabel('Body', { exact: true }).fill('{"order":17,"lines":[{"sku":"A-1","qty":2}]}');
  await send.getByLabel('Priority').selectOption('5');
  await send.getByRole('tab', { name: 'Acknowledgment and timers' }).click();
  await send.getByLabel('Acknowledgment', { exact: true }).selectOption('full-receive');
  await send.getByLabel('Time to be received (s)').fill('3600');
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden();
  const row = messageGrid(page).getByRole('row').filter({ hasText: 'order-17' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('NORMAL 0x0000');
  await expect(treeItem(page, 'orders').locator('.tree-count')).toHaveText('1');
  await expect(page.locator('.result-facts')).toContainText('1 message');

  // A message sent by someone else (the CLI, an application) arrives live too.
  await service.call('send', {
    path: '.\\private$\\orders',
    message: { label: 'from-an-app', body: '<order id="18"><line sku="B-2"/></order>' },
  });
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'from-an-app' })).toBeVisible();
  await expect(treeItem(page, 'orders').locator('.tree-count')).toHaveText('2');
  await saveScreenshot(page, 'queue-messages');

  // Properties: General, Queues, Sender, Body (pretty JSON and hex).
  await row.dblclick();
  const props = page.getByRole('dialog', { name: 'order-17 Properties' });
  await expect(props).toBeVisible();
  await expect(props).toContainText('Priority5');
  await expect(props).toContainText('An application message.');
  await expect(props.locator('.field').filter({ hasText: 'Time to be received' })).toContainText('left');
  await props.getByRole('tab', { name: 'Queues' }).click();
  await expect(props.locator('.field').filter({ hasText: 'Destination queue' })).toContainText('orders');
  await props.getByRole('tab', { name: 'Sender' }).click();
  await expect(props).toContainText(service.id);
  await props.getByRole('tab', { name: 'Body' }).click();
  await expect(props.getByLabel('Message body')).toContainText('"sku": "A-1"');
  await saveScreenshot(page, 'message-properties-body');
  await props.getByRole('radio', { name: 'Hex' }).check();
  await expect(props.getByLabel('Message body')).toContainText('00000000  7b 22 6f 72 64 65 72 22');
  await page.keyboard.press('Escape');
  await expect(props).toBeHidden();

  // Keyboard: Enter on the focused row opens properties too.
  await messageGrid(page).focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: /Properties$/ })).toBeVisible();
  await page.keyboard.press('Escape');
});

test('service errors appear with their code', async ({ consolePage: page }) => {
  await treeItem(page, 'Private Queues').click();
  await action(page, 'newPrivateQueue').click();
  const create = page.getByRole('dialog', { name: 'New Private Queue' });
  await create.getByLabel('Queue name').fill('bad;name');
  await create.getByRole('button', { name: 'OK' }).click();
  await expect(create.getByRole('alert')).toContainText('ILLEGAL_QUEUE_PATHNAME');
  await expect(create).toBeVisible();
});
