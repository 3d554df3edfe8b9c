/**
 * The hand-written fast paths for the commonest frames (a call; a successful result; an item; frames) take exactly
 * what the schemas take and give what they give: everything else still goes through the schemas, so errors
 * and their messages are unchanged. And the byte count of a frame is what its encoding would be.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  batchedFrames,
  callFrameSchema,
  clientFrameSchema,
  commonServerFrame,
  serverFrameSchema,
  wellFormedCall,
} from '../../../core/rpc/src/frames.js';
import { utf8Length } from '../../../core/rpc/src/limits.js';

/** Values near every edge the schemas test: ids, op names, types, extra keys. */
const edgyId = fc.oneof(
  fc.constantFrom(0, 1, -1, -0, 0.5, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, NaN, Infinity, 1e300),
  fc.nat(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.constant(null),
  fc.boolean(),
);
const edgyOp = fc.oneof(
  fc.constantFrom('send', 'receiveBatch', '', 'a', '1send', 'send-x', 'x'.repeat(64), 'x'.repeat(65), 'sénd', 'A9'),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,70}$/),
  fc.string(),
  fc.integer(),
);
const anyValue = fc.oneof(fc.constant(undefined), fc.jsonValue());
const edgyType = fc.constantFrom(
  'call',
  'result',
  'item',
  'frames',
  'event',
  'cancel',
  'credit',
  'ready',
  'CALL',
  1,
  undefined,
);

/** A frame as JSON.parse would give it (undefined-valued keys dropped, as JSON has none). */
const frame = fc
  .record(
    {
      type: edgyType,
      id: edgyId,
      op: edgyOp,
      input: anyValue,
      ok: fc.oneof(fc.boolean(), fc.constant('true'), fc.constant(1)),
      value: anyValue,
      frames: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()),
      error: fc.oneof(fc.constant({ code: 'INTERNAL', message: 'x' }), fc.jsonValue()),
      extra: fc.jsonValue(),
    },
    { requiredKeys: [] },
  )
  .map((raw) => JSON.parse(JSON.stringify(raw)) as unknown);
const anyRaw = fc.oneof(frame, fc.jsonValue());

describe('wellFormedCall', () => {
  test('recognizes exactly the calls callFrameSchema takes, with the same result', () => {
    fc.assert(
      fc.property(anyRaw, (raw) => {
        const fast = wellFormedCall(raw);
        const schema = callFrameSchema.safeParse(raw);
        expect(fast !== undefined).toBe(schema.success);
        if (fast) {
          expect(fast).toEqual(schema.data);
          // And the frame means the same through the whole client frame schema.
          expect(clientFrameSchema.parse(raw)).toEqual(fast);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  test('a call a client sends is recognized; an invalid op or id is left to the schema', () => {
    expect(wellFormedCall({ type: 'call', id: 7, op: 'send', input: { path: 'q' } })).toEqual({
      type: 'call',
      id: 7,
      op: 'send',
      input: { path: 'q' },
    });
    expect(wellFormedCall({ type: 'call', id: -1, op: 'send' })).toBeUndefined();
    expect(wellFormedCall({ type: 'call', id: 1, op: 'no-such op' })).toBeUndefined();
    expect(wellFormedCall({ type: 'call', id: 1.5, op: 'send' })).toBeUndefined();
  });
});

describe('commonServerFrame', () => {
  test('recognizes exactly the successful results and items serverFrameSchema takes, with the same result', () => {
    fc.assert(
      fc.property(anyRaw, (raw) => {
        const fast = commonServerFrame(raw);
        const schema = serverFrameSchema.safeParse(raw);
        if (fast) {
          expect(schema.success).toBe(true);
          expect(fast).toEqual(schema.data);
        } else if (schema.success) {
          // Left to the schema: only frames that are neither a successful result nor an item.
          expect(schema.data.type === 'item' || (schema.data.type === 'result' && schema.data.ok)).toBe(false);
        }
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('batchedFrames', () => {
  test('gives the inner frames of exactly the `frames` frames serverFrameSchema takes', () => {
    fc.assert(
      fc.property(anyRaw, (raw) => {
        const fast = batchedFrames(raw);
        const schema = serverFrameSchema.safeParse(raw);
        const framesFrame = schema.success && schema.data.type === 'frames' ? schema.data : undefined;
        expect(fast).toEqual(framesFrame?.frames);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('utf8Length', () => {
  test('counts what TextEncoder writes, lone surrogates included, without encoding', () => {
    const encoder = new TextEncoder();
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.array(fc.integer({ min: 0, max: 0xffff })).map((units) => String.fromCharCode(...units)),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(utf8Length(value)).toBe(encoder.encode(value).length);
      }),
      { numRuns: 5_000 },
    );
  });
});
