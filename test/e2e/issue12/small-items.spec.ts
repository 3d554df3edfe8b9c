/**
 * Issue 12, point 9: the small things that tell. A filter stays with its queue; the Move dialog offers only
 * application queues; a new queue is selected once created; deleting a queue names its journal's messages;
 * a message's properties say when another program received it; the header and the tree agree while
 * messages stream in.
 */
import { action, expandPath, expect, messageGrid, test, treeItem } from '../support/fixtures.js';

const ORDERS = '.\\private$\\orders';
const BILLING = '.\\private$\\billing';

test('a filter stays with its queue, and Move offers only application queues', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('queueCreate', { path: BILLING });
  await service.fill(ORDERS, 5);
  await service.fill(BILLING, 3, (i) => ({ label: `invoice ${i + 1}` }));
  await expandPath(page, ['Private Queues', 'orders', 'billing']);
  // Sorted by name: billing's nodes come first, then orders'.
  const queueMessages = page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' });
  await queueMessages.nth(1).click();
  await expect(page.locator('.result-title')).toHaveText('orders › Queue messages');
  await page.keyboard.press('Control+f');
  await page.getByLabel('Label contains').fill('message 2');
  await expect(page.locator('.result-facts')).toContainText('1 message matches the filter');

  await queueMessages.nth(0).click();
  await expect(page.locator('.result-title')).toHaveText('billing › Queue messages');
  await expect(page.locator('.result-facts')).toHaveText(/^3 messages/);
  await expect(page.locator('.result-facts')).not.toContainText('filter');
  await expect(messageGrid(page).getByRole('row').filter({ hasText: 'invoice' })).toHaveCount(3);

  await messageGrid(page).getByRole('row').filter({ hasText: 'invoice 1' }).click();
  await action(page, 'moveMessages').click();
  const move = page.getByRole('dialog', { name: 'Move to another queue' });
  const choices = await move.getByLabel('Destination queue').locator('option').allTextContents();
  expect(choices).toEqual([ORDERS]);
});

test('a new queue is selected once created; deleting a queue names its journal messages', async ({
  consolePage: page,
  service,
}) => {
  await treeItem(page, 'Private Queues').click();
  await action(page, 'newPrivateQueue').click();
  const create = page.getByRole('dialog', { name: 'New Private Queue' });
  await create.getByLabel('Queue name').fill('orders');
  await create.getByLabel('Journal enabled').check();
  await create.getByLabel('Limit message storage to (KB)').fill('lots');
  await expect(create.getByRole('alert')).toContainText('Enter a whole number of KB');
  await create.getByLabel('Limit message storage to (KB)').fill('');
  await create.getByRole('button', { name: 'OK' }).click();
  const list = page.getByRole('grid', { name: 'Private Queues' });
  await expect(list.getByRole('row', { selected: true })).toContainText('orders');

  await service.fill(ORDERS, 4);
  await service.call('receiveBatch', { path: ORDERS, max: 3 });
  // Both counts, each in its own column: a '3' anywhere in the row (a size) is no sign the receives are seen.
  const cells = list.getByRole('row', { selected: true }).getByRole('gridcell');
  await expect(cells.nth(1)).toHaveText('1');
  await expect(cells.nth(4)).toHaveText('3');
  await page
    .getByRole('toolbar', { name: 'Toolbar' })
    .getByRole('button', { name: /Delete/ })
    .click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete queue' });
  await expect(confirm).toContainText(
    `Delete the queue ${ORDERS} with its 1 message and the 3 messages in its journal?`,
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
});

test("a message's properties say when another program received it", async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('send', { path: ORDERS, message: { label: 'watched', body: 'hello' } });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  await messageGrid(page).getByRole('row').filter({ hasText: 'watched' }).dblclick();
  const props = page.getByRole('dialog', { name: /^watched Properties/ });
  await expect(props).toBeVisible();
  await service.call('receive', { path: ORDERS });
  await expect(props).toHaveAccessibleName('watched Properties (no longer in the queue)');
  await expect(props.getByRole('status')).toContainText(
    'This message is no longer in orders › Queue messages. It was received by an application.',
  );
  // What it was stays readable.
  await props.getByRole('tab', { name: 'Body' }).click();
  await expect(props.getByLabel('Message body')).toHaveText('hello');
});

test('the header and the tree show the same count while messages stream in', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: ORDERS });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  let sending = true;
  const sender = (async () => {
    for (let i = 0; sending && i < 400; i += 1)
      await service.call('send', { path: ORDERS, message: { label: `live ${i}` } });
  })();
  const mismatches: string[] = [];
  for (let sample = 0; sample < 20; sample += 1) {
    await page.waitForTimeout(100);
    const [header, tree] = await page.evaluate(() => [
      document.querySelector('.result-facts')?.textContent ?? '',
      document.querySelector('[role="treeitem"][aria-selected="true"] .tree-count')?.textContent ?? '',
    ]);
    const count = /^([\d,]+) messages?/.exec(header)?.[1];
    if (count !== tree) mismatches.push(`${header} / ${tree}`);
  }
  sending = false;
  await sender;
  expect(mismatches).toEqual([]);
});
