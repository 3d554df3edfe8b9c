/**
 * The console's network parts (docs/network.md) on two real computers: ALPHA and BETA, each its own
 * service with a peer listener, trusting each other. The console opened on ALPHA connects to BETA too (two
 * computers in one tree); ALPHA's Outgoing Queues show state, next hop and counts; Pause and Resume act from
 * the Actions pane; Message Queuing Properties › Network lists the peers with fingerprints and the routes.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { action, saveScreenshot, treeItem } from './support/fixtures.js';
import { startService, type RunningService } from './support/service.js';

let alpha: RunningService;
let beta: RunningService;

test.beforeEach(async () => {
  alpha = await startService('ALPHA', ['--peer-listen', '127.0.0.1:0']);
  // The console is served by ALPHA; BETA lets that page call it, as `--allow-origin` is meant for.
  beta = await startService('BETA', ['--peer-listen', '127.0.0.1:0', '--allow-origin', alpha.url]);
  await alpha.call('peerAdd', {
    name: 'BETA',
    address: beta.peerAddress ?? '',
    fingerprint: beta.peerFingerprint ?? '',
  });
  await beta.call('peerAdd', {
    name: 'ALPHA',
    address: alpha.peerAddress ?? '',
    fingerprint: alpha.peerFingerprint ?? '',
  });
  await alpha.call('routeSet', { destination: 'GAMMA', via: 'BETA' });
  await beta.call('queueCreate', { path: '.\\private$\\orders' });
  await alpha.call('queueCreate', { path: '.\\private$\\admin' });
});

test.afterEach(async () => {
  await alpha?.stop();
  await beta?.stop();
});

/** A tree node by its id (`computer|kind|path`): both computers have nodes of the same label. */
function node(page: Page, id: string): Locator {
  return page.locator(`[role="treeitem"][data-node="${id.replace(/\\/g, '\\\\')}"]`);
}

function cell(row: Locator, column: string): Locator {
  return row.locator(`[data-column="${column}"]`);
}

async function expand(page: Page, ...ids: string[]): Promise<void> {
  for (const id of ids) {
    const n = node(page, id);
    await expect(n).toHaveAttribute('aria-expanded', /true|false/);
    if ((await n.getAttribute('aria-expanded')) === 'false') await n.locator('.twisty').click();
    await expect(n).toHaveAttribute('aria-expanded', 'true');
  }
}

const ORDERS = 'DIRECT=OS:BETA\\private$\\orders';
const SHIPPING = 'DIRECT=OS:DELTA\\private$\\shipping';

test('outgoing queues, Pause/Resume and the Network tab, with two computers in the tree', async ({ page }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // One message delivered to BETA; then the queue is paused and two wait; DELTA is not trusted: it waits.
  await alpha.call('send', {
    path: 'BETA\\private$\\orders',
    message: { label: 'order 1', delivery: 'recoverable', acknowledge: 5, adminQueue: '.\\private$\\admin' },
  });
  await expect
    .poll(async () => (await beta.call('queueShow', { path: '.\\private$\\orders' })).messageCount, { timeout: 30_000 })
    .toBe(1);
  await alpha.call('outgoingPause', { formatName: ORDERS });
  for (const label of ['order 2', 'order 3'])
    await alpha.call('send', { path: 'BETA\\private$\\orders', message: { label, delivery: 'recoverable' } });
  await alpha.call('send', { path: 'DELTA\\private$\\shipping', message: { label: 'parcel' } });

  await page.goto(await alpha.consoleUrl());
  await expect(treeItem(page, 'ALPHA (this computer)')).toBeVisible();

  // File › Connect to another computer: BETA becomes a second root.
  await page.getByRole('menuitem', { name: 'File' }).click();
  await page.getByRole('menuitem', { name: /Connect to another computer/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect to another computer' });
  await dialog.getByLabel('Service address').fill(beta.url);
  await dialog.getByLabel('Token').fill(beta.token);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(treeItem(page, 'BETA (connected)')).toBeVisible();

  // ALPHA's Outgoing Queues: state, next hop and counts per destination.
  await expand(page, 'local|computer', 'local|msmq', 'local|outgoing');
  await node(page, 'local|outgoing').click();
  const grid = page.getByRole('grid', { name: 'Outgoing Queues' });
  const orders = grid.locator(`[data-format-name="${ORDERS.replace(/\\/g, '\\\\')}"]`);
  const shipping = grid.locator(`[data-format-name="${SHIPPING.replace(/\\/g, '\\\\')}"]`);
  await expect(orders).toHaveAttribute('data-state', 'onHold');
  await expect(cell(orders, 'state')).toHaveText('On hold');
  await expect(cell(orders, 'nextHop')).toHaveText('BETA');
  await expect(cell(orders, 'messages')).toHaveText('2');
  await expect(shipping).toHaveAttribute('data-state', 'waiting');
  await expect(cell(shipping, 'lastError')).toContainText('DELTA');
  // BETA's tree is there too, with its own Message Queuing.
  await expand(page, 'remote-1|computer', 'remote-1|msmq');
  await orders.click();
  await saveScreenshot(page, 'outgoing-queues');

  // Resume from the Actions pane: the two waiting messages go; the state leaves On hold.
  await expect(action(page, 'resumeOutgoing')).toBeVisible();
  await action(page, 'resumeOutgoing').click();
  await expect(orders).not.toHaveAttribute('data-state', 'onHold');
  await expect
    .poll(async () => (await beta.call('queueShow', { path: '.\\private$\\orders' })).messageCount, { timeout: 30_000 })
    .toBe(3);
  await expect(cell(orders, 'messages')).toHaveText('0');
  await expect(action(page, 'pauseOutgoing')).toBeVisible();

  // Pause again from the outgoing queue's own node.
  await expand(page, `local|queue|${ORDERS}`);
  await node(page, `local|queue|${ORDERS}`).click();
  await expect(page.locator('.outgoing-facts')).toBeVisible();
  await action(page, 'pauseOutgoing').click();
  await expect(page.locator('.outgoing-facts')).toHaveAttribute('data-state', 'onHold');
  expect((await alpha.call('outgoingList', {})).find((o) => o.formatName === ORDERS)?.state).toBe('onHold');

  // Message Queuing Properties › Network: this computer's fingerprint, the peer BETA, the route of GAMMA.
  await node(page, 'local|msmq').click();
  await action(page, 'computerProperties').click();
  const sheet = page.getByRole('dialog', { name: /Message Queuing Properties — ALPHA/ });
  await sheet.getByRole('tab', { name: 'Network' }).click();
  await expect(sheet).toContainText(alpha.peerFingerprint ?? 'missing');
  const peer = sheet.locator('[data-peer="BETA"]');
  await expect(peer).toContainText(beta.peerFingerprint ?? 'missing');
  await expect(peer).toContainText('Connected');
  await expect(sheet.locator('[data-route="GAMMA"]')).toContainText('BETA');
  await saveScreenshot(page, 'network-properties');
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
