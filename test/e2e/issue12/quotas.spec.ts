/**
 * Issue 12, point 4: quotas complete. The queue list shows journal size and journal quota; system queues
 * show their share of MachineJournalQuota (not "no limit"); a full queue or full journal (which silently
 * stops keeping copies, R-J5) is flagged in the tree and in the status bar.
 */
import { expandPath, expect, test, treeItem } from '../support/fixtures.js';

test('journal columns, the system queues against MachineJournalQuota, and full queues and journals flagged', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders', journal: true, journalQuotaKB: 4 });
  await service.call('queueCreate', { path: '.\\private$\\small', quotaKB: 2 });
  await service.call('queueCreate', { path: '.\\private$\\calm', quotaKB: 1024 });
  await service.fill('.\\private$\\orders', 60, (i) => ({ label: `o${i}`, body: 'j'.repeat(200) }));
  await service.call('receiveBatch', { path: '.\\private$\\orders', max: 60 });
  await service.fill('.\\private$\\small', 9, (i) => ({ label: `s${i}`, body: 's'.repeat(200) }));
  await service.call('send', { path: '.\\private$\\calm', message: { body: 'fine' } });
  await page.keyboard.press('F5');
  await expandPath(page, ['Private Queues', 'System Queues']);

  // Tree badges: the full journal and the full queue, each with its sentence; the calm queue none.
  await expect(treeItem(page, 'orders').locator('.warn-badge')).toHaveAttribute(
    'title',
    'Journal full: copies of received messages are no longer kept.',
  );
  await expect(treeItem(page, 'small').locator('.warn-badge')).toHaveAttribute('title', /^Queue full/);
  await expect(treeItem(page, 'calm').locator('.warn-badge')).toHaveCount(0);
  // The status bar says it too, whatever is selected.
  await expect(page.locator('.status-bar [data-status="quota-warning"]')).toHaveText(
    '⚠ 1 queue full, 1 journal full (copies dropped)',
  );

  // The queue list: journal messages, journal size, journal quota usage.
  await treeItem(page, 'Private Queues').click();
  const list = page.getByRole('grid', { name: 'Private Queues' });
  for (const header of ['Journal messages', 'Journal size', 'Journal quota usage'])
    await expect(list.getByRole('columnheader', { name: header })).toBeVisible();
  const orders = list.getByRole('row').filter({ hasText: 'orders' });
  await expect(orders.getByRole('progressbar', { name: 'Journal quota usage of orders' })).toHaveAttribute(
    'aria-valuetext',
    /of 4 KB$/,
  );

  // System queues count against MachineJournalQuota: each shows its share, none says "no limit".
  await treeItem(page, 'System Queues').click();
  const system = page.getByRole('grid', { name: 'System Queues' });
  const dead = system.getByRole('row').filter({ hasText: /^Dead-letter messages/ });
  await expect(dead.getByRole('progressbar')).toHaveAttribute(
    'aria-valuetext',
    / of [\d.,]+ [KMG]B \(MachineJournalQuota\)$/,
  );
  await expect(system).not.toContainText('no limit');
  await dead.click();
  await page.keyboard.press('Alt+Enter');
  const props = page.getByRole('dialog', { name: 'DEADLETTER$ Properties' });
  await expect(props).toContainText('MachineJournalQuota, shared by the computer journal and the dead-letter queues');
  await expect(props.getByRole('progressbar', { name: 'MachineJournalQuota usage' })).toBeVisible();
});
