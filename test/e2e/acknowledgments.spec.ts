import { expandPath, expect, messageGrid, saveScreenshot, test, treeItem } from './support/fixtures.js';

test('shows a NACK in the administration queue and jumps to its original in the dead-letter queue', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('queueCreate', { path: '.\\private$\\admin' });
  // TTBR 1 s with a dead-letter flag and NACK on receive failure: MSMQ sends NACK_RECEIVE_TIMEOUT (0xC002)
  // to the admin queue and moves the original to the dead-letter queue.
  const { id } = await service.call('send', {
    path: '.\\private$\\orders',
    message: {
      label: 'short-lived',
      body: 'expires',
      timeToBeReceived: 1,
      journal: 1,
      acknowledge: 0x0c,
      adminQueue: '.\\private$\\admin',
    },
  });
  await expandPath(page, ['Private Queues', 'admin']);
  await treeItem(page, 'Queue messages').click();
  const nack = messageGrid(page).getByRole('row').filter({ hasText: 'NACK_RECEIVE_TIMEOUT 0xC002' });
  await expect(nack).toBeVisible({ timeout: 15_000 });
  await expect(nack.locator('.class-nack')).toBeVisible();
  await saveScreenshot(page, 'admin-queue-nack');

  await nack.dblclick();
  const props = page.getByRole('dialog', { name: /Properties$/ });
  // An acknowledgment opens on its Acknowledgments tab: where the original is now.
  await expect(props.getByRole('tab', { name: 'Acknowledgments' })).toHaveAttribute('aria-selected', 'true');
  await expect(props).toContainText(id);
  const original = props.getByRole('row').filter({ hasText: 'Dead-letter messages' });
  await expect(original).toBeVisible();
  await saveScreenshot(page, 'nack-acknowledgments');
  await original.getByRole('button', { name: 'Go to message' }).click();
  await expect(
    page.getByRole('dialog', { name: 'short-lived Properties' }).getByRole('tab', { name: 'General' }),
  ).toHaveAttribute('aria-selected', 'true');

  // The console now shows the dead-letter queue with the original selected and its properties open.
  await expect(page.locator('.result-title')).toHaveText('Dead-letter messages');
  const originalProps = page.getByRole('dialog', { name: 'short-lived Properties' });
  await expect(originalProps).toBeVisible();
  await expect(originalProps).toContainText(id);
  await expect(originalProps).toContainText('moved to the dead-letter queue');
  await originalProps.getByRole('tab', { name: 'Acknowledgments' }).click();
  await expect(originalProps.getByRole('row').filter({ hasText: 'NACK_RECEIVE_TIMEOUT' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(treeItem(page, 'Dead-letter messages')).toHaveAttribute('aria-selected', 'true');
  await expect(messageGrid(page).getByRole('row', { selected: true })).toContainText('short-lived');
});

test('says when the original of an acknowledgment is no longer on this computer', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await service.call('queueCreate', { path: '.\\private$\\admin' });
  await service.call('send', {
    path: '.\\private$\\orders',
    message: { label: 'acked', acknowledge: 0x02, adminQueue: '.\\private$\\admin' },
  });
  await service.call('receive', { path: '.\\private$\\orders' });
  await expandPath(page, ['Private Queues', 'admin']);
  await treeItem(page, 'Queue messages').click();
  const ack = messageGrid(page).getByRole('row').filter({ hasText: 'ACK_RECEIVE 0x4000' });
  await expect(ack).toBeVisible();
  await ack.dblclick();
  await expect(page.getByRole('dialog', { name: /Properties$/ })).toContainText(
    'The original message is no longer on this computer.',
  );
});
