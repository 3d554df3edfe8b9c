import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '@qk/cli';
import { helpFooter } from '../../../core/cli/src/help-footer.js';

const silentIo = { stdout: () => undefined, stderr: () => undefined, env: {} };

function paths(command: Command, prefix: string): string[] {
  return command.commands.flatMap((sub) => [`${prefix} ${sub.name()}`, ...paths(sub, `${prefix} ${sub.name()}`)]);
}

describe('qk --help', () => {
  it('lists every command and subcommand of the tree, each with its arguments and description', () => {
    const program = buildProgram(silentIo);
    const footer = helpFooter(program);
    const all = paths(program, 'qk');
    expect(all).toContain('qk queue create');
    expect(all).toContain('qk message move');
    for (const path of all) expect(footer).toMatch(new RegExp(`^  ${path}\\b`, 'm'));
    expect(footer).toMatch(/^ {2}qk queue create \[options\] <path> +create a queue/m);
  });

  it('follows the tree: a command added later is listed without touching the help text', () => {
    const program = buildProgram(silentIo);
    program.command('frobnicate <thing>').description('a command only this test knows');
    expect(helpFooter(program)).toMatch(/^ {2}qk frobnicate \[options\] <thing> +a command only this test knows$/m);
  });

  it('is what qk --help prints after the options', () => {
    let printed = '';
    const program = buildProgram({ ...silentIo, stdout: (text: string) => void (printed += text) });
    program.outputHelp();
    expect(printed).toContain(helpFooter(program).trim());
  });
});
