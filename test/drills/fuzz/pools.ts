/**
 * Values the fuzzers draw from, by what a field means: queue paths that exist and that do not, message IDs,
 * setting names, and strings a hostile or careless client sends. Random strings alone would almost never name
 * a real queue, so most valid calls would stop at QUEUE_NOT_FOUND and test little.
 */
import fc from 'fast-check';

/** The fuzz fixture: queues created before the fuzzing starts (and re-created when a fuzz case deletes them). */
export const FIXTURE_QUEUES = [
  { path: '.\\private$\\fz-a', journal: true },
  { path: '.\\private$\\fz-b', transactional: true },
  { path: '.\\private$\\fz-c', quotaKB: 20 },
  { path: '.\\private$\\fz-d', retention: true },
  { path: '.\\fz-pub' },
] as const;

/** Names a fuzz case may create (and delete): bounded, so the state stays small enough to digest. */
const CREATABLE = ['.\\private$\\fz-new1', '.\\private$\\fz-new2', '.\\private$\\FZ-NEW1', '.\\fz-newpub'];

/** Placeholders the driver replaces with live values just before a call. */
export const SENTINEL = {
  lookupId: 4_242_424_242,
  transaction: '\u0000open-transaction',
  messageId: '\u0000message-id',
} as const;

const existingPaths = FIXTURE_QUEUES.map((q) => q.path);

/** Strings that have broken parsers, loggers and terminals before. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202eevil\u202c',
  '\u2066isolate\u2069',
  '\ud800',
  '\udfff\ud800',
  '\r\n\r\nHTTP/1.1 200 OK',
  '\u001b[31mred\u001b[0m',
  '%00',
  '%2e%2e%2f',
  '../../../../etc/passwd',
  '\\\\?\\C:\\Windows',
  '__proto__',
  'constructor',
  'toString',
  '{"__proto__":{"polluted":1}}',
  '${jndi:ldap://x}',
  "'; DROP TABLE messages; --",
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  'null',
  'undefined',
  '\uFEFF',
  '\u00a0',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ß'.repeat(300),
  'x'.repeat(251),
  'x'.repeat(10_000),
];

const segment = fc.oneof(
  fc.constantFrom('fz-a', 'FZ-A', 'fz-b', 'fz-new1', 'x', ''),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 400)),
);

/** Queue paths and format names, mostly meaningful, some malformed. */
export const pathArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...existingPaths) },
  { weight: 2, arbitrary: fc.constantFrom(...CREATABLE) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '.\\private$\\fz-a\\JOURNAL$',
      '.\\private$\\fz-b\\JOURNAL$',
      '.\\JOURNAL$',
      '.\\DEADLETTER$',
      '.\\XACTDEADLETTER$',
      '.\\private$\\fz-a;poison',
      'DIRECT=OS:.\\private$\\fz-a',
      'DIRECT=OS:OTHERPC\\private$\\fz-a',
      'OTHERPC\\private$\\fz-a',
      'DIRECT=TCP:10.0.0.1\\private$\\x',
      'MACHINE=00000000-0000-0000-0000-000000000000;JOURNAL',
      ';DEADLETTER',
      ';DEADXACT',
      'PRIVATE=00000000-0000-0000-0000-000000000000\\00000001',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(
      segment.map((s) => `.\\private$\\${s}`),
      segment.map((s) => `.\\${s}`),
      fc.tuple(segment, segment).map(([a, b]) => `${a}\\private$\\${b}`),
      fc.constantFrom('private$\\x', '.\\private$\\', '.\\private$\\a\\b\\c', '..\\x', '.\\private$\\a;', '\\\\'),
      fc.constant(`.\\private$\\${'q'.repeat(400)}`),
      fc.constant(`.\\private$\\${'q'.repeat(70_000)}`),
    ),
  },
);

/** Message IDs (`{guid}\N`), correlation IDs and garbage. */
export const messageIdArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(SENTINEL.messageId) },
  { weight: 2, arbitrary: fc.tuple(fc.uuid(), fc.nat()).map(([g, n]) => `{${g}}\\${n}`) },
  { weight: 1, arbitrary: fc.tuple(fc.uuid(), fc.nat()).map(([g, n]) => `${g}\\${n}`) },
  { weight: 2, arbitrary: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...HOSTILE_STRINGS)) },
);

/** Setting names as MSMQ's registry spells them, and others. */
export const settingNameArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'MachineQuota',
      'MachineJournalQuota',
      'RemoveDuplicateSize',
      'RemoveDuplicateCleanup',
      'XactDeadLetterAlways',
      'LongLiveTime',
      'MaxMessageSize',
      'XactDelayReceiveNack',
    ),
  },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...HOSTILE_STRINGS)) },
);

/** Any string: short and ordinary, or hostile, or long. */
export const anyStringArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'L'.repeat(n)) },
  { weight: 20, arbitrary: fc.string({ maxLength: 30 }) },
);

/** Base64 bodies: valid, padded wrong, not base64 at all. */
export const base64Arb: fc.Arbitrary<string> = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64')),
  fc.constantFrom('====', 'not base64!', 'QUJD', 'QUJ', '', '\u0000'),
);

/** ISO times and things that are not. */
export const timeTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('', 'yesterday', '2024-13-45T99:99:99Z', '0', '-271821-04-20T00:00:00.000Z'),
);
