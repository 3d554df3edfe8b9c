/**
 * peerDeliver's hand-written check takes exactly what the schema takes and gives what it gives: a delivery it
 * does not recognize goes through the schema, so refusals and their messages are the schema's.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parsePeerDeliver, PEER_DELIVERY_MAX, peerLinkOperations, wireSequenceSchema } from '@qk/api';
import { edgy, validWireMessage as valid } from './peer-link-fixtures.js';

const schema = peerLinkOperations.peerDeliver.input;

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
      { ...valid(), sequence: { stream: 'abc', number: 9, group: null, previous: 7 }, transactional: true },
    ];
    const input = { messages };
    expect(parsePeerDeliver(input).messages).toBe(messages);
    expect(schema.parse(input)).toEqual(input);
  });

  test("R-E3 a sequence's previous number is optional: a peer from before it sends none, and its schema drops it", () => {
    const without = { ...valid(), sequence: { stream: 'abc', number: 7, group: null }, transactional: true };
    expect(parsePeerDeliver({ messages: [without] }).messages[0]).toBe(without);
    // What a peer from before the field reads (its sequence schema, as it was): the message, without the field.
    const before = wireSequenceSchema.omit({ previous: true });
    expect(before.parse({ stream: 'abc', number: 9, group: null, previous: 7 })).toEqual({
      stream: 'abc',
      number: 9,
      group: null,
    });
  });

  test('the bounds: a lease grown to keep a transaction whole is taken; one past PEER_DELIVERY_MAX and an empty one are refused', () => {
    // The engine may lease past 1,000 messages to keep a transaction whole: refusing it cut the session for good.
    const whole = { messages: Array.from({ length: 1_001 }, valid) };
    expect(parsePeerDeliver(whole).messages).toBe(whole.messages);
    const many = { messages: Array.from({ length: PEER_DELIVERY_MAX + 1 }, valid) };
    expect(() => parsePeerDeliver(many)).toThrow();
    expect(() => parsePeerDeliver({ messages: [] })).toThrow();
  });
});
