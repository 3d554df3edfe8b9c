/**
 * Protocol 2's and 3's packed delivery (bodies as base64 text, or naming an attachment) and the answer to either
 * deliver: the hand-written checks take exactly what the schemas take and give what they give; anything else goes
 * through the schema, so refusals are the schema's.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import {
  parseDeliverAnswer,
  parsePeerDeliverPacked,
  PEER_DELIVERY_MAX,
  peerLinkOperations,
  toErrorBody,
  type PackedField,
} from '@qk/api';
import { edgy, validWireMessage } from './peer-link-fixtures.js';

const input = peerLinkOperations.peerDeliverPacked.input;
const output = peerLinkOperations.peerDeliverPacked.output;

const FIELDS = Object.keys(validWireMessage()).filter((k) => k !== 'bodyBase64') as PackedField[];

type Packed = Record<string, unknown>;

/**
 * A delivery of `count` messages the schema takes: each field shared or a column, the sizes shared when they can
 * be, the bodies as base64 (protocol 2) or naming an attachment (3).
 */
const validPacked = (count: number): fc.Arbitrary<Packed> =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: FIELDS.length, maxLength: FIELDS.length }),
      fc.array(fc.uint8Array({ maxLength: 7 }), { minLength: count, maxLength: count }),
      fc.boolean(),
      fc.option(fc.integer({ min: 1, max: 0xffffffff }), { nil: null }),
    )
    .map(([columns, list, shareSizes, attachment]) => {
      const message = validWireMessage();
      const sizes = list.map((b) => b.length);
      return {
        count,
        fields: Object.fromEntries(
          FIELDS.map((key, i) => [key, columns[i] ? Array.from({ length: count }, () => message[key]) : message[key]]),
        ),
        bodies: attachment === null ? Buffer.concat(list).toString('base64') : { attachment },
        bodySizes: shareSizes && sizes.every((size) => size === sizes[0]) ? sizes[0] : sizes,
      };
    });

/** Attachment forms at and past every edge the schema tests. */
const attachments = fc.constantFrom<unknown>(
  { attachment: 1 },
  { attachment: 0xffffffff },
  { attachment: 0 },
  { attachment: -1 },
  { attachment: 0x100000000 },
  { attachment: 1.5 },
  { attachment: '1' },
  { attachment: null },
  { attachment: 1, extra: 1 },
  { attachment: 1, bodies: 'aGk=' },
  { attachments: 1 },
  {},
  [1],
);

/** One change that may take a delivery past what the schema takes (or, for some values, not). */
const change = fc.oneof(
  fc.tuple(fc.constant('field' as const), fc.constantFrom(...FIELDS), edgy),
  fc.tuple(fc.constant('cell' as const), fc.constantFrom(...FIELDS), edgy),
  fc.tuple(fc.constant('length' as const), fc.constantFrom(...FIELDS, 'bodySizes'), fc.constantFrom(-1, 1)),
  fc.tuple(fc.constant('dropField' as const), fc.constantFrom(...FIELDS), fc.constant(null)),
  fc.tuple(fc.constant('addField' as const), fc.constantFrom('extra', '__proto__', 'bodyBase64'), edgy),
  fc.tuple(fc.constant('top' as const), fc.constantFrom('count', 'fields', 'bodies', 'bodySizes', 'extra'), edgy),
  fc.tuple(
    fc.constant('dropTop' as const),
    fc.constantFrom('count', 'fields', 'bodies', 'bodySizes'),
    fc.constant(null),
  ),
  fc.tuple(fc.constant('bodies' as const), fc.constantFrom('A', '=', 'AAAA', 'AA==', '!!!!'), fc.constant(null)),
  fc.tuple(fc.constant('attachment' as const), fc.constant('bodies'), attachments),
  fc.tuple(fc.constant('size' as const), fc.constantFrom(-1, 1, 3), fc.constant(null)),
);
type Change = typeof change extends fc.Arbitrary<infer C> ? C : never;

/** Applies `[kind, key, value]` to a delivery made for `count` messages (whatever its count says now). */
function apply(d: Packed, count: number, [kind, key, value]: Change): void {
  // A change before may have made `fields` something else: changes to its keys then go nowhere.
  const fields = d['fields'];
  const f = typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {};
  const cells = (v: unknown): unknown[] => (Array.isArray(v) ? v : Array.from({ length: count }, () => v));
  switch (kind) {
    case 'field':
      f[key] = value;
      break;
    case 'cell':
      f[key] = cells(f[key]).map((v, i) => (i === count - 1 ? value : v));
      break;
    case 'length': {
      const target = key === 'bodySizes' ? d : f;
      const column = cells(target[key]);
      target[key] = value < 0 ? column.slice(1) : [...column, column[0]];
      break;
    }
    case 'dropField':
      delete f[key];
      break;
    case 'addField':
      f[key] = value;
      break;
    case 'top':
      d[key] = value;
      break;
    case 'dropTop':
      delete d[key];
      break;
    case 'bodies':
      d['bodies'] = typeof d['bodies'] === 'string' ? `${d['bodies']}${key}` : key;
      break;
    case 'attachment':
      d['bodies'] = value;
      break;
    case 'size':
      d['bodySizes'] = cells(d['bodySizes']).map((v, i) => (i === 0 ? (v as number) + key : v));
      break;
  }
}

const packed = fc
  .integer({ min: 1, max: 4 })
  .chain((count) => fc.tuple(fc.constant(count), validPacked(count), fc.array(change, { maxLength: 2 })))
  .map(([count, d, changes]) => {
    for (const c of changes) apply(d, count, c);
    return JSON.parse(JSON.stringify(d)) as unknown;
  });

const deliveries = fc.oneof(
  { weight: 10, arbitrary: packed },
  { weight: 1, arbitrary: fc.constantFrom({}, null, [], 'packed', { count: 1 }) },
);

/** Whether `check` and `schema.parse` agree on `value`: both take it with equal results, or both throw alike. */
function agree(check: (v: unknown) => unknown, schema: z.ZodType, value: unknown): void {
  const expected = schema.safeParse(value);
  let got: unknown;
  let error: unknown;
  try {
    got = check(value);
  } catch (e) {
    error = e;
  }
  expect(error === undefined).toBe(expected.success);
  if (expected.success) expect(got).toEqual(expected.data);
  else expect(String(error)).toBe(String(expected.error));
}

describe('parsePeerDeliverPacked', () => {
  test('takes exactly the deliveries the schema takes, with the same result; refuses with the same error', () => {
    fc.assert(
      fc.property(deliveries, (value) => agree(parsePeerDeliverPacked, input, value)),
      { numRuns: 3_000 },
    );
  });

  test.each([
    ['base64', Buffer.from('hello!').toString('base64')],
    ['an attachment', { attachment: 12 }],
  ])('what a sender packs (bodies as %s) is taken as it is, without the schema making a copy', (_, bodies) => {
    const message = validWireMessage();
    const value = {
      count: 2,
      fields: Object.fromEntries(FIELDS.map((key) => [key, message[key]])),
      bodies,
      bodySizes: 3,
    };
    value.fields['id'] = ['a', 'b'];
    value.fields['sequence'] = [null, { stream: 's', number: 3, group: 'g', previous: 1 }];
    expect(parsePeerDeliverPacked(value)).toBe(value);
    expect(input.parse(value)).toEqual(value);
  });

  const one = (): Record<string, unknown> => ({
    count: 1,
    fields: Object.fromEntries(FIELDS.map((key) => [key, validWireMessage()[key]])),
    bodies: 'aGk=',
    bodySizes: 2,
  });

  test.each([
    ['count 0', (v: Record<string, unknown>) => (v['count'] = 0)],
    ['count past PEER_DELIVERY_MAX', (v: Record<string, unknown>) => (v['count'] = PEER_DELIVERY_MAX + 1)],
    [
      'a column of another length than count',
      (v: Record<string, unknown>) => ((v['fields'] as Record<string, unknown>)['label'] = ['a', 'b']),
    ],
    ['bodySizes not summing to the decoded length', (v: Record<string, unknown>) => (v['bodySizes'] = 3)],
    ['bodySizes a column of another length', (v: Record<string, unknown>) => (v['bodySizes'] = [1, 1])],
    ['a missing field key', (v: Record<string, unknown>) => delete (v['fields'] as Record<string, unknown>)['hops']],
    [
      'an extra field key',
      (v: Record<string, unknown>) => ((v['fields'] as Record<string, unknown>)['bodyBase64'] = 'aGk='),
    ],
    ['an extra key', (v: Record<string, unknown>) => (v['messages'] = [])],
    ['attachment 0', (v: Record<string, unknown>) => (v['bodies'] = { attachment: 0 })],
    ['an attachment number past 32 bits', (v: Record<string, unknown>) => (v['bodies'] = { attachment: 2 ** 32 })],
    ['an attachment with another key', (v: Record<string, unknown>) => (v['bodies'] = { attachment: 1, size: 2 })],
  ])('refused as INVALID_PARAMETER: %s', (_, change) => {
    expect(() => parsePeerDeliverPacked(one())).not.toThrow();
    const value = one();
    change(value);
    expect(() => parsePeerDeliverPacked(value)).toThrow();
    let error: unknown;
    try {
      parsePeerDeliverPacked(value);
    } catch (e) {
      error = e;
    }
    expect(toErrorBody(error).code).toBe('INVALID_PARAMETER');
  });
});

const outcome = fc.oneof(
  fc.constantFrom<unknown>(
    { outcome: 'stored' },
    { outcome: 'accepted' },
    { outcome: 'duplicate' },
    { outcome: 'refused', classCode: 0x8000 },
    { outcome: 'refused', classCode: 0xffff },
    { outcome: 'refused', classCode: 0x7fff },
    { outcome: 'refused', classCode: 0x10000 },
    { outcome: 'refused' },
    { outcome: 'retry', reason: 'quota' },
    { outcome: 'retry', reason: 'x'.repeat(1_001) },
    { outcome: 'retry' },
    { outcome: 'stored', extra: 1 },
    { outcome: 'lost' },
    {},
  ),
  fc.record(
    { outcome: fc.constantFrom('stored', 'refused', 'retry'), classCode: edgy, reason: edgy },
    { requiredKeys: ['outcome'] },
  ),
  edgy,
);

const answers = fc
  .oneof(
    fc.array(outcome, { maxLength: 4 }).map((outcomes) => ({ outcomes })),
    outcome.map((every) => ({ every })),
    fc.tuple(fc.array(outcome, { maxLength: 2 }), outcome).map(([outcomes, every]) => ({ outcomes, every })),
    fc.constantFrom({}, null, [], { outcomes: {} }, { every: [] }, { outcomes: [], extra: 1 }),
  )
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe('parseDeliverAnswer', () => {
  test('takes exactly the answers the schema takes, with the same result; refuses with the same error', () => {
    fc.assert(
      fc.property(answers, (value) => agree(parseDeliverAnswer, output, value)),
      { numRuns: 3_000 },
    );
  });

  test("peerDeliver's answer is one form of it; too many outcomes are refused", () => {
    const outcomes = { outcomes: [{ outcome: 'stored' }, { outcome: 'retry', reason: 'later' }] };
    expect(parseDeliverAnswer(outcomes)).toBe(outcomes);
    expect(peerLinkOperations.peerDeliver.output.parse(outcomes)).toEqual(outcomes);
    const every = { every: { outcome: 'stored' } };
    expect(parseDeliverAnswer(every)).toBe(every);
    const many = { outcomes: Array.from({ length: PEER_DELIVERY_MAX + 1 }, () => ({ outcome: 'stored' })) };
    expect(() => parseDeliverAnswer(many)).toThrow();
  });
});
