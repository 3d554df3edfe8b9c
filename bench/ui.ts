/**
 * Console figures measured in real Chromium against a real service: time from selecting a
 * 1,000,000-message queue to its rows painted, and frame times while scrolling it (targets: ≤ 300 ms
 * and ≤ 16 ms median). Called by the bench runner (bench/lib/ui.ts); needs `npm run build` (the renderer).
 *
 * Development shortcut: QK_BENCH_UI_URL, QK_BENCH_UI_TOKEN and QK_BENCH_UI_QUEUE reuse a running service
 * whose queue is already filled, instead of starting and filling one (the fill takes a minute or two).
 */
import { chromium, type Page } from 'playwright-core';
import { startService } from '../test/e2e/support/service.js';

const FULL_COUNT = 1_000_000;
const QUICK_COUNT = 20_000;
const SELECT_RUNS = 5;
const SCROLL_FRAMES = 240;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Clicks a tree node in the page and resolves when the first message row has content and a frame was painted. */
async function selectAndTimePaint(page: Page, nodeId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const node = document.querySelector<HTMLElement>(`[data-node="${CSS.escape(id)}"]`);
    if (!node) throw new Error(`no tree node ${id}`);
    const started = performance.now();
    node.click();
    await new Promise<void>((resolve, reject) => {
      const deadline = started + 30_000;
      const check = () => {
        if (document.querySelector('.message-grid [aria-rowindex="2"] [role="gridcell"]:not(.loading-cell)')) resolve();
        else if (performance.now() > deadline) reject(new Error('rows never painted'));
        else requestAnimationFrame(check);
      };
      check();
    });
    // The frame that shows the rows: the next animation frame after they are in the DOM, then its paint.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - started;
  }, nodeId);
}

/** Scrolls the grid by `step` px per frame for `frames` frames; returns the frame intervals. */
async function scrollFrames(
  page: Page,
  frames: number,
  step: number,
): Promise<{ intervals: number[]; loadedAtEnd: number }> {
  return page.evaluate(
    async ({ frames: n, step: s }) => {
      const grid = document.querySelector<HTMLElement>('.message-grid');
      if (!grid) throw new Error('no message grid');
      const intervals: number[] = [];
      let last = performance.now();
      await new Promise<void>((resolve) => {
        let left = n;
        const tick = (now: number) => {
          intervals.push(now - last);
          last = now;
          grid.scrollTop += s;
          if (--left <= 0) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(tick);
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const rows = grid.querySelectorAll('[role="row"][aria-rowindex]');
      const loading = grid.querySelectorAll('.loading-cell').length;
      return { intervals, loadedAtEnd: rows.length === 0 ? 0 : 1 - loading / rows.length };
    },
    { frames, step },
  );
}

/** The console's figures. */
export async function runUiBench(options: { quick?: boolean } = {}): Promise<Record<string, number>> {
  const count = options.quick ? QUICK_COUNT : FULL_COUNT;
  const reuse = process.env['QK_BENCH_UI_URL'] && process.env['QK_BENCH_UI_TOKEN'] && process.env['QK_BENCH_UI_QUEUE'];
  if (reuse) {
    const response = await fetch(`${process.env['QK_BENCH_UI_URL']}/console/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env['QK_BENCH_UI_TOKEN']}` },
      body: '{}',
    });
    const consoleUrl = ((await response.json()) as { value: { url: string } }).value.url;
    return measureConsole(consoleUrl, process.env['QK_BENCH_UI_QUEUE'] as string, count);
  }
  const service = await startService('UIBENCH');
  // The service goes with the run however it ends: a fill or a browser that fails must not leave it behind.
  try {
    const queue = '.\\private$\\ui-bench';
    await service.call('queueCreate', { path: queue });
    await service.fill(queue, count, (i) => ({
      label: `message ${i + 1}`,
      body: `body of message ${i + 1}`,
      priority: i % 8,
    }));
    return await measureConsole(await service.consoleUrl(), queue, count);
  } finally {
    await service.stop();
  }
}

async function measureConsole(consoleUrl: string, queue: string, count: number): Promise<Record<string, number>> {
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    // Uncapped frames: with vsync off, a frame's interval is what it costs to produce, not the 16.7 ms tick.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-gpu-vsync',
      '--disable-frame-rate-limit',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(consoleUrl);
    await page.locator('[data-node="local|private"] .twisty').click();
    const queueNode = `local|queue|${queue}`;
    await page.locator(`[data-node="${queueNode.replace(/\\/g, '\\\\')}"] .twisty`).click();
    const messagesNode = `local|queueMessages|${queue}`;
    const otherNode = 'local|private';

    const selectTimes: number[] = [];
    for (let run = 0; run < SELECT_RUNS; run += 1) {
      await page.locator(`[data-node="${otherNode}"]`).click();
      await page.waitForTimeout(300);
      selectTimes.push(await selectAndTimePaint(page, messagesNode));
    }

    // Scroll: a steady 1,200 px per frame (about 60 rows), the speed of a fast wheel flick.
    await page.locator('.message-grid').hover();
    const steady = await scrollFrames(page, SCROLL_FRAMES, 1_200);
    const endStarted = Date.now();
    await page.locator('.message-grid').focus();
    await page.keyboard.press('End');
    await page
      .locator(`.message-grid [aria-rowindex="${count + 1}"] [role="gridcell"]:not(.loading-cell)`)
      .first()
      .waitFor({ timeout: 30_000 });
    const endToLastRow = Date.now() - endStarted;

    return {
      messages: count,
      selectToRowsPaintedMedianMs: round(median(selectTimes)),
      selectToRowsPaintedMaxMs: round(Math.max(...selectTimes)),
      scrollFrameMedianMs: round(median(steady.intervals)),
      scrollFrameP95Ms: round(percentile(steady.intervals, 95)),
      scrollRowsLoadedAfter2sPct: round(steady.loadedAtEnd * 100),
      endKeyToLastRowPaintedMs: endToLastRow,
    };
  } finally {
    await browser.close();
  }
}
