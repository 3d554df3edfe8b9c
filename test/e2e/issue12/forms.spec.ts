/**
 * Issue 12, point 7: forms as an administrator expects them. A yes/no setting is a checkbox, an enumeration
 * a choice; a property sheet keeps its size from tab to tab; invalid input says what is allowed, in words.
 */
import { expandPath, expect, test, treeItem } from '../support/fixtures.js';

test('XactDeadLetterAlways is a checkbox that waits for the restart like any setting', async ({
  consolePage: page,
  service,
}) => {
  await treeItem(page, 'Message Queuing').click();
  await page.locator('.actions-pane [data-action="computerProperties"]').click();
  const props = page.getByRole('dialog', { name: /Message Queuing Properties/ });
  await props.getByRole('tab', { name: 'Transactions' }).click();
  const box = props.getByRole('checkbox', { name: 'XactDeadLetterAlways' });
  await expect(box).not.toBeChecked();
  await expect(props).toContainText('Default off');
  await expect(props).not.toContainText('0/1');
  await box.check();
  await props.getByRole('button', { name: 'Apply' }).click();
  const setting = (await service.call('settingsList', {})).find((s) => s.name === 'XactDeadLetterAlways');
  expect(setting?.pending ?? setting?.value).toBe(1);
});

test('a property sheet keeps one size on every tab, and nothing in it is clipped', async ({ consolePage: page }) => {
  await treeItem(page, 'Message Queuing').click();
  await page.locator('.actions-pane [data-action="computerProperties"]').click();
  const props = page.getByRole('dialog', { name: /Message Queuing Properties/ });
  const sizes = new Set<string>();
  for (const tab of ['Storage', 'Duplicate removal', 'Transactions', 'Timers', 'Resends', 'Network', 'Service']) {
    await props.getByRole('tab', { name: tab }).click();
    const box = await props.boundingBox();
    sizes.add(`${Math.round(box?.width ?? 0)}x${Math.round(box?.height ?? 0)}`);
    // Nothing overflows sideways (the "Go to r" clipping of the trial): the body never scrolls horizontally.
    const overflow = await props.locator('.dialog-body').evaluate((e) => e.scrollWidth - e.clientWidth);
    expect(overflow, `${tab} tab overflows`).toBeLessThanOrEqual(0);
  }
  expect([...sizes]).toHaveLength(1);
});

test('invalid quota input says what is allowed, and OK waits for a valid value', async ({
  consolePage: page,
  service,
}) => {
  await service.call('queueCreate', { path: '.\\private$\\orders' });
  await expandPath(page, ['Private Queues']);
  await treeItem(page, 'orders').click();
  await page.locator('.actions-pane [data-action="queueProperties"]').click();
  const props = page.getByRole('dialog', { name: 'orders Properties' });
  const quota = props.getByLabel('Limit message storage to (KB)');
  await quota.fill('12 MB');
  await expect(quota).toHaveAttribute('aria-invalid', 'true');
  await expect(props.getByRole('alert')).toHaveText(
    'Enter a whole number of KB from 0 to 4,294,967,295, or leave it empty for no limit.',
  );
  await expect(props.getByRole('button', { name: 'OK' })).toBeDisabled();
  await quota.fill('12288');
  await expect(props.getByRole('alert')).toHaveCount(0);
  await props.getByRole('button', { name: 'OK' }).click();
  expect((await service.call('queueShow', { path: '.\\private$\\orders' })).quotaKB).toBe(12288);
});

test('issue 9 settings: XactDelayReceiveNack may be left unset; the cleanup and resend timers are shown', async ({
  consolePage: page,
  service,
}) => {
  await treeItem(page, 'Message Queuing').click();
  await page.locator('.actions-pane [data-action="computerProperties"]').click();
  const props = page.getByRole('dialog', { name: /Message Queuing Properties/ });
  await props.getByRole('tab', { name: 'Transactions' }).click();
  const delay = props.getByRole('textbox', { name: 'XactDelayReceiveNack' });
  await expect(delay).toHaveValue('');
  await expect(delay).toHaveAttribute('placeholder', 'not set');
  await delay.fill('30');
  await props.getByRole('button', { name: 'Apply' }).click();
  await expect(props.locator('[data-setting="XactDelayReceiveNack"] .pending-badge')).toHaveText(
    'Restart required (now not set)',
  );
  // Emptied again: nothing waits for the restart any more (the setting stays absent).
  await delay.fill('');
  await props.getByRole('button', { name: 'Apply' }).click();
  await expect(props.locator('[data-setting="XactDelayReceiveNack"] .pending-badge')).toHaveCount(0);
  const setting = (await service.call('settingsList', {})).find((s) => s.name === 'XactDelayReceiveNack');
  expect(setting).toMatchObject({ value: null, pending: null });

  await props.getByRole('tab', { name: 'Timers' }).click();
  await expect(props.getByRole('textbox', { name: 'CleanupInterval', exact: true })).toHaveValue('120000');
  await expect(props.getByRole('textbox', { name: 'MessageCleanupInterval' })).toHaveValue('21600000');
  await props.getByRole('tab', { name: 'Resends' }).click();
  for (const [name, value] of [
    ['SeqResend13Time', '30'],
    ['SeqResend46Time', '300'],
    ['SeqResend79Time', '1800'],
    ['SeqResend10Time', '21600'],
  ] as const)
    await expect(props.getByRole('textbox', { name })).toHaveValue(value);
});
