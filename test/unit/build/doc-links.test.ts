// The repository stands on its own: every link in the README and docs/ points at a file of the repository
// (and at a heading that exists, when it names one), never outside it — not ../shared, not /work/…, not the web.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The Markdown files people read: the READMEs and everything under docs/. */
function documents(): string[] {
  const files = ['README.md', 'bench/README.md'].filter((file) => existsSync(join(root, file)));
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) return walk(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return [...files, ...walk('docs')];
}

/** Markdown without code: links inside fenced blocks and code spans are text, not links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`+[^`\n]*`+/g, '');
}

/** Link targets: inline links and images, reference definitions, and HTML href/src. */
function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets: string[] = [];
  for (const match of text.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    targets.push(match[1] ?? '');
  }
  for (const match of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(match[1] ?? '');
  for (const match of text.matchAll(/\b(?:href|src)\s*=\s*"([^"]+)"/g)) targets.push(match[1] ?? '');
  return targets;
}

/** GitHub's heading anchors: lower case, punctuation gone, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (match[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? '');
  return anchors;
}

/** What is wrong with one link of `file`, or null when it resolves inside the repository. */
function linkProblem(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'points outside the repository (a URL)';
  const [pathPart = '', anchor] = target.split('#', 2);
  const path = decodeURIComponent(pathPart);
  if (path.startsWith('/')) return 'is an absolute path';
  const absolute = path ? resolve(root, dirname(file), path) : join(root, file);
  const inRepo = relative(root, absolute);
  if (inRepo.startsWith(`..${sep}`) || inRepo === '..') return 'leaves the repository';
  if (!existsSync(absolute)) return 'names a file that does not exist';
  if (anchor && absolute.endsWith('.md') && !headingAnchors(readFileSync(absolute, 'utf8')).has(anchor)) {
    return `names a heading (#${anchor}) that does not exist`;
  }
  return null;
}

describe('links in the README and docs/', () => {
  it('all stay inside the repository and resolve', () => {
    const problems: string[] = [];
    for (const file of documents()) {
      for (const target of linkTargets(readFileSync(join(root, file), 'utf8'))) {
        const problem = linkProblem(file, target);
        if (problem) problems.push(`${file}: ${target} ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('and the text does not send readers outside it either (../shared, /work/…)', () => {
    const outside: string[] = [];
    for (const file of documents()) {
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.\.\/shared\b|\/work\/(shared|coord|wt|main)\b/.test(line))
            outside.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(outside).toEqual([]);
  });

  it('are found where they are and not inside code, and their problems are told', () => {
    const markdown = [
      '# Title',
      'See [the rules](msmq-rules.md#r-d1) and ![a picture](img/a.svg "title").',
      '[ref]: ../shared/CLI.md',
      '<img src="screenshots/x.png"> and `[not a link](nowhere.md)`',
      '```',
      '[nor this](nowhere.md)',
      '```',
    ].join('\n');
    expect(linkTargets(markdown)).toEqual(['msmq-rules.md#r-d1', 'img/a.svg', '../shared/CLI.md', 'screenshots/x.png']);
    expect(linkProblem('README.md', '../shared/CLI.md')).toBe('leaves the repository');
    expect(linkProblem('README.md', 'https://example.com/')).toMatch(/URL/);
    expect(linkProblem('README.md', '/work/shared/DESIGN.md')).toBe('is an absolute path');
    expect(linkProblem('README.md', 'docs/nothing-here.md')).toBe('names a file that does not exist');
    expect(linkProblem('README.md', 'README.md#no-such-heading')).toMatch(/heading/);
    expect(linkProblem('README.md', 'docs/cli.md#exit-codes')).toBeNull();
  });

  it('derive heading anchors as GitHub does', () => {
    const anchors = headingAnchors("## The service's API: HTTP and WebSocket\n### `qk queue create`\n## R-D1\n## R-D1");
    expect([...anchors]).toEqual(['the-services-api-http-and-websocket', 'qk-queue-create', 'r-d1', 'r-d1-1']);
  });
});
