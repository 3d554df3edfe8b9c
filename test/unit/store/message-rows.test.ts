/**
 * A message reads back exactly as it was stored, whichever insert statement wrote it: the plain one (defaults
 * as literals, the rest bound by position) or the full one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { Store, type MessageRecord, type MessageTable } from '@qk/store';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-rows-'));
const store = Store.open(dir);
afterAll(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const orNull = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arb, { nil: null, freq: 2 });
const whole = fc.integer({ min: 0, max: 2 ** 40 });
const text = fc.string({ maxLength: 20 });
/** Often at the default, so both statements are exercised. */
const zeroOr = (arb: fc.Arbitrary<number>): fc.Arbitrary<number> => fc.oneof(fc.constant(0), arb);

let lookupId = 0;
const record: fc.Arbitrary<MessageRecord> = fc
  .record({
    status: fc.integer({ min: 0, max: 3 }),
    priority: fc.integer({ min: 0, max: 7 }),
    msgId: text,
    classCode: zeroOr(fc.integer({ min: 1, max: 0xffff })),
    label: text,
    body: fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
    size: whole,
    bodySize: whole,
    delivery: fc.integer({ min: 0, max: 1 }),
    journal: zeroOr(fc.integer({ min: 1, max: 3 })),
    ack: zeroOr(fc.integer({ min: 1, max: 15 })),
    adminQueue: orNull(text),
    responseQueue: orNull(text),
    destQueue: text,
    correlationId: orNull(text),
    appSpecific: zeroOr(fc.integer({ min: 1, max: 0xffffffff })),
    sourceMachine: text,
    sourceMachineId: text,
    sentMs: whole,
    arrivedMs: whole,
    timerBaseMs: whole,
    ttrq: whole,
    ttbr: orNull(whole),
    expiresMs: orNull(whole),
    transactional: fc.boolean(),
    conversation: orNull(text),
    moveCount: zeroOr(fc.integer({ min: 1, max: 100 })),
    abortCount: zeroOr(fc.integer({ min: 1, max: 100 })),
    lastMoveMs: orNull(whole),
    deadLetterQueue: orNull(text),
  })
  .map((r) => ({ ...r, lookupId: 0, queueId: 7 }));

/** Every column the plain statement writes as a literal, at its default. */
const PLAIN: Partial<MessageRecord> = {
  classCode: 0,
  journal: 0,
  ack: 0,
  adminQueue: null,
  responseQueue: null,
  correlationId: null,
  appSpecific: 0,
  ttbr: null,
  transactional: false,
  conversation: null,
  moveCount: 0,
  abortCount: 0,
  lastMoveMs: null,
  deadLetterQueue: null,
};

/** One message to copy under many lookup IDs. */
const sample = fc.sample(record, { numRuns: 1, seed: 1 })[0] as MessageRecord;

/** Half of them plain, the others with any columns at their defaults. */
const message = fc.tuple(record, fc.boolean()).map(([m, plain]) => (plain ? { ...m, ...PLAIN } : m));

test('every message reads back as it was inserted, plain or not, in either table', () => {
  fc.assert(
    fc.property(message, fc.constantFrom<MessageTable>('main', 'mem'), (generated, table) => {
      // A fresh row each run, shrinking runs included.
      const m = { ...generated, lookupId: ++lookupId };
      store.transaction(() => store.messages.insert(table, m));
      expect(store.messages.get(m.lookupId, table)).toEqual({ ...m, table });
    }),
    { numRuns: 500 },
  );
});

test('removeMany removes exactly the rows named, whether they fall in a few runs of consecutive IDs or many', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 61 }),
      fc.constantFrom<MessageTable>('main', 'mem'),
      (offsets, table) => {
        // 61 rows in a row, then a random subset of them removed: the others must all stay.
        const base = lookupId + 1;
        const plain = { ...sample, ...PLAIN };
        store.transaction(() => {
          for (let i = 0; i <= 60; i++) store.messages.insert(table, { ...plain, lookupId: base + i });
        });
        lookupId = base + 60;
        const named = offsets.map((o) => base + o);
        expect(store.transaction(() => store.messages.removeMany(table, named))).toBe(named.length);
        for (let i = 0; i <= 60; i++)
          expect(store.messages.get(base + i, table) === undefined).toBe(offsets.includes(i));
      },
    ),
    { numRuns: 150 },
  );
});
