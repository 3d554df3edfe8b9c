import { expect, saveScreenshot, test, treeItem } from './support/fixtures.js';

test('changes RemoveDuplicateSize, shows restart required, restarts and sees it applied', async ({
  consolePage: page,
  service,
}) => {
  await treeItem(page, 'Message Queuing').click();
  await page.locator('.actions-pane [data-action="computerProperties"]').click();
  const props = page.getByRole('dialog', { name: /Message Queuing Properties/ });
  await props.getByRole('tab', { name: 'Duplicate removal' }).click();
  const size = props.getByLabel('RemoveDuplicateSize');
  await expect(size).toHaveValue('10000');
  await expect(props).toContainText('Default 10,000 entries');
  await size.fill('500');
  await props.getByRole('button', { name: 'Apply' }).click();
  await expect(props.locator('[data-setting="RemoveDuplicateSize"] .pending-badge')).toContainText(
    'Restart required (now 10,000)',
  );
  await expect(page.locator('.status-bar')).toContainText('1 setting waits for restart');
  expect((await service.call('settingsList', {})).find((s) => s.name === 'RemoveDuplicateSize')?.pending).toBe(500);
  await saveScreenshot(page, 'computer-properties-restart-required');

  await props.getByRole('tab', { name: 'Service' }).click();
  await expect(props).toContainText('RemoveDuplicateSize');
  await props.getByRole('button', { name: 'Restart Message Queuing…' }).click();
  // The same confirmation as everywhere, over the sheet; the sheet stays open behind it.
  await page
    .getByRole('alertdialog', { name: 'Restart Message Queuing' })
    .getByRole('button', { name: 'Restart' })
    .click();
  await props.getByRole('tab', { name: 'Duplicate removal' }).click();
  await expect(props.locator('[data-setting="RemoveDuplicateSize"] .pending-badge')).toHaveCount(0);
  await expect(props.getByLabel('RemoveDuplicateSize')).toHaveValue('500');
  await expect(props.locator('.field').filter({ hasText: 'Cache entries' })).toContainText('of 500');
  await expect(page.locator('.status-bar')).not.toContainText('waits for restart');
  await expect(page.locator('.status-bar')).toContainText('duplicate cache 0/500');
  const setting = (await service.call('settingsList', {})).find((s) => s.name === 'RemoveDuplicateSize');
  expect(setting?.value).toBe(500);
  expect(setting?.pending).toBeNull();
});

test('a value out of range is refused before it is sent', async ({ consolePage: page }) => {
  await treeItem(page, 'Message Queuing').click();
  await page.locator('.actions-pane [data-action="computerProperties"]').click();
  const props = page.getByRole('dialog', { name: /Message Queuing Properties/ });
  await props.getByRole('tab', { name: 'Duplicate removal' }).click();
  await props.getByLabel('RemoveDuplicateSize').fill('-1');
  await expect(props.getByLabel('RemoveDuplicateSize')).toHaveAttribute('aria-invalid', 'true');
  await expect(props.getByRole('alert')).toContainText('Enter a whole number from 0 to');
  await expect(props.getByRole('button', { name: 'Apply' })).toBeDisabled();
});
