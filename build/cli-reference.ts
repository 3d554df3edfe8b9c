/**
 * docs/cli.md, generated from the commander definitions that `qk --help` prints (core/cli): every command, its
 * arguments and options, the global options and the exit codes. What the definitions do not hold — what each
 * command prints with --json, the JSON shapes, the HTTP and WebSocket API — is written by hand in docs/cli.md
 * between `<!-- keep:NAME -->` and `<!-- /keep:NAME -->`, and carried over on every run.
 * `npm run docs:cli` writes the file (build/write-cli-reference.mjs); test/unit/build/cli-reference.test.ts fails
 * when it is stale or when a command's --json output is not described.
 */
import type { Argument, Command, Option } from 'commander';
import { buildProgram, ExitCode } from '@qk/cli';
import { errorCodesSection, operationsSection, shapesSection } from './api-reference.js';

/** What each exit code means; a new code without a meaning here stops the generator. */
const EXIT_CODE_MEANINGS: Readonly<Record<keyof typeof ExitCode, string>> = {
  OK: 'success',
  FAILED: 'the operation failed; the error says why (with `--json`: `{"error":{"code","message"}}` on stderr)',
  USAGE: 'the command line is wrong (unknown command or option, a value an option does not take)',
  TIMEOUT: 'nothing arrived within `--timeout` (`receive`, `peek`)',
};

const KEEP = /<!-- keep:([^\s>]+) -->\n?([\s\S]*?)<!-- \/keep:\1 -->/g;

/** The hand-written blocks of a docs/cli.md, by name. */
export function keptBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of markdown.matchAll(KEEP)) blocks.set(match[1] ?? '', match[2] ?? '');
  return blocks;
}

function keep(name: string, kept: ReadonlyMap<string, string>, fallback = ''): string {
  const body = kept.get(name) ?? fallback;
  return `<!-- keep:${name} -->\n${body && !body.endsWith('\n') ? `${body}\n` : body}<!-- /keep:${name} -->`;
}

/** Text for a Markdown paragraph or table cell: punctuation that Markdown would eat is escaped. */
function text(value: string): string {
  return value
    .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
    .replace(/([*|<>[\]])/g, '\\$1')
    .replace(/\n/g, ' ');
}

/** Inline code that may sit in a table cell. */
function code(value: string): string {
  return `\`${value.replace(/\|/g, '\\|')}\``;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function argumentLabel(argument: Argument): string {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

function optionRow(option: Option): string {
  const notes: string[] = [];
  if (option.mandatory) notes.push('required');
  if (option.argChoices) notes.push(`one of ${option.argChoices.map(code).join(', ')}`);
  if (option.defaultValue !== undefined && option.defaultValue !== false) {
    notes.push(`default ${code(String(option.defaultValue))}`);
  }
  if (option.envVar) notes.push(`env ${code(option.envVar)}`);
  const description = [text(option.description ?? ''), ...notes].filter(Boolean).join('; ');
  return `| ${code(option.flags)} | ${description} |`;
}

function optionsTable(options: readonly Option[]): string[] {
  const visible = options.filter((option) => !option.hidden);
  if (visible.length === 0) return [];
  return ['| option | what it does |', '| --- | --- |', ...visible.map(optionRow), ''];
}

function argumentsTable(args: readonly Argument[]): string[] {
  const described = args.filter((argument) => argument.description);
  if (described.length === 0) return [];
  return [
    '| argument | what it is |',
    '| --- | --- |',
    ...described.map((argument) => `| ${code(argumentLabel(argument))} | ${text(argument.description)} |`),
    '',
  ];
}

function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

/** A command that does something (has no subcommands), with its heading, synopsis, tables and --json block. */
function commandSection(command: Command, level: string, kept: ReadonlyMap<string, string>): string[] {
  const path = commandPath(command);
  const synopsis = `${path} ${command.usage()}`.trim();
  return [
    `${level} \`${path}\``,
    '',
    text(command.description()),
    '',
    '```',
    synopsis,
    '```',
    '',
    ...argumentsTable(command.registeredArguments),
    ...optionsTable(command.options),
    `With \`--json\` it prints:`,
    '',
    keep(`json:${path.replace(/^qk /, '').replace(/ /g, '-')}`, kept),
    '',
  ];
}

/** Whether running the command itself does something (`qk settings` does; `qk queue` only lists its subcommands). */
function runs(command: Command): boolean {
  // commander keeps the action handler private; a group without one prints its help.
  return command.commands.length === 0 || Boolean((command as unknown as { _actionHandler?: unknown })._actionHandler);
}

/** Every command in definition order: groups (service, queue, …) with their subcommands, and plain commands. */
function commandSections(program: Command, kept: ReadonlyMap<string, string>): { body: string[]; toc: string[] } {
  const body: string[] = [];
  const toc: string[] = [];
  for (const command of program.commands) {
    const path = commandPath(command);
    if (command.commands.length === 0) {
      body.push(...commandSection(command, '###', kept));
      toc.push(`  - [\`${path}\`](#${anchor(path)})`);
      continue;
    }
    if (runs(command)) body.push(...commandSection(command, '###', kept));
    else body.push(`### \`${path}\``, '', text(command.description()), '');
    toc.push(`  - [\`${path}\`](#${anchor(path)}): ${command.commands.map((sub) => sub.name()).join(', ')}`);
    for (const sub of command.commands) body.push(...commandSection(sub, '####', kept));
  }
  return { body, toc };
}

/** The --json block of every command that runs (`json:queue-create`, `json:send`, …). */
export function jsonBlockNames(program: Command = buildProgram(silentIo)): string[] {
  const names: string[] = [];
  const walk = (command: Command) => {
    for (const sub of command.commands) {
      if (runs(sub)) names.push(`json:${commandPath(sub).replace(/^qk /, '').replace(/ /g, '-')}`);
      walk(sub);
    }
  };
  walk(program);
  return names;
}

const silentIo = { stdout: () => undefined, stderr: () => undefined, env: {} };

/** Hand-written sections after the generated ones (each starts with its `## ` heading); others may be added. */
const SECTIONS = ['section:service-api'];

function sectionNames(kept: ReadonlyMap<string, string>): string[] {
  return [...new Set([...SECTIONS, ...[...kept.keys()].filter((name) => name.startsWith('section:'))])];
}

/** docs/cli.md for the current command definitions, keeping the hand-written blocks of `existing`. */
export function renderCliReference(existing = '', program: Command = buildProgram(silentIo)): string {
  const kept = keptBlocks(existing);
  const exitCodes = Object.entries(ExitCode).map(([name, value]) => {
    const meaning = EXIT_CODE_MEANINGS[name as keyof typeof ExitCode];
    if (!meaning) throw new Error(`build/cli-reference.ts: exit code ${name} (${value}) has no meaning written down`);
    return `| ${value} | ${meaning} |`;
  });
  const { body, toc } = commandSections(program, kept);
  return [
    '# `qk` command reference',
    '',
    '<!-- Generated by `npm run docs:cli` from the command definitions in core/cli/src (what `qk --help` prints).',
    '     Edit only between keep markers; the rest is rewritten, and `npm test` fails when this file is stale. -->',
    '',
    keep('intro', kept),
    '',
    '## Contents',
    '',
    '- [Global options](#global-options)',
    '- [Exit codes](#exit-codes)',
    '- [Commands](#commands)',
    ...toc,
    '- [JSON shapes](#json-shapes)',
    '- [Operations](#operations)',
    '- [Error codes](#error-codes)',
    ...sectionNames(kept)
      .filter((name) => kept.has(name))
      .map((name) => {
        const title = /^##\s+(.+)$/m.exec(kept.get(name) ?? '')?.[1] ?? name;
        return `- [${title}](#${anchor(title)})`;
      }),
    '',
    '## Global options',
    '',
    'Accepted by every command, before or after it.',
    '',
    ...optionsTable(program.options),
    '## Exit codes',
    '',
    '| code | meaning |',
    '| --- | --- |',
    ...exitCodes,
    '',
    '## Commands',
    '',
    ...body,
    ...shapesSection((name) => keep(name, kept)),
    ...operationsSection(),
    ...errorCodesSection(),
    ...sectionNames(kept).flatMap((name) => [keep(name, kept), '']),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n*$/, '\n');
}
