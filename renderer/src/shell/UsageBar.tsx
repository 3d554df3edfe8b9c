/** A quota usage bar with the numbers beside it ("1.2 MB of 8 GB"). */
import { formatBytes, formatPercent, usageFraction } from '../format/format.js';

/** Usage of `usedBytes` against `limitKB` (null = unlimited). */
export function UsageBar({
  usedBytes,
  limitKB,
  compact = false,
  label,
  note,
}: {
  usedBytes: number;
  limitKB: number | null;
  compact?: boolean;
  label?: string;
  /** What the limit is when it is not the queue's own ("of MachineJournalQuota"). */
  note?: string;
}) {
  const fraction = usageFraction(usedBytes, limitKB === null ? null : limitKB * 1024);
  const text =
    fraction === null
      ? `${formatBytes(usedBytes)} (no limit)`
      : `${formatBytes(usedBytes)} of ${formatBytes((limitKB ?? 0) * 1024)}${note ? ` (${note})` : ''}`;
  return (
    <span
      className={`usage${compact ? ' compact' : ''}`}
      title={fraction === null ? text : `${text} (${formatPercent(fraction)})`}
    >
      <span
        className={`usage-bar${fraction !== null && fraction >= 0.9 ? ' high' : ''}`}
        role="progressbar"
        aria-label={label ?? 'Quota usage'}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fraction === null ? 0 : Math.round(fraction * 100)}
        aria-valuetext={text}
      >
        <span
          className="usage-fill"
          style={{ width: `${fraction === null ? 0 : Math.max(fraction > 0 ? 2 : 0, fraction * 100)}%` }}
        />
      </span>
      <span className="usage-text">{compact ? (fraction === null ? 'no limit' : formatPercent(fraction)) : text}</span>
    </span>
  );
}
