import { expect, test } from '@playwright/test';
import { startService, type RunningService } from './support/service.js';

let service: RunningService;
test.beforeEach(async () => {
  service = await startService('GAMMA');
});
test.afterEach(async () => {
  await service.stop();
});

test('a one-time console link signs the tab in, leaves the address bar, and works only once', async ({ page }) => {
  const link = await service.consoleUrl();
  expect(link).not.toContain(service.token);
  await page.goto(link);
  await expect(page.getByRole('tree', { name: 'Console tree' })).toBeVisible();
  expect(page.url()).not.toContain('code=');
  await page.reload();
  await expect(page.getByRole('treeitem').first()).toContainText('GAMMA (this computer)');
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByRole('dialog', { name: /sign in/ }).getByRole('alert')).toContainText('UNAUTHORIZED');
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
