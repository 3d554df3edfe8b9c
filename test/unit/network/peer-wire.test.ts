/**
 * Protocol 2's and 3's packed delivery (core/network wire.ts): what a sender packs is what the next hop unpacks,
 * message for message — its bodies as base64 text, or as an attachment beside the call — and the hand check
 * takes it as it is; the answer of either form reads as one outcome per message.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parsePeerDeliverPacked } from '@qk/api';
import type { DeliveryOutcome, TransitMessage } from '@qk/engine';
import { Attachments } from '../../../core/network/src/attachments.js';
import { outcomesOf, packDelivery, packOutcomes, unpackDelivery } from '../../../core/network/src/wire.js';

const nullable = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(a, { nil: null });
const uint32 = fc.integer({ min: 0, max: 0xffffffff });
const path = fc.constantFrom('BETA\\private$\\orders', 'BETA\\private$\\ünïcödé', 'DIRECT=OS:GAMMA\\q');

/** Each field of a transit message; a message is some of them over a base, so leases mix shared fields and columns. */
const parts = {
  msgId: fc.constantFrom('{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}\\1', '{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}\\2'),
  classCode: fc.integer({ min: 0, max: 0xffff }),
  label: fc.string({ unit: 'grapheme', maxLength: 12 }),
  body: fc.uint8Array({ maxLength: 9 }).map((b) => Buffer.from(b)),
  priority: fc.integer({ min: 0, max: 7 }),
  recoverable: fc.boolean(),
  journal: fc.integer({ min: 0, max: 3 }),
  ack: fc.integer({ min: 0, max: 15 }),
  adminQueue: nullable(path),
  responseQueue: nullable(path),
  destQueue: path,
  correlationId: nullable(fc.constantFrom('{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}\\7')),
  appSpecific: uint32,
  sourceMachine: fc.constantFrom('ALPHA', 'GAMMA'),
  sourceMachineId: fc.constantFrom('{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}'),
  sentMs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  reachQueueWithinMs: nullable(fc.nat()),
  receiveWithinMs: nullable(fc.nat()),
  ttrq: uint32,
  ttbr: nullable(uint32),
  hops: fc.integer({ min: 0, max: 15 }),
  transactional: fc.boolean(),
  sequence: nullable(
    fc.record(
      {
        stream: fc.constantFrom('s1', 's2'),
        number: fc.integer({ min: 1, max: 3 }),
        group: nullable(fc.constantFrom('g1', 'g2')),
        // R-E3's previous number: optional, so peers from before it read the sequence as they did.
        previous: fc.integer({ min: 0, max: 2 }),
      },
      { requiredKeys: ['stream', 'number', 'group'] },
    ),
  ),
  conversation: nullable(fc.string({ unit: 'grapheme', maxLength: 8 })),
};

const lease: fc.Arbitrary<TransitMessage[]> = fc
  .tuple(fc.record(parts), fc.array(fc.record(parts, { requiredKeys: [] }), { minLength: 1, maxLength: 6 }))
  .map(([base, changes]) => changes.map((change) => ({ ...base, ...change })));

/** Messages with bodies as text, so views and copies compare by their bytes. */
const comparable = (messages: readonly TransitMessage[]) =>
  messages.map((m) => ({ ...m, body: m.body.toString('hex') }));

describe('packed deliveries', () => {
  test('pack → JSON → hand check → unpack gives back every message; the hand check takes what a sender packs as it is', () => {
    fc.assert(
      fc.property(lease, (messages) => {
        const sent = JSON.parse(JSON.stringify(packDelivery(messages))) as unknown;
        const checked = parsePeerDeliverPacked(sent);
        expect(checked).toBe(sent);
        expect(comparable(unpackDelivery(checked))).toEqual(comparable(messages));
      }),
      { numRuns: 1_000 },
    );
  });

  test('a field every message shares crosses once; one that differs is a column; equal sequences are shared', () => {
    const base = fc.sample(fc.record(parts), { numRuns: 1, seed: 7 })[0] as TransitMessage;
    const sequence = { stream: 's', number: 4, group: 'g' };
    const messages = [1, 2, 3].map((n) => ({
      ...base,
      msgId: `{8b0c8a9e-1f3a-4c5b-9d2e-abcdef012345}\\${n}`,
      body: Buffer.from('ab'),
      sequence: { ...sequence },
    }));
    const packed = packDelivery(messages);
    expect(packed.fields.id).toHaveLength(3);
    expect(packed.fields.destinationQueue).toBe(base.destQueue);
    expect(packed.fields.sequence).toEqual(sequence);
    expect(packed.fields.sentTime).toBe(new Date(base.sentMs).toISOString());
    expect(packed).toMatchObject({ count: 3, bodies: Buffer.from('ababab').toString('base64'), bodySizes: 2 });
  });

  test('empty bodies, and bodies of different sizes, come back as they left', () => {
    const base = fc.sample(fc.record(parts), { numRuns: 1, seed: 3 })[0] as TransitMessage;
    const bodies = ['', 'é', '', 'three', ''].map((text) => Buffer.from(text));
    const messages = bodies.map((body) => ({ ...base, body }));
    const packed = packDelivery(messages);
    expect(packed.bodySizes).toEqual([0, 2, 0, 5, 0]);
    expect(unpackDelivery(parsePeerDeliverPacked(packed)).map((m) => m.body.toString())).toEqual([
      '',
      'é',
      '',
      'three',
      '',
    ]);
  });

  test('pack → attachment frame and call text → listener → unpack gives back every message, bodies as views', () => {
    fc.assert(
      fc.property(fc.array(lease, { minLength: 1, maxLength: 3 }), (leases) => {
        // The sender's end: numbered binary frames, each followed by its call's JSON text.
        const wire: ({ binary: Buffer } | { text: string })[] = [];
        let numbered = 0;
        const attach = (bodies: Buffer): number => {
          const frame = Buffer.alloc(4 + bodies.length);
          frame.writeUInt32BE(++numbered, 0);
          bodies.copy(frame, 4);
          wire.push({ binary: frame });
          return numbered;
        };
        for (const messages of leases) wire.push({ text: JSON.stringify(packDelivery(messages, attach)) });
        // The listener's end.
        const attachments = new Attachments();
        const received: TransitMessage[][] = [];
        for (const frame of wire) {
          if ('binary' in frame) {
            expect(attachments.arrived(frame.binary)).toBeNull();
            continue;
          }
          const sent = JSON.parse(frame.text) as unknown;
          const attachment = attachments.claim(sent);
          expect(attachment).toBeDefined();
          const checked = parsePeerDeliverPacked(sent);
          expect(checked).toBe(sent);
          const messages = unpackDelivery(checked, attachment);
          for (const m of messages) if (m.body.length > 0) expect(m.body.buffer).toBe(attachment?.buffer);
          received.push(messages);
        }
        expect(received.map(comparable)).toEqual(leases.map(comparable));
        expect(attachments.waiting).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  test('protocol 3 packs the bodies joined as they are; the call names only the attachment', () => {
    const base = fc.sample(fc.record(parts), { numRuns: 1, seed: 11 })[0] as TransitMessage;
    const messages = ['ab', '', 'cde'].map((text) => ({ ...base, body: Buffer.from(text) }));
    const attached: Buffer[] = [];
    const packed = packDelivery(messages, (bodies) => attached.push(bodies));
    expect(packed).toMatchObject({ count: 3, bodies: { attachment: 1 }, bodySizes: [2, 0, 3] });
    expect(attached.map((b) => b.toString())).toEqual(['abcde']);
  });

  test('a delivery naming an attachment is refused without it, or with one of another length', () => {
    const base = fc.sample(fc.record(parts), { numRuns: 1, seed: 13 })[0] as TransitMessage;
    const packed = packDelivery([{ ...base, body: Buffer.from('abc') }], () => 7);
    expect(() => unpackDelivery(packed)).toThrow(/attachment 7 did not arrive/);
    expect(() => unpackDelivery(packed, Buffer.from('ab'))).toThrow(/attachment 7 has 2 bytes, not the 3/);
    expect(unpackDelivery(packed, Buffer.from('xyz'))[0]?.body.toString()).toBe('xyz');
  });

  test('bodies text with a character outside base64 is refused, though its length fits the sizes', () => {
    const base = fc.sample(fc.record(parts), { numRuns: 1, seed: 5 })[0] as TransitMessage;
    const packed = packDelivery([{ ...base, body: Buffer.from('abc') }]);
    const bad = { ...packed, bodies: 'YW!j' };
    expect(() => unpackDelivery(parsePeerDeliverPacked(bad))).toThrow(/not base64/);
  });
});

describe('deliver answers', () => {
  const stored: DeliveryOutcome = { outcome: 'stored' };
  const retry: DeliveryOutcome = { outcome: 'retry', reason: 'quota' };

  test('the next hop answers once for all when every outcome is the same, else one each', () => {
    expect(packOutcomes([stored, { outcome: 'stored' }])).toEqual({ every: stored });
    expect(packOutcomes([retry, { outcome: 'retry', reason: 'offline' }])).toEqual({
      outcomes: [retry, { outcome: 'retry', reason: 'offline' }],
    });
    expect(
      packOutcomes([
        { outcome: 'refused', classCode: 0x8000 },
        { outcome: 'refused', classCode: 0x8001 },
      ]),
    ).toEqual({
      outcomes: [
        { outcome: 'refused', classCode: 0x8000 },
        { outcome: 'refused', classCode: 0x8001 },
      ],
    });
  });

  test('the sender reads either form as one outcome per message; a miscounted or malformed answer is none', () => {
    expect(outcomesOf({ every: stored }, 3)).toEqual([stored, stored, stored]);
    expect(outcomesOf({ outcomes: [stored, retry] }, 2)).toEqual([stored, retry]);
    expect(outcomesOf({ outcomes: [stored] }, 2)).toBeNull();
    expect(outcomesOf({ every: { outcome: 'lost' } }, 1)).toBeNull();
    expect(outcomesOf(null, 1)).toBeNull();
  });
});
