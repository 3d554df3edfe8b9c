/** Aligned text tables and key/value blocks for human output. */

const numbers = new Intl.NumberFormat('en-US');

/** 1234567 → "1,234,567". */
export function formatCount(value: number): string {
  return numbers.format(value);
}

/** One column of a table; `right` aligns numbers. */
export interface Column<T> {
  header: string;
  value(row: T): string;
  right?: boolean;
}

/** Renders rows under their headers with columns padded to the widest cell. */
export function renderTable<T>(columns: Column<T>[], rows: readonly T[]): string {
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((row) => (row[i] as string).length)),
  );
  const line = (values: string[]): string =>
    values
      .map((value, i) => (columns[i]?.right ? value.padStart(widths[i] as number) : value.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
}

/** Renders `label  value` lines with the labels padded to the widest. */
export function renderFields(fields: [string, string][]): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${label.padEnd(width)}  ${value}`.trimEnd()).join('\n');
}

/** Control characters (newlines in labels or bodies) would break the columns. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/** Text shown for a null/absent value. */
export function orDash(value: string | null | undefined): string {
  return value === null || value === undefined || value === '' ? '-' : value;
}
