/**
 * End-to-end tests of the console in real Chromium (Debian's /usr/bin/chromium, never a downloaded
 * browser) against real services: each spec starts its own on a temp data folder. Run `npm run build` first.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  testDir: `${root}test/e2e`,
  outputDir: `${root}test-results`,
  // Specs start services and a million-message fill shares two cores: one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env['CI'] ? [['list'], ['junit', { outputFile: `${root}test-results/e2e-junit.xml` }]] : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 760 },
    colorScheme: 'light',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
