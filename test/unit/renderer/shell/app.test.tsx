// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../../renderer/src/shell/App.js';
import { createAppStore, type AppStore } from '../../../../renderer/src/store/app-store.js';
import { StoreProvider } from '../../../../renderer/src/store/use-app-store.js';
import { installInertCanvas } from '../support/canvas.js';
import { createEngineClient, disposeEngineClients } from '../support/engine-client.js';
import { foreignId } from '../support/scenes.js';
import { flush } from '../support/timing.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
installInertCanvas();

let root: Root;
let container: HTMLDivElement;
let store: AppStore;
/** The acknowledgment in orders (its original is on another computer). */
let ackLookupId = 0;

async function render() {
  const client = createEngineClient();
  await client.queueCreate({ path: '.\\private$\\orders' });
  await client.send({ path: '.\\private$\\orders', message: { label: 'order-1' } });
  // An acknowledgment of a message from another computer, handed over as it arrived: its original is not here.
  await client.messageArrive({
    path: '.\\private$\\orders',
    message: {
      id: foreignId(),
      sourceMachine: 'BETA',
      sourceMachineId: '6f1c2a3b-0000-4000-8000-00000000beef',
      label: 'order-2',
      classCode: 0xc001,
      correlationId: foreignId(),
    },
  });
  ackLookupId = (await client.browse({ path: '.\\private$\\orders' })).messages[1]?.lookupId ?? 0;
  store = createAppStore(client, { storage: null });
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root.render(
      <StoreProvider store={store}>
        <App />
      </StoreProvider>,
    );
    await store.getState().start();
  });
  await act(flush);
  return client;
}

const treeItem = (label: string) =>
  [...container.querySelectorAll('[role="treeitem"]')].find(
    (e) => e.querySelector('.tree-label')?.textContent === label,
  ) as HTMLElement | undefined;

beforeEach(() => localStorage.clear());
afterEach(async () => {
  act(() => root.unmount());
  container.remove();
  await disposeEngineClients();
});

describe('console components', () => {
  it('renders the MMC layout: menu bar, ARIA tree with live counts, actions and status bar', async () => {
    await render();
    expect([...container.querySelectorAll('.menu-title')].map((e) => e.textContent)).toEqual([
      'File',
      'Action',
      'View',
      'Help',
    ]);
    expect(container.querySelector('[role="tree"]')?.getAttribute('aria-label')).toBe('Console tree');
    expect(treeItem('ALPHA (this computer)')?.getAttribute('aria-expanded')).toBe('true');
    expect(treeItem('Private Queues')?.querySelector('.tree-count')?.textContent).toBe('1');
    expect(container.querySelector('.actions-title')?.textContent).toBe('Message Queuing');
    expect(container.querySelector('.status-bar')?.textContent).toContain('duplicate cache 1/10,000');
  });

  it('keyboard: arrows walk and expand the tree, and a queue shows its messages in an ARIA grid', async () => {
    await render();
    const tree = container.querySelector('[role="tree"]') as HTMLElement;
    const key = (k: string) =>
      act(async () => {
        tree.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
        await flush();
      });
    await key('ArrowDown'); // Outgoing Queues
    await key('ArrowDown'); // Public Queues
    await key('ArrowDown'); // Private Queues
    expect(store.getState().selectedNodeId).toBe('local|private');
    await key('ArrowRight');
    expect(treeItem('Private Queues')?.getAttribute('aria-expanded')).toBe('true');
    await act(async () => {
      store.getState().revealNode('local|queueMessages|.\\private$\\orders');
      await flush();
    });
    const grid = container.querySelector('[role="grid"].message-grid') as HTMLElement;
    expect(grid.getAttribute('aria-rowcount')).toBe('3');
    const rows = [...grid.querySelectorAll('[role="row"][aria-rowindex]')].filter(
      (r) => r.getAttribute('aria-rowindex') !== '1',
    );
    expect(rows.map((r) => r.querySelector('[role="gridcell"]')?.textContent)).toEqual(['order-1', 'order-2']);
    expect(rows[1]?.querySelector('.class-nack')?.textContent).toBe('NACK_Q_PURGED 0xC001');
  });

  it('the filter box takes the focus when the filter is asked for, not when the tree shows a list with it open', async () => {
    await render();
    await act(async () => {
      store.getState().revealNode('local|queueMessages|.\\private$\\orders');
      await flush();
    });
    const box = () => container.querySelector('[aria-label="Label contains"]');
    await act(async () => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', ctrlKey: true, bubbles: true }));
      await flush();
    });
    expect(box()).not.toBeNull();
    expect(document.activeElement).toBe(box());
    // Back in the tree, the arrows walk from the queue to its messages: the keys stay with the tree.
    const tree = container.querySelector('[role="tree"]') as HTMLElement;
    tree.focus();
    const key = (k: string) =>
      act(async () => {
        tree.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
        await flush();
      });
    await key('ArrowUp');
    expect(store.getState().selectedNodeId).toBe('local|queue|.\\private$\\orders');
    expect(box()).toBeNull();
    await key('ArrowDown');
    expect(store.getState().selectedNodeId).toBe('local|queueMessages|.\\private$\\orders');
    expect(box()).not.toBeNull();
    expect(document.activeElement).toBe(tree);
  });

  it('opens a message property sheet as a modal dialog with tabs, and Esc closes it', async () => {
    await render();
    await act(async () => {
      await store.getState().openMessageProperties('local', '.\\private$\\orders', ackLookupId);
      await flush();
    });
    const dialog = document.querySelector('[role="dialog"]') as HTMLElement;
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect([...dialog.querySelectorAll('[role="tab"]')].map((t) => t.textContent)).toEqual([
      'General',
      'Queues',
      'Sender',
      'Body',
      'Acknowledgments',
    ]);
    // An acknowledgment opens where it matters: its original, which is not on this computer.
    expect(dialog.querySelector('[role="tab"][aria-selected="true"]')?.textContent).toBe('Acknowledgments');
    expect(dialog.textContent).toContain('The original message is no longer on this computer.');
    await act(async () => {
      (dialog.querySelector('[role="tab"]') as HTMLElement).click();
    });
    expect(dialog.textContent).toContain('The destination queue was purged before the message was received.');
    await act(async () => {
      dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });
});
