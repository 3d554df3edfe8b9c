/**
 * fast-check arbitraries generated from the contract's own zod schemas (through their JSON Schema), so every
 * operation — including ones added after this file — is fuzzed with inputs of its real shape:
 *
 * - `valid`: inside every constraint, with meaningful values for fields whose name says what they hold;
 * - `boundary`: numbers, strings and arrays at their limits and one past them;
 * - `hostile`: a valid or boundary input broken on purpose (wrong types, missing and extra keys, prototype
 *   keys, huge and control-character strings, non-objects).
 */
import fc from 'fast-check';
import { z } from 'zod';
import {
  anyStringArb,
  base64Arb,
  HOSTILE_STRINGS,
  messageIdArb,
  pathArb,
  SENTINEL,
  settingNameArb,
  timeTextArb,
} from './pools.js';

export type Mode = 'valid' | 'boundary' | 'hostile';

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** The JSON Schema of a zod schema's input side. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
}

const small = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min, max });

/** Fields whose meaning is known from their name: values that reach past validation into the engine. */
const BY_NAME: Record<string, fc.Arbitrary<unknown>> = {
  path: pathArb,
  target: pathArb,
  adminQueue: pathArb,
  responseQueue: pathArb,
  from: pathArb,
  transaction: fc.oneof(fc.constant(SENTINEL.transaction), fc.string({ maxLength: 40 })),
  lookupId: fc.oneof(fc.constant(SENTINEL.lookupId), small(1, 200)),
  lookupIds: fc.array(fc.oneof(fc.constant(SENTINEL.lookupId), small(1, 200)), { minLength: 1, maxLength: 5 }),
  id: messageIdArb,
  correlationId: messageIdArb,
  name: settingNameArb,
  bodyBase64: base64Arb,
  sentTime: timeTextArb,
  arrivedFrom: timeTextArb,
  arrivedTo: timeTextArb,
  // Short waits only: a valid receive may wait its whole timeout on an empty queue.
  timeoutMs: small(0, 100),
  // No timer that fires during the fuzzing (0 expires a message on the next tick, in an outgoing queue too):
  // expiry would change the state between a call and its digest.
  timeToReachQueue: fc.constantFrom(86_400, 345_600, 0xfffffffe, 0xffffffff),
  timeToBeReceived: fc.constantFrom(86_400, 0xffffffff),
  value: fc.oneof(small(0, 10), fc.constantFrom(1024, 65_536, 345_600, 4_194_304, 0xffffffff, 2 ** 40)),
  conversation: fc.oneof(fc.constantFrom('conv-1', 'conv-2'), fc.string({ minLength: 1, maxLength: 20 })),
  label: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('x'.repeat(250), 'ß'.repeat(250))),
  // Large bodies now and then: every one costs both ends real time, and a few hundred say all they can.
  body: fc.oneof(
    { weight: 30, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: small(1, 300_000).map((n) => 'b'.repeat(n)) },
  ),
  priority: small(0, 7),
  journal: small(0, 3),
  acknowledge: fc.constantFrom(0, 1, 2, 4, 5, 8, 12, 14, 15),
  max: small(1, 20),
  limit: small(1, 1000),
  offset: small(0, 50),
  seconds: small(1, 300),
  quotaKB: fc.oneof(fc.constant(null), small(0, 100_000), fc.constant(0xffffffff)),
  journalQuotaKB: fc.oneof(fc.constant(null), small(0, 100_000)),
  classCodes: fc.array(fc.constantFrom(0, 2, 0x4000, 0x8002, 0xc000, 0xc001, -1, 70_000), { maxLength: 5 }),
  sourceMachine: fc.oneof(fc.constantFrom('OTHERPC', 'BETA'), anyStringArb),
  sourceMachineId: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })),
  classCode: fc.constantFrom(0, 2, 0x4000, 0x8002, 0xc000, 0xffff),
  appSpecific: fc.constantFrom(0, 1, 0xffffffff),
};

/** Boundary values that differ from the schema's own edges: a valid maximum wait would be waited out. */
const BOUNDARY_BY_NAME: Record<string, fc.Arbitrary<unknown>> = {
  timeoutMs: fc.constantFrom(0, -1, 1.5, 2_147_483_648, 2 ** 53),
};

/** An arbitrary for one schema node, in `valid` or `boundary` mode. */
export function arbitraryOf(schema: JsonSchema, mode: 'valid' | 'boundary', key?: string): fc.Arbitrary<unknown> {
  if (mode === 'valid' && key !== undefined && BY_NAME[key]) return BY_NAME[key];
  if (mode === 'boundary' && key !== undefined && BOUNDARY_BY_NAME[key]) return BOUNDARY_BY_NAME[key];
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => arbitraryOf(s, mode, key)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'object':
      return objectOf(schema, mode);
    case 'string':
      return mode === 'boundary'
        ? boundaryString(schema, key)
        : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case 'integer':
      return mode === 'boundary'
        ? boundaryNumber(schema, true)
        : fc.integer({
            min: clampInt(schema.minimum ?? -1_000),
            max: clampInt(Math.min(schema.maximum ?? 1_000, 1_000_000)),
          });
    case 'number':
      return mode === 'boundary' ? boundaryNumber(schema, false) : fc.double({ min: -1e6, max: 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = schema.items
        ? arbitraryOf(schema.items, mode, key === undefined ? undefined : singular(key))
        : fc.anything();
      if (mode === 'boundary') return boundaryArray(schema, item);
      const minLength = schema.minItems ?? 0;
      return fc.array(item, { minLength, maxLength: Math.min(schema.maxItems ?? 5, Math.max(minLength, 5)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: JsonSchema, mode: 'valid' | 'boundary'): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, child] of Object.entries(properties)) {
    // In boundary mode, a field still draws meaningful values half of the time so the call gets past "no such queue".
    model[name] =
      mode === 'boundary' && BY_NAME[name]
        ? fc.oneof(BY_NAME[name], arbitraryOf(child, mode, name))
        : arbitraryOf(child, mode, name);
  }
  return fc.record(model, { requiredKeys: schema.required ?? [] });
}

function singular(key: string): string {
  return key.endsWith('s') ? key.slice(0, -1) : key;
}

function clampInt(n: number): number {
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(n)));
}

function boundaryNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum;
  const max = schema.maximum;
  const edges = [
    0,
    -1,
    1,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 32 - 1,
    2 ** 32,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
  ];
  if (min !== undefined) edges.push(min, min - 1);
  if (max !== undefined) edges.push(max, max + 1);
  if (!integer) edges.push(0.5, -0.5, 1e308, -1e308, 5e-324);
  return fc.constantFrom(...edges.filter((n) => Number.isFinite(n)));
}

function boundaryString(schema: JsonSchema, key: string | undefined): fc.Arbitrary<string> {
  const lengths = [0, 1, 250, 251, 256, 257, 1024, 65_536];
  if (schema.minLength !== undefined) lengths.push(schema.minLength, Math.max(0, schema.minLength - 1));
  if (schema.maxLength !== undefined) lengths.push(schema.maxLength, schema.maxLength + 1);
  const fill = key === 'path' || key === 'target' ? '.\\private$\\' : '';
  return fc.oneof(
    fc.constantFrom(...lengths).map((n) => (fill + 'y'.repeat(n)).slice(0, Math.max(n, fill.length))),
    fc.constantFrom(...HOSTILE_STRINGS),
  );
}

function boundaryArray(schema: JsonSchema, item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[]> {
  const sizes = [0, 1];
  if (schema.minItems !== undefined) sizes.push(schema.minItems, Math.max(0, schema.minItems - 1));
  // The largest valid arrays (10,000 messages) would flood the fixture; one past the maximum must be refused.
  if (schema.maxItems !== undefined) sizes.push(schema.maxItems + 1);
  // One item repeated, sized once: measuring it for each of 10,001 copies held the harness's event loop for
  // seconds (a 100 KB item is 1 GB of JSON.stringify), and meanwhile the other lane's answers waited unread —
  // its calls timed out and its kept-alive connections went stale (issue 7, the API fuzz's unanswered calls).
  return fc.constantFrom(...sizes).chain((n) =>
    n > 100
      ? item.map((one) => {
          const copy = (JSON.stringify(one)?.length ?? 0) > 2_000 ? {} : one;
          return Array.from({ length: n }, () => copy);
        })
      : fc.array(item, { minLength: n, maxLength: n }),
  );
}

/** Ways to break an input on purpose. */
const WRONG_VALUES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  '',
  'text',
  [],
  {},
  [null],
  { nested: { deep: [] } },
  1e308,
];

export function hostileOf(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const mutate = fc.tuple(base, fc.nat(), fc.constantFrom(...WRONG_VALUES), fc.constantFrom(...HOSTILE_STRINGS));
  return fc.oneof(
    // A field with the wrong type or a hostile string.
    mutate.map(([input, n, wrong, text]) => replaceField(input, n, (n & 1) === 0 ? wrong : text)),
    // A required (or any) field missing.
    mutate.map(([input, n]) => deleteField(input, n)),
    // Extra keys, including ones that pollute prototypes when merged carelessly.
    mutate.map(([input, n, wrong]) =>
      withExtra(input, ['__proto__', 'constructor', 'prototype', 'extra', 'path '][n % 5] as string, wrong),
    ),
    // Not an object at all.
    fc.constantFrom<unknown>(null, [], [{}], 42, 'input', true, ''),
    // Deep nesting inside a field.
    mutate.map(([input, n]) => replaceField(input, n, nest(200 + (n % 2_000)))),
  );
}

function nest(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { v: value };
  return value;
}

function fieldsOf(input: unknown): string[] {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.keys(input) : [];
}

function replaceField(input: unknown, n: number, value: unknown): unknown {
  const keys = fieldsOf(input);
  if (keys.length === 0) return value;
  const key = keys[n % keys.length] as string;
  const target = (input as Record<string, unknown>)[key];
  // Reach one level into nested objects (send's `message`) half of the time.
  if ((n & 2) !== 0 && fieldsOf(target).length > 0)
    return { ...(input as object), [key]: replaceField(target, n >> 2, value) };
  return { ...(input as object), [key]: value };
}

function deleteField(input: unknown, n: number): unknown {
  const keys = fieldsOf(input);
  if (keys.length === 0) return input;
  const copy = { ...(input as Record<string, unknown>) };
  delete copy[keys[n % keys.length] as string];
  return copy;
}

function withExtra(input: unknown, key: string, value: unknown): unknown {
  if (fieldsOf(input).length === 0 && (input === null || typeof input !== 'object')) return input;
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  // defineProperty: a plain assignment to __proto__ would set the prototype instead of adding the key.
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}
