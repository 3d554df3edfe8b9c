/**
 * A bare `LIMIT ?` makes SQLite prepare its statement again at every execution (core/store/src/sql-limit.ts):
 * ~10 µs on each single receive's seek. Every statement of the store with a bound limit uses `LIMIT` from there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const storeSources = path.resolve(import.meta.dirname, '../../../core/store/src');

test('no statement of the store binds a bare LIMIT ?', () => {
  const offenders = fs
    .readdirSync(storeSources)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(storeSources, f), 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${f}:${i + 1}`, line }))
        .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && /LIMIT\s+\?/i.test(line)),
    )
    .map(({ where }) => where);
  expect(offenders).toEqual([]);
});
