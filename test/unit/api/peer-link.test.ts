/**
 * peerDeliver's hand-written check takes exactly what the schema takes and gives what it gives: a delivery it
 * does not recognize goes through the schema, so refusals and their messages are the schema's.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Bounds, parsePeerDeliver, peerLinkOperations } from '@qk/api';

const schema = peerLinkOperations.peerDeliver.input;

/** A message the schema takes. */
const valid = (): Record<string, unknown> => ({
  id: '{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}\\1042',
  classCode: 0,
  label: 'bench',
  bodyBase64: 'aGVsbG8=',
  priority: 3,
  recoverable: true,
  journal: 0,
  acknowledge: 0,
  adminQueue: null,
  responseQueue: 'ALPHA\\private$\\replies',
  destinationQueue: 'BETA\\private$\\orders',
  correlationId: null,
  appSpecific: 0,
  sourceMachine: 'ALPHA',
  sourceMachineId: '{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}',
  sentTime: '2026-11-30T20:00:00.000Z',
  reachQueueWithinMs: null,
  receiveWithinMs: 5000,
  timeToReachQueue: 345600,
  timeToBeReceived: null,
  hops: 0,
  transactional: false,
  sequence: null,
  conversation: null,
});

/** Values at and past every edge the schema tests, for any field. */
const edgy = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    true,
    0,
    -0,
    -1,
    1,
    7,
    8,
    15,
    16,
    255,
    256,
    0xffff,
    0x10000,
    0xffffffff,
    0x100000000,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 1,
    0.5,
    NaN,
    Infinity,
    '',
    'ALPHA',
    'AL PHA',
    'ALPHA\u200b',
    'é',
    'x'.repeat(Bounds.COMPUTER_NAME),
    'x'.repeat(Bounds.COMPUTER_NAME + 1),
    'x'.repeat(Bounds.GUID_TEXT + 1),
    'x'.repeat(Bounds.MESSAGE_ID_TEXT + 1),
    'x'.repeat(Bounds.TIME_TEXT + 1),
    'x'.repeat(Bounds.CONVERSATION + 1),
    'x'.repeat(Bounds.PATH),
    'x'.repeat(Bounds.PATH + 1),
    { stream: 's', number: 1, group: null },
    { stream: 's', number: 1, group: 'g' },
    { stream: '', number: 1, group: null },
    { stream: 's', number: 0, group: null },
    { stream: 's', number: 1, group: null, extra: 1 },
    { stream: 's', number: 1 },
    { stream: 'x'.repeat(65), number: 1, group: null },
    [],
    {},
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 80 }),
  fc.jsonValue({ maxDepth: 2 }),
);

const fields = Object.keys(valid());

/** A valid message with a few fields changed, dropped or added (as JSON carries it). */
const message = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...fields, 'extra', '__proto__'), edgy), { maxLength: 3 }),
    fc.array(fc.constantFrom(...fields), { maxLength: 1 }),
  )
  .map(([changes, dropped]) => {
    const m = valid();
    for (const [key, value] of changes) m[key] = value;
    for (const key of dropped) delete m[key];
    return JSON.parse(JSON.stringify(m)) as unknown;
  });

const delivery = fc.oneof(
  fc.array(message, { minLength: 1, maxLength: 4 }).map((messages) => ({ messages })),
  fc.array(message, { maxLength: 2 }).map((messages) => ({ messages, extra: 1 })),
  fc.constantFrom({ messages: [] }, {}, null, [], 'messages', { messages: {} }),
);

describe('parsePeerDeliver', () => {
  test('takes exactly the deliveries the schema takes, with the same result; refuses with the same error', () => {
    fc.assert(
      fc.property(delivery, (input) => {
        const expected = schema.safeParse(input);
        let got: unknown;
        let error: unknown;
        try {
          got = parsePeerDeliver(input);
        } catch (e) {
          error = e;
        }
        expect(error === undefined).toBe(expected.success);
        if (expected.success) expect(got).toEqual(expected.data);
        else expect(String(error)).toBe(String(expected.error));
      }),
      { numRuns: 3_000 },
    );
  });

  test('a well-formed delivery is taken as it is, without the schema making a copy', () => {
    const messages = [
      valid(),
      { ...valid(), sequence: { stream: 'abc', number: 7, group: null }, transactional: true },
    ];
    const input = { messages };
    expect(parsePeerDeliver(input).messages).toBe(messages);
    expect(schema.parse(input)).toEqual(input);
  });

  test('the bounds: a batch past PEER_BATCH_MAX and an empty one are refused as the schema refuses them', () => {
    const many = { messages: Array.from({ length: 1_001 }, valid) };
    expect(() => parsePeerDeliver(many)).toThrow();
    expect(() => parsePeerDeliver({ messages: [] })).toThrow();
  });
});
