import { expect, test } from '@playwright/test';
import { startService, type RunningService } from './support/service.js';

let service: RunningService;
test.beforeEach(async () => {
  service = await startService('GAMMA');
});
test.afterEach(async () => {
  await service.stop();
});

test('the token in the URL is taken and removed from the address bar', async ({ page }) => {
  await page.goto(service.consoleUrl);
  await expect(page.getByRole('tree', { name: 'Console tree' })).toBeVisible();
  expect(page.url()).not.toContain('token');
  await page.reload();
  await expect(page.getByRole('treeitem').first()).toContainText('GAMMA (this computer)');
});

test('without a token the console asks for it, and a wrong one is refused with its code', async ({ page }) => {
  await page.goto(`${service.url}/`);
  const login = page.getByRole('dialog', { name: /sign in/ });
  await login.getByLabel('Token').fill('not-the-token');
  await login.getByRole('button', { name: 'Connect' }).click();
  await expect(login.getByRole('alert')).toContainText('UNAUTHORIZED');
  await login.getByLabel('Token').fill(service.token);
  await login.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('treeitem').first()).toContainText('GAMMA (this computer)');
});
