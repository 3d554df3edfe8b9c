/**
 * Issue 12, point 1: every action that loses data asks first, names what will be lost and defaults to
 * Cancel — Restart Message Queuing from every place it is offered: the Actions pane, the Action menu by
 * mouse and by keyboard, the tree's context menu by right-click and by Shift+F10, and Computer Properties.
 */
import { expandPath, expect, test, treeItem, type Page } from '../support/fixtures.js';
import type { RunningService } from '../support/service.js';

const ORDERS = '.\\private$\\orders';
const AUDIT = '.\\private$\\audit';

/** The confirmation: its question names the loss, and Cancel has the focus. */
async function expectRestartQuestion(page: Page) {
  const confirm = page.getByRole('alertdialog', { name: 'Restart Message Queuing' });
  await expect(confirm).toContainText('Restart Message Queuing on ALPHA? 5 express messages in 2 queues will be lost.');
  await expect(confirm).toContainText('Express messages are kept in memory only: orders 3, audit 2.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  return confirm;
}

/** Messages in application queues now (express and recoverable). */
async function messagesIn(service: RunningService): Promise<number> {
  const queues = await service.call('queueList', {});
  return queues.filter((q) => q.type === 'private').reduce((n, q) => n + q.messageCount, 0);
}

test('restart asks with the count of express messages from every place it is offered; Cancel loses nothing', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('queueCreate', { path: AUDIT });
  await service.fill(ORDERS, 3);
  await service.fill(AUDIT, 2);
  await service.call('send', { path: AUDIT, message: { label: 'kept on disk', delivery: 'recoverable' } });
  await page.keyboard.press('F5');
  const msmq = treeItem(page, 'Message Queuing');
  await msmq.click();

  // 1. The Actions pane; Enter on the default button cancels.
  await page.locator('.actions-pane [data-action="restart"]').click();
  let confirm = await expectRestartQuestion(page);
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();

  // 2. The Action menu, by mouse.
  await page.getByRole('menuitem', { name: 'Action' }).click();
  await page
    .getByRole('menu', { name: 'Action' })
    .getByRole('menuitem', { name: /Restart Message Queuing/ })
    .click();
  confirm = await expectRestartQuestion(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // 3. The Action menu, by keyboard: Alt+A, R (type-ahead), Enter; Esc cancels.
  await page.getByRole('tree', { name: 'Console tree' }).focus();
  await page.keyboard.press('Alt+a');
  await expect(page.getByRole('menu', { name: 'Action' })).toBeVisible();
  await page.keyboard.press('r');
  await page.keyboard.press('Enter');
  confirm = await expectRestartQuestion(page);
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();

  // 4. The tree's context menu, by right-click on the computer.
  await treeItem(page, 'ALPHA (this computer)').click({ button: 'right' });
  await page
    .getByRole('menu', { name: 'Context menu' })
    .getByRole('menuitem', { name: /Restart Message Queuing/ })
    .click();
  await expectRestartQuestion(page);
  await page.keyboard.press('Escape');

  // 5. The tree's context menu by Shift+F10 on the selected node.
  await msmq.click();
  await page.keyboard.press('Shift+F10');
  await page
    .getByRole('menu', { name: 'Context menu' })
    .getByRole('menuitem', { name: /Restart Message Queuing/ })
    .click();
  await expectRestartQuestion(page);
  await page.keyboard.press('Escape');

  // Five times asked, five times cancelled: nothing restarted, nothing lost.
  expect(await messagesIn(service)).toBe(6);

  // 6. Computer Properties › Service: the same question over the sheet; this time Restart.
  await page.locator('.actions-pane [data-action="computerProperties"]').click();
  const props = page.getByRole('dialog', { name: /Message Queuing Properties/ });
  await props.getByRole('tab', { name: 'Service' }).click();
  await props.getByRole('button', { name: 'Restart Message Queuing…' }).click();
  confirm = await expectRestartQuestion(page);
  await confirm.getByRole('button', { name: 'Restart' }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(() => messagesIn(service)).toBe(1);
  // After the restart the sheet still closes with Esc (the keyboard is not lost).
  await expect(props).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(props).toBeHidden();
  await expandPath(page, ['Private Queues']);
  await expect(treeItem(page, 'audit').locator('.tree-count')).toHaveText('1');
  await expect(treeItem(page, 'orders').locator('.tree-count')).toHaveText('0');
});

test('with nothing to lose the restart question says so', async ({ consolePage: page, service }) => {
  await service.call('queueCreate', { path: ORDERS });
  await service.call('send', { path: ORDERS, message: { delivery: 'recoverable' } });
  await treeItem(page, 'Message Queuing').click();
  await page.locator('.actions-pane [data-action="restart"]').click();
  const confirm = page.getByRole('alertdialog', { name: 'Restart Message Queuing' });
  await expect(confirm).toContainText('No messages will be lost: there are no express messages now.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
});
