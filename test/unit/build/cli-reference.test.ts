// docs/cli.md is generated from qk's command definitions and core/api: it must be current, complete, and the
// generator must keep what people wrote by hand.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '@qk/cli';
import { UNDESCRIBED } from '../../../build/api-reference.js';
import { jsonBlockNames, keptBlocks, renderCliReference } from '../../../build/cli-reference.js';

const docFile = new URL('../../../docs/cli.md', import.meta.url);
const doc = readFileSync(docFile, 'utf8');
const silentIo = { stdout: () => undefined, stderr: () => undefined, env: {} };

describe('docs/cli.md', () => {
  it('is what `npm run docs:cli` makes of the current command definitions', () => {
    // On failure: run `npm run docs:cli`, fill in any new `<!-- keep:json:… -->` block, and commit docs/cli.md.
    expect(doc === renderCliReference(doc), 'docs/cli.md is stale: run `npm run docs:cli` and commit it').toBe(true);
  });

  it('says what every command prints with --json', () => {
    const blocks = keptBlocks(doc);
    const empty = jsonBlockNames().filter((name) => !blocks.get(name)?.trim());
    expect(empty, 'describe these commands’ --json output in docs/cli.md, between their keep markers').toEqual([]);
  });

  it('describes every error code', () => {
    expect(
      doc.includes(UNDESCRIBED),
      'an error code has no meaning: see ERROR_MEANINGS in build/api-reference.ts',
    ).toBe(false);
  });

  it('lists every command, option and operation that qk and the API have', () => {
    const program = buildProgram(silentIo);
    const walk = (command: Command): Command[] => command.commands.flatMap((sub) => [sub, ...walk(sub)]);
    for (const command of walk(program)) {
      const path = [command.parent?.parent ? command.parent.name() : '', command.name()].filter(Boolean).join(' ');
      expect(doc).toContain(`\`qk ${path}\``);
      for (const option of command.options) expect(doc).toContain(option.flags.replace(/\|/g, '\\|'));
    }
    expect(doc).toContain('| `queuePurge` | yes |');
  });
});

describe('the generator', () => {
  const base = () => {
    const program = new Command('qk').option('--json', 'machine-readable output');
    program.command('frob <path>').description('frobnicate a queue').option('--level <n>', 'how hard', '3');
    const group = program.command('widget').description('widgets');
    group.command('make').description('make one');
    return program;
  };

  it('writes each command with its synopsis, options and default values, and an empty --json block to fill', () => {
    const out = renderCliReference('', base());
    expect(out).toContain('### `qk frob`');
    expect(out).toContain('qk frob [options] <path>');
    expect(out).toContain('| `--level <n>` | how hard; default `3` |');
    expect(out).toContain('#### `qk widget make`');
    expect(keptBlocks(out).get('json:frob')).toBe('');
    expect(jsonBlockNames(base())).toEqual(['json:frob', 'json:widget-make']);
  });

  it('keeps hand-written blocks, adds a new command, and drops the block of a removed one', () => {
    const first = renderCliReference('', base()).replace(
      '<!-- keep:json:frob -->\n',
      '<!-- keep:json:frob -->\n`{"frobbed":N}` — by hand.\n',
    );
    const changed = new Command('qk');
    changed.command('frob <path>').description('frobnicate a queue, harder');
    changed.command('zap').description('zap everything').option('--force', 'really');
    const next = renderCliReference(first, changed);
    expect(keptBlocks(next).get('json:frob')).toBe('`{"frobbed":N}` — by hand.\n');
    expect(next).toContain('frobnicate a queue, harder');
    expect(next).toContain('### `qk zap`');
    expect(keptBlocks(next).has('json:widget-make')).toBe(false);
    expect(renderCliReference(next, changed)).toBe(next);
  });

  it('escapes what Markdown would eat in descriptions and table cells', () => {
    const program = new Command('qk');
    program
      .command('odd')
      .description('a .\\private$\\q path, a <tag> and *stars*')
      .option('--mode <on|off>', 'on|off');
    const out = renderCliReference('', program);
    expect(out).toContain('a .\\private$\\q path, a \\<tag\\> and \\*stars\\*');
    expect(out).toContain('| `--mode <on\\|off>` | on\\|off |');
  });
});
