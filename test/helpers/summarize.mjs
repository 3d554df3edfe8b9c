#!/usr/bin/env node
/**
 * Prints one plain line `N passed, N failed, N skipped` for CI from the output of `npm test`:
 * the Vitest summaries ("Tests  3 failed | 120 passed | 1 skipped (124)") found in the log, and the
 * Playwright JSON report (PW_TEST_REPORTER=json) or, failing that, Playwright's own summary lines.
 *
 * usage: node test/helpers/summarize.mjs --log FILE [--playwright-json FILE] [--exit-code N]
 * A non-zero exit code with no failed test counted (typecheck, build or a crash stopped the run) counts as
 * one failure, so the line never looks green when the run was not.
 */
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

function argValue(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Counts from every Vitest run summary in the log (`npm test` runs Vitest more than once). */
export function vitestCounts(text) {
  const totals = { passed: 0, failed: 0, skipped: 0, found: false };
  let failedFiles = 0;
  for (const raw of text.split('\n')) {
    const line = raw.replace(ANSI, '').trim();
    const files = /^Test Files\s+(.*)$/.exec(line);
    if (files) {
      failedFiles = Number(/(\d+) failed/.exec(files[1])?.[1] ?? 0);
      continue;
    }
    const tests = /^Tests\s+(.*?)\s*(\(\d+\))?$/.exec(line);
    if (tests) {
      totals.found = true;
      const part = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(tests[1])?.[1] ?? 0);
      const failedTestsInRun = part('failed');
      totals.passed += part('passed');
      totals.failed += failedTestsInRun;
      totals.skipped += part('skipped') + part('todo');
      // A file that failed to load or whose hooks failed may have no failed test: count it.
      if (failedFiles > failedTestsInRun) totals.failed += failedFiles - failedTestsInRun;
      failedFiles = 0;
      continue;
    }
    const errors = /^Errors\s+(\d+) errors?/.exec(line);
    if (errors) totals.failed += Number(errors[1]);
  }
  return totals;
}

/** Counts from a Playwright JSON report. */
export function playwrightJsonCounts(report) {
  const stats = report.stats ?? {};
  const errors = Array.isArray(report.errors) ? report.errors.length : 0;
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (stats.unexpected === 0 || stats.unexpected === undefined ? errors : 0),
    skipped: stats.skipped ?? 0,
    found: true,
  };
}

/** Counts from Playwright's list/line reporter summary ("  12 passed (9.1s)", "  1 failed", …). */
export function playwrightTextCounts(text) {
  const totals = { passed: 0, failed: 0, skipped: 0, found: false };
  for (const raw of text.split('\n')) {
    const m = /^\s*(\d+) (passed|failed|flaky|skipped|did not run|interrupted)(\s+\(.*\))?\s*$/.exec(
      raw.replace(ANSI, ''),
    );
    if (!m) continue;
    totals.found = true;
    const n = Number(m[1]);
    if (m[2] === 'passed' || m[2] === 'flaky') totals.passed += n;
    else if (m[2] === 'failed' || m[2] === 'interrupted') totals.failed += n;
    else totals.skipped += n;
  }
  return totals;
}

function main() {
  const logFile = argValue('--log');
  const jsonFile = argValue('--playwright-json');
  const exitCode = Number(argValue('--exit-code') ?? 0);
  const log = logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';

  const vitest = vitestCounts(log);
  let playwright;
  if (jsonFile && existsSync(jsonFile)) {
    try {
      playwright = playwrightJsonCounts(JSON.parse(readFileSync(jsonFile, 'utf8')));
    } catch {
      playwright = playwrightTextCounts(log);
    }
  } else {
    playwright = playwrightTextCounts(log);
  }

  const passed = vitest.passed + playwright.passed;
  let failed = vitest.failed + playwright.failed;
  const skipped = vitest.skipped + playwright.skipped;
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    process.stdout.write(
      `npm test exited with ${exitCode} before any test failed (typecheck, build or a crash): counted as 1 failure.\n`,
    );
  }
  process.stdout.write(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
