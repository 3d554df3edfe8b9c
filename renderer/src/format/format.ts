/** Numbers, sizes and times as the console shows them: exact, right-aligned, local time. */
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** 1,204 — thousands separators, never abbreviated. */
export function formatCount(n: number): string {
  return integer.format(n);
}

/** B / KB / MB / GB with at most one decimal (binary units, as MSMQ's KB quotas are). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${integer.format(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${oneDecimal.format(value)} ${units[unit]}`;
}

/** A KB quantity (quotas are in KB) shown as a size. */
export function formatKB(kb: number): string {
  return formatBytes(kb * 1024);
}

/** Local date and time to the second; the exact ISO time goes in the tooltip. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Seconds as "4 d 0 h", "2 min 5 s"; null/undefined or 0xFFFFFFFF as "Unlimited". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || seconds >= 0xffffffff) return 'Unlimited';
  if (seconds < 60) return `${seconds} s`;
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return s > 0 ? `${m} min ${s} s` : `${m} min`;
}

/** Fraction used of a quota for a usage bar (0–1), or null when the quota is unlimited. */
export function usageFraction(used: number, limit: number | null): number | null {
  if (limit === null || limit <= 0) return null;
  return Math.min(1, used / limit);
}

/** "4 %" style, with "<1 %" so a non-empty queue never reads as empty. */
export function formatPercent(fraction: number): string {
  if (fraction > 0 && fraction < 0.01) return '<1 %';
  return `${Math.round(fraction * 100)} %`;
}
