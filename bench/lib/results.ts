/** Collects the figures of a run, prints them as a table, and writes them to results.json. */
import { writeFileSync } from 'node:fs';
import { formatNumber } from './stats.js';

export interface Target {
  /** `>=`: bigger is better; `<=`: smaller is better. */
  op: '>=' | '<=';
  value: number;
  /** Where the target comes from, when it is not the brief. */
  source?: string | undefined;
}

export interface Figure {
  section: string;
  name: string;
  value: number;
  unit: string;
  target: Target | null;
  met: boolean | null;
  /** How it was measured (method, counts, concurrency). */
  method: string;
  note?: string | undefined;
}

export class Results {
  readonly figures: Figure[] = [];
  readonly errors: { section: string; error: string }[] = [];

  add(
    section: string,
    name: string,
    value: number,
    unit: string,
    method: string,
    target: Target | null = null,
    note?: string,
  ): Figure {
    const met =
      target === null || !Number.isFinite(value)
        ? target === null
          ? null
          : false
        : target.op === '>='
          ? value >= target.value
          : value <= target.value;
    const figure: Figure = { section, name, value: round(value), unit, target, met, method, ...(note ? { note } : {}) };
    this.figures.push(figure);
    const mark = met === null ? '' : met ? '  ✓' : '  ✗ MISSED';
    console.log(
      `  ${name}: ${formatNumber(value)} ${unit}${target ? ` (target ${targetText(target)})` : ''}${mark}   [${method}]`,
    );
    return figure;
  }

  fail(section: string, error: unknown): void {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.errors.push({ section, error: text });
    console.error(`  ${section} FAILED: ${text}`);
  }

  table(): string {
    const rows = [['measurement', 'value', 'unit', 'target', 'met?']];
    for (const f of this.figures) {
      rows.push([
        f.name,
        formatNumber(f.value),
        f.unit,
        f.target ? targetText(f.target) : '—',
        f.met === null ? '' : f.met ? 'yes' : 'NO',
      ]);
    }
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    const line = (r: string[]): string =>
      r.map((cell, c) => (c === 1 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join(' | ');
    return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(line)].join('\n');
  }

  /** The same table in Markdown, for bench/README.md. */
  markdown(): string {
    const lines = ['| measurement | value | unit | target | met? | how |', '| --- | ---: | --- | --- | --- | --- |'];
    for (const f of this.figures) {
      lines.push(
        `| ${f.name} | ${formatNumber(f.value)} | ${f.unit} | ${f.target ? targetText(f.target) : '—'} | ${f.met === null ? '' : f.met ? 'yes' : '**no**'} | ${f.method} |`,
      );
    }
    return lines.join('\n');
  }

  write(path: string, header: Record<string, unknown>): void {
    writeFileSync(path, `${JSON.stringify({ ...header, figures: this.figures, errors: this.errors }, null, 2)}\n`);
  }
}

export function targetText(target: Target): string {
  return `${target.op === '>=' ? '≥' : '≤'} ${formatNumber(target.value)}`;
}

function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 1000) / 1000;
}
