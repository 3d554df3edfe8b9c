/**
 * Command lines for every `qk` command, read from the CLI's own command tree (commander), so a command added
 * later is fuzzed too: the command path, its arguments and a random set of its options with meaningful,
 * boundary or hostile values, plus the global options and the mistakes people make at a shell.
 *
 * Safety: `qk` runs in this process as root. No value may name a file outside the drill's temp folder, so
 * generic strings never contain a slash and every file-valued argument comes from the temp folder's pool.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import fc from 'fast-check';
import { HOSTILE_STRINGS, messageIdArb, pathArb, settingNameArb } from './pools.js';

/** Commands that would end the fuzzing rather than test input handling. */
const EXCLUDED_COMMANDS = new Set(['service stop', 'service restart']);

interface OptionSpec {
  long: string;
  takesValue: boolean;
}

interface CommandSpec {
  words: string[];
  args: { name: string; required: boolean; variadic: boolean }[];
  options: OptionSpec[];
  /** Whether it can change what the service holds (its refusals get the full digest). */
  writes: boolean;
}

const READ_ONLY_COMMANDS = new Set([
  'service status',
  'queue list',
  'queue show',
  'queue classes',
  'peek',
  'messages',
  'message show',
  'message find',
  'message acks',
  'acks',
  'settings',
  'traffic',
  'service start',
]);

/** Every command of the tree (groups too: a group without its subcommand is a usage error to survive). */
export function commandSpecs(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const walk = (command: Command, words: string[]): void => {
    for (const sub of command.commands) {
      const path = [...words, sub.name()];
      const key = path.join(' ');
      if (EXCLUDED_COMMANDS.has(key)) continue;
      specs.push({
        words: path,
        args: sub.registeredArguments.map((a) => ({ name: a.name(), required: a.required, variadic: a.variadic })),
        options: sub.options
          .filter((o) => o.long !== undefined && o.long !== '--help')
          .map((o) => ({ long: o.long as string, takesValue: o.required || o.optional })),
        writes: !READ_ONLY_COMMANDS.has(key),
      });
      walk(sub, path);
    }
  };
  walk(program, []);
  return specs;
}

/** Strings safe to hand to any argument: no slash (so never a file path outside the temp folder). */
const safeString: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 2_000)) },
    { weight: 1, arbitrary: fc.constantFrom('-', '--', '-x', '--nope', '=', '--=x', '-1', '1e9', '0x1F', ' 3 ', '３') },
  )
  .map((s) => s.replace(/\//g, '|'));

const number: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 300 }).map(String),
  fc.constantFrom('0', '1', '7', '8', '4294967295', '4294967296', '-1', '1.5', 'NaN', 'Infinity', '', 'abc', '0x10'),
);

function valueFor(name: string, tempDir: string): fc.Arbitrary<string> {
  const lower = name.toLowerCase().replace(/^--/, '');
  const files = fc.constantFrom(
    join(tempDir, 'body.txt'),
    join(tempDir, 'empty.bin'),
    join(tempDir, 'missing.bin'),
    tempDir,
    join(tempDir, 'out', 'file.json'),
  );
  if (/file|tls|cert|key/.test(lower)) return files;
  if (['path', 'target', 'admin-queue', 'response-queue', 'from'].includes(lower)) return fc.oneof(pathArb, safeString);
  if (['lookupid', 'lookup-id'].includes(lower)) return fc.oneof(number, fc.constantFrom('1', '2', '3'));
  if (['id', 'correlation-id'].includes(lower)) return fc.oneof(messageIdArb, safeString);
  if (lower === 'name') return fc.oneof(settingNameArb, safeString);
  // Short waits only: a valid --timeout may be waited out in full on an empty queue.
  if (lower === 'timeout') return fc.constantFrom('0', '0.05', '0.1', '-1', 'abc', '', '1e-9', 'NaN');
  // No timer that fires during the fuzzing (see schema-arbitrary.ts).
  if (['ttrq', 'ttbr'].includes(lower)) return fc.constantFrom('86400', '4294967295', '-5', 'x', '1.5');
  if (lower === 'value') return number;
  if (['priority', 'quota', 'journal-quota', 'offset', 'limit', 'seconds', 'app-specific'].includes(lower)) {
    return fc.oneof(number, fc.constant('unlimited'));
  }
  if (lower === 'journal' || lower === 'retention') {
    return fc.constantFrom('on', 'off', 'none', 'deadletter', 'journal', 'both', '0', '3', '4', 'maybe');
  }
  if (lower === 'ack') return fc.constantFrom('none', 'full-receive', 'nack-receive', '15', '16', '-1', 'all');
  if (lower === 'action') return fc.constantFrom('first', 'last', 'next', 'previous', 'current', 'sideways');
  if (lower === 'class') return fc.constantFrom('NORMAL', 'ACK_RECEIVE', '0xC002', '0x10000', 'BOGUS');
  if (lower === 'listen') return fc.constantFrom('127.0.0.1:0', '0.0.0.0:0', 'nowhere', '127.0.0.1:99999');
  if (lower === 'body')
    return fc.oneof(
      safeString,
      fc.integer({ min: 1, max: 200_000 }).map((n) => 'b'.repeat(n)),
    );
  return safeString;
}

/** How a case reaches a service: our data folder (mostly), no running service, or a wrong token. */
export interface Reach {
  dataDir: string;
  /** A folder with no service in it. */
  emptyDir: string;
  url: string;
}

export interface CliCase {
  argv: string[];
  command: string;
  json: boolean;
  writes: boolean;
  mode: 'valid' | 'hostile';
}

export function cliCaseArbitrary(specs: CommandSpec[], reach: Reach, tempDir: string): fc.Arbitrary<CliCase> {
  const global = fc.oneof(
    { weight: 12, arbitrary: fc.constant(['--data', reach.dataDir]) },
    { weight: 1, arbitrary: fc.constant(['--data', reach.emptyDir]) },
    { weight: 1, arbitrary: fc.constant(['--service', reach.url, '--token', 'wrong-token']) },
    { weight: 1, arbitrary: fc.constant(['--service', 'not a url', '--token', 'x']) },
    { weight: 1, arbitrary: fc.constant(['--data']) },
  );
  return fc.constantFrom(...specs).chain((spec) => {
    const args = spec.args.map((a) => {
      const one = valueFor(a.name, tempDir);
      const value = a.variadic ? fc.array(one, { minLength: 1, maxLength: 3 }) : one.map((v) => [v]);
      return a.required ? value : fc.option(value, { nil: undefined }).map((v) => v ?? []);
    });
    const options = fc
      .subarray(spec.options, { maxLength: Math.min(6, spec.options.length) })
      .chain((chosen) =>
        fc.tuple(
          ...chosen.map((o) =>
            o.takesValue ? valueFor(o.long, tempDir).map((v) => [o.long, v]) : fc.constant([o.long]),
          ),
        ),
      );
    const mistakes = fc.oneof(
      { weight: 6, arbitrary: fc.constant<string[]>([]) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<string[]>(
          ['--nope'],
          ['extra', 'positional'],
          ['--'],
          ['--label'],
          ['--json', '--json'],
          ['-x'],
          ['--limit=5'],
        ),
      },
      { weight: 1, arbitrary: safeString.map((s) => [s]) },
    );
    return fc
      .tuple(global, fc.tuple(...args), options, mistakes, fc.boolean(), fc.nat(9))
      .map(([g, a, o, m, json, shuffle]): CliCase => {
        // Options before the arguments now and then: commander accepts both orders. (The arguments keep their
        // order: swapped, a queue path would become export's output file.)
        const tail = shuffle === 0 ? [...o.flat(), ...a.flat()] : [...a.flat(), ...o.flat()];
        const argv = [...g, ...(json || shuffle > 2 ? ['--json'] : []), ...spec.words, ...tail, ...m];
        return {
          argv,
          command: spec.words.join(' '),
          json: argv.includes('--json'),
          writes: spec.writes,
          mode: m.length > 0 || g[0] !== '--data' || g[1] !== reach.dataDir ? 'hostile' : 'valid',
        };
      });
  });
}
