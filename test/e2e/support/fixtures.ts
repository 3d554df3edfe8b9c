/** Playwright fixtures: a real service per test and the console opened on it in Chromium. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test as base, type Locator, type Page } from '@playwright/test';
import { startService, type RunningService } from './service.js';

/**
 * Screenshots go to test-results/screenshots on every run; `QK_SCREENSHOTS=docs` writes them into
 * docs/screenshots instead, to be looked at and committed deliberately.
 */
const screenshots = fileURLToPath(
  new URL(
    process.env['QK_SCREENSHOTS'] === 'docs' ? '../../../docs/screenshots' : '../../../test-results/screenshots',
    import.meta.url,
  ),
);

/** Fixtures of every console spec. */
export const test = base.extend<{ service: RunningService; consolePage: Page }>({
  // Playwright reads the first parameter's destructuring to find a fixture's dependencies: none here.
  // eslint-disable-next-line no-empty-pattern
  service: async ({}, use) => {
    const service = await startService();
    await use(service);
    await service.stop();
  },
  consolePage: async ({ page, service }, use) => {
    const errors: string[] = [];
    const refusedByPolicy: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Chromium reports what the Content-Security-Policy blocked (a script, a style, a connection) only on the
    // console: every spec thereby checks that the console works under the one policy (core/api console-policy).
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
        refusedByPolicy.push(message.text());
      }
    });
    await page.goto(await service.consoleUrl());
    await expect(page.getByRole('tree', { name: 'Console tree' })).toBeVisible();
    await expect(treeItem(page, `${service.name} (this computer)`)).toBeVisible();
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
    expect(refusedByPolicy, 'what the Content-Security-Policy refused').toEqual([]);
  },
});

export { expect };
export type { Page } from '@playwright/test';

/** A tree node by its label (exact, ignoring the count beside it). */
export function treeItem(page: Page, label: string): Locator {
  return page
    .getByRole('treeitem')
    .filter({ has: page.locator('.tree-label', { hasText: new RegExp(`^${escape(label)}$`) }) });
}

/** The message grid of the result pane. */
export function messageGrid(page: Page): Locator {
  return page.locator('.message-grid');
}

/** An action of the Actions pane by its id. */
export function action(page: Page, id: string): Locator {
  return page.locator(`.actions-pane [data-action="${id}"]`);
}

/** Expands nodes of the tree by label, in order (clicking the twisty only when collapsed). */
export async function expandPath(page: Page, labels: string[]): Promise<void> {
  for (const label of labels) {
    const node = treeItem(page, label);
    // A folder becomes expandable only once its queues are listed (they may still be on their way).
    await expect(node).toHaveAttribute('aria-expanded', /true|false/);
    if ((await node.getAttribute('aria-expanded')) === 'false') await node.locator('.twisty').click();
    await expect(node).toHaveAttribute('aria-expanded', 'true');
  }
}

/** Saves a screenshot of a view (into docs/screenshots only when QK_SCREENSHOTS=docs). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `${name}.png`) });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A message file (docs/message-file-format.md): its header line and its messages. */
export function readMessageFile(text: string): { header: MessageFileHeader; messages: FileMessage[] } {
  const [first, ...rest] = text.trimEnd().split('\n');
  return {
    header: JSON.parse(first ?? '{}') as MessageFileHeader,
    messages: rest.map((line) => JSON.parse(line) as FileMessage),
  };
}

/** The header line of a message file. */
interface MessageFileHeader {
  format: string;
  version: number;
  computer: string;
  path: string;
}

/** What the specs read of a message in a file. */
interface FileMessage {
  label: string;
  bodyBase64: string;
  id: string;
  classCode: number;
}
