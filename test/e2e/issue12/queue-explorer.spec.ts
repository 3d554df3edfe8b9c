/**
 * Issue 12, point 10: QueueExplorer's daily tools — search across all queues, the extra filters (correlation
 * ID, application-specific value, source computer), copy message ID / body, save a body and export one
 * message to a file, edit and resend, send a copy, copy and paste, drag and drop (move, Ctrl to copy).
 */
import { readFileSync } from 'node:fs';
import { action, expandPath, expect, messageGrid, readMessageFile, test, treeItem } from '../support/fixtures.js';

const ORDERS = '.\\private$\\orders';
const ARCHIVE = '.\\private$\\archive';

test('search all queues finds messages anywhere and goes to one', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('queueCreate', { path: ARCHIVE });
  const { id } = await service.call('send', { path: ORDERS, message: { label: 'order 7', appSpecific: 77 } });
  await service.call('send', { path: ARCHIVE, message: { label: 'reply to 7', correlationId: id } });
  await service.call('send', { path: ARCHIVE, message: { label: 'unrelated' } });
  await treeItem(page, 'Message Queuing').click();
  await page.keyboard.press('Control+Shift+F');
  const search = page.getByRole('dialog', { name: 'Search all queues on ALPHA' });
  await search.getByLabel('Correlation ID').fill(id);
  await search.getByRole('button', { name: 'Search' }).click();
  const results = search.getByRole('region', { name: 'Search results' });
  await expect(results.getByRole('status')).toHaveText('1 message in 1 queue.');
  await expect(results).toContainText('archive › Queue messages');
  await expect(results).toContainText('reply to 7');

  await search.getByLabel('Correlation ID').fill('');
  await search.getByLabel('Application-specific').fill('77');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(results).toContainText('order 7');
  await results.getByRole('button', { name: 'Go to message' }).click();
  await expect(page.locator('.result-title')).toHaveText('orders › Queue messages');
  await expect(page.getByRole('dialog', { name: 'order 7 Properties' })).toBeVisible();
});

test('the filter bar filters by correlation ID, application-specific value and source computer', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: ORDERS });
  const { id } = await service.call('send', { path: ORDERS, message: { label: 'request' } });
  await service.call('send', { path: ORDERS, message: { label: 'answer', correlationId: id, appSpecific: 5 } });
  await service.call('send', { path: ORDERS, message: { label: 'other', appSpecific: 6 } });
  await service.call('messageArrive', {
    path: ORDERS,
    message: {
      id: '{6f1c2a3b-0000-4000-8000-00000000beef}\\1',
      sourceMachine: 'BETA',
      sourceMachineId: '6f1c2a3b-0000-4000-8000-00000000beef',
      label: 'from beta',
    },
  });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  await page.keyboard.press('Control+f');
  await page.getByRole('button', { name: /More/ }).click();
  const rows = messageGrid(page)
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
  await page.getByLabel('Correlation ID').fill(id);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('answer');
  await page.getByLabel('Correlation ID').fill('');
  await page.getByLabel('Application-specific').fill('6');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('other');
  await page.getByLabel('Application-specific').fill('');
  await page.getByLabel('Source computer contains').fill('bet');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('from beta');
});

test('copy ID and body, save a body, export one message', async ({ consolePage: page, service, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await service.call('queueCreate', { path: ORDERS });
  const { id } = await service.call('send', {
    path: ORDERS,
    message: { label: 'copy me', body: '{"order":7}' },
  });
  await service.call('send', {
    path: ORDERS,
    message: { label: 'binary', bodyBase64: Buffer.from([0, 1, 2, 255]).toString('base64') },
  });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  const row = (label: string) => messageGrid(page).getByRole('row').filter({ hasText: label });
  await row('copy me').click({ button: 'right' });
  await page.getByRole('menu', { name: 'Context menu' }).getByRole('menuitem', { name: 'Copy message ID' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(id);
  await row('copy me').click({ button: 'right' });
  await page.getByRole('menu', { name: 'Context menu' }).getByRole('menuitem', { name: 'Copy body' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('{"order":7}');

  // A binary body is saved byte for byte.
  await row('binary').click();
  const saved = page.waitForEvent('download');
  await action(page, 'saveBody').click();
  expect([...readFileSync(await (await saved).path())]).toEqual([0, 1, 2, 255]);

  // Export of one message: the file holds that message with every property.
  const exported = page.waitForEvent('download');
  await action(page, 'export').click();
  const doc = readMessageFile(readFileSync(await (await exported).path(), 'utf8'));
  expect(doc.messages.map((m) => m.label)).toEqual(['binary']);
});

test('edit and resend replaces the message; send a copy keeps it', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('queueCreate', { path: ARCHIVE });
  await service.call('send', {
    path: ORDERS,
    message: { label: 'typo', body: 'qty: 1O', priority: 5, appSpecific: 9, delivery: 'recoverable' },
  });
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  const row = (label: string) => messageGrid(page).getByRole('row').filter({ hasText: label });

  // Edit and resend: every property comes from the original; the original goes once the new one is sent.
  await row('typo').click();
  await action(page, 'editResend').click();
  const edit = page.getByRole('dialog', { name: 'Edit and resend typo' });
  await expect(edit.getByLabel('Body', { exact: true })).toHaveValue('qty: 1O');
  await expect(edit.getByLabel('Priority')).toHaveValue('5');
  await expect(edit.getByLabel(/Delete the original/)).toBeChecked();
  await edit.getByLabel('Label', { exact: true }).fill('fixed');
  await edit.getByLabel('Body', { exact: true }).fill('qty: 10');
  await edit.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(row('fixed')).toBeVisible();
  await expect(row('typo')).toHaveCount(0);
  const [fixed] = (await service.call('browse', { path: ORDERS, includeBody: true })).messages;
  expect(fixed).toMatchObject({
    label: 'fixed',
    body: 'qty: 10',
    priority: 5,
    appSpecific: 9,
    delivery: 'recoverable',
  });

  // Send a copy to another queue: the original stays.
  await row('fixed').click();
  await action(page, 'sendCopy').click();
  const copy = page.getByRole('dialog', { name: 'Send a copy of fixed' });
  await expect(copy.getByLabel(/Delete the original/)).not.toBeChecked();
  await copy.getByLabel('Send to').selectOption(ARCHIVE);
  await copy.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(copy).toBeHidden();
  await expect(row('fixed')).toBeVisible();
  const [copied] = (await service.call('browse', { path: ARCHIVE, includeBody: true })).messages;
  expect(copied).toMatchObject({ label: 'fixed', body: 'qty: 10', priority: 5, classCode: 0 });
  expect(copied?.id).not.toBe(fixed?.id);
});

test('copy and paste with Ctrl+C / Ctrl+V, and drag and drop: a drop moves, Ctrl+drop copies', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('queueCreate', { path: ARCHIVE });
  await service.call('queueCreate', { path: '.\\private$\\returns' });
  await service.fill(ORDERS, 4, (i) => ({ label: `order ${i + 1}` }));
  await expandPath(page, ['Private Queues', 'orders']);
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  const grid = messageGrid(page);
  const row = (label: string) => grid.getByRole('row').filter({ hasText: label });

  // Ctrl+C in the list, Ctrl+V on another queue (selected in the tree): copies, the originals stay.
  await row('order 1').click();
  await row('order 2').click({ modifiers: ['Control'] });
  await page.keyboard.press('Control+c');
  await treeItem(page, 'archive').click();
  await expect(page.locator('.actions-pane [data-action="paste"]')).toHaveText('Paste 2 messages from orders');
  await page.keyboard.press('Control+v');
  await expect(page.locator('.status-bar .job').last()).toContainText('Copied 2 messages to .\\private$\\archive.');
  expect((await service.call('browse', { path: ARCHIVE })).messages.map((m) => m.label)).toEqual([
    'order 1',
    'order 2',
  ]);
  expect((await service.call('queueShow', { path: ORDERS })).messageCount).toBe(4);

  // Drag a row onto a queue in the tree: it moves.
  await page.getByRole('treeitem', { level: 5 }).filter({ hasText: 'Queue messages' }).click();
  await row('order 3').dragTo(treeItem(page, 'returns'));
  await expect(page.locator('.status-bar .job').last()).toContainText('Moved 1 message to .\\private$\\returns.');
  await expect(row('order 3')).toHaveCount(0);
  // Ctrl+drag: a copy; the original stays in the list.
  await page.keyboard.down('Control');
  await row('order 4').dragTo(treeItem(page, 'returns'));
  await page.keyboard.up('Control');
  await expect(page.locator('.status-bar .job').last()).toContainText('Copied 1 message to .\\private$\\returns.');
  await expect(row('order 4')).toBeVisible();
  expect((await service.call('browse', { path: '.\\private$\\returns' })).messages.map((m) => m.label)).toEqual([
    'order 3',
    'order 4',
  ]);
});
