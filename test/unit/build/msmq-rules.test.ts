// docs/msmq-rules.md against the code: a rule it calls kept is checked by a test (or listed in semantics.md), a
// rule it calls not yet implemented is not, and its tables hold the product's settings, classes and levels.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { acknowledgmentLevels, formatClassCode, MessageClass, settingNames } from '@qk/model';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const rulesDoc = readFileSync(join(root, 'docs/msmq-rules.md'), 'utf8');
const semantics = readFileSync(join(root, 'docs/semantics.md'), 'utf8');

type Status = 'kept' | 'not yet implemented' | 'differs' | 'not applicable';
interface Rule {
  id: string;
  status: Status;
}

/** The rule bullets (`- **R-D1** …`, continued on indented lines) and the status each ends with. */
function parseRules(markdown: string): Rule[] {
  const rules: Rule[] = [];
  for (const match of markdown.matchAll(/^- \*\*(R-[A-Z]\d+[a-z]?)\*\*([\s\S]*?)(?=\n(?! {2})|\s*(?![\s\S]))/gm)) {
    const text = (match[2] ?? '').replace(/\s+/g, ' ');
    const mark = /\*\*(not yet implemented|differs|not applicable)\*\*/.exec(text)?.[1] as Status | undefined;
    rules.push({ id: match[1] ?? '', status: mark ?? 'kept' });
  }
  return rules;
}

/** Every test source, to find the rules named in tests (`test('R-D1 …')`). */
function testSources(): string {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : walk(path);
      return /\.(ts|tsx|mjs)$/.test(name) ? [readFileSync(path, 'utf8')] : [];
    });
  // This file names rules too; it checks them and does not count as their test.
  return walk(join(root, 'test'))
    .filter((source) => !source.includes('docs/msmq-rules.md against the code'))
    .join('\n');
}

const mentions = (text: string, id: string) => new RegExp(`${id}(?![0-9a-z])`).test(text);

describe('docs/msmq-rules.md', () => {
  const rules = parseRules(rulesDoc);
  const tests = testSources();

  it('numbers each rule once', () => {
    const ids = rules.map((rule) => rule.id);
    expect(ids.length).toBeGreaterThan(80);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('calls a rule kept only when a test checks it or semantics.md lists it', () => {
    const unchecked = rules
      .filter((rule) => rule.status === 'kept')
      .filter((rule) => !mentions(tests, rule.id) && !mentions(semantics, rule.id))
      .map((rule) => rule.id);
    expect(unchecked, 'mark these "not yet implemented" in docs/msmq-rules.md, or name a test after them').toEqual([]);
  });

  it('calls a rule not yet implemented only while no test checks it', () => {
    const stale = rules
      .filter((rule) => rule.status === 'not yet implemented')
      .filter((rule) => mentions(tests, rule.id) || mentions(semantics, rule.id))
      .map((rule) => rule.id);
    expect(stale, 'these have tests now: drop "— **not yet implemented**" from them in docs/msmq-rules.md').toEqual([]);
  });

  it('lists every setting of the queue manager', () => {
    for (const name of settingNames) expect(rulesDoc, name).toContain(`| \`${name}\` |`);
  });

  it('lists every message class with its code', () => {
    for (const [name, code] of Object.entries(MessageClass)) {
      expect(rulesDoc, name).toContain(`| \`${name}\` | ${formatClassCode(code)} |`);
    }
  });

  it('lists every acknowledgment level qk takes with its value', () => {
    for (const [name, value] of Object.entries(acknowledgmentLevels)) {
      expect(rulesDoc, name).toContain(`| \`${name}\` | 0x${value.toString(16).toUpperCase().padStart(2, '0')} |`);
    }
  });
});

describe('parseRules', () => {
  it('reads each bullet’s status from its own text, continuation lines included', () => {
    const markdown = [
      '- **R-A1** kept rule',
      '  over two lines.',
      '- **R-A2** a rule between computers. — **not',
      '  yet implemented**',
      '- **R-A3** something else. — **differs**: because.',
      'Not a rule: **R-A4**.',
      '- **R-A5** the last one. — **not applicable**',
    ].join('\n');
    expect(parseRules(markdown)).toEqual([
      { id: 'R-A1', status: 'kept' },
      { id: 'R-A2', status: 'not yet implemented' },
      { id: 'R-A3', status: 'differs' },
      { id: 'R-A5', status: 'not applicable' },
    ]);
  });
});
