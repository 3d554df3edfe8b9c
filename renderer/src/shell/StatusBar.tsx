/** Status bar: computer, storage against MachineQuota, duplicate cache fill, pending settings, and jobs. */
import { formatCount, formatKB, formatPercent } from '../format/format.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { parseNodeId } from '../tree/tree-model.js';
import { LOCAL_COMPUTER } from '../store/shared.js';
import { queueWarnings, type QueueWarning } from '../format/quota-state.js';

/** The status bar of the computer the selected node belongs to. */
export function StatusBar() {
  const store = useStoreApi();
  const computerKey = useAppStore((s) => (s.selectedNodeId ? parseNodeId(s.selectedNodeId).computer : LOCAL_COMPUTER));
  const computer = useAppStore((s) => s.computers.find((c) => c.key === computerKey));
  const queueCount = useAppStore(
    (s) => (s.queues[computerKey] ?? []).filter((q) => q.type === 'private' || q.type === 'public').length,
  );
  const machineQuota = useAppStore(
    (s) => s.settings[computerKey]?.find((x) => x.name === 'MachineQuota')?.value ?? null,
  );
  const jobs = useAppStore((s) => s.jobs);
  const queues = useAppStore((s) => s.queues[computerKey]);
  const full = (queues ?? []).flatMap(queueWarnings).filter((w) => w.state === 'full');
  const status = computer?.status;
  const pending = status?.settingsPendingRestart ?? [];
  return (
    <footer className="status-bar" role="status" aria-live="polite">
      <span className="status-item">
        {computer ? `${computer.name}${computer.connected ? '' : ' (not connected)'}` : 'Connecting…'}
      </span>
      {status && (
        <>
          <span className="status-item">
            {formatCount(queueCount)} {queueCount === 1 ? 'queue' : 'queues'}
          </span>
          <span className="status-item" title="Storage used against MachineQuota">
            {formatKB(status.machineQuotaUsedKB)}
            {machineQuota !== null
              ? ` of ${formatKB(machineQuota)} (MachineQuota, ${formatPercent(status.machineQuotaUsedKB / machineQuota)})`
              : ''}
          </span>
          <span className="status-item" title="Duplicate-removal cache entries / capacity (RemoveDuplicateSize)">
            duplicate cache {formatCount(status.duplicateCache.entries)}/{formatCount(status.duplicateCache.capacity)}
          </span>
          {full.length > 0 && (
            <span
              className="status-item warning"
              title={full.map((w) => `${w.path}: ${w.text}`).join('\n')}
              data-status="quota-warning"
            >
              ⚠ {describeFull(full)}
            </span>
          )}
          {pending.length > 0 && (
            <span className="status-item pending" title={pending.join(', ')}>
              {pending.length === 1 ? '1 setting waits' : `${pending.length} settings wait`} for restart
            </span>
          )}
        </>
      )}
      <span className="status-spacer" />
      {jobs.map((job) => (
        <span key={job.id} className={`job job-${job.state}`} data-job-state={job.state}>
          <span className="job-title">{job.title}</span>
          {job.state === 'running' ? (
            <>
              <progress
                max={job.total ?? undefined}
                value={job.total === null ? undefined : job.done}
                aria-label={job.title}
              />
              <span>{job.total === null ? '…' : `${formatCount(job.done)}/${formatCount(job.total)}`}</span>
              <button type="button" onClick={() => store.getState().cancelJob(job.id)}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <span className="job-summary">{job.summary}</span>
              {job.failures.length > 0 && (
                <details className="job-failures">
                  <summary>{formatCount(job.failures.length)} failed</summary>
                  <ul>
                    {job.failures.slice(0, 200).map((f, i) => (
                      <li key={i}>
                        {f.item}: <code>{f.code}</code> {f.message}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
              <button type="button" aria-label="Dismiss" onClick={() => store.getState().dismissJob(job.id)}>
                ✕
              </button>
            </>
          )}
        </span>
      ))}
    </footer>
  );
}

/** "1 queue full, 2 journals full (copies dropped)". */
function describeFull(full: QueueWarning[]): string {
  const queues = full.filter((w) => w.part === 'queue').length;
  const journals = full.filter((w) => w.part === 'journal').length;
  const parts: string[] = [];
  if (queues > 0) parts.push(`${queues} ${queues === 1 ? 'queue' : 'queues'} full`);
  if (journals > 0) parts.push(`${journals} ${journals === 1 ? 'journal' : 'journals'} full (copies dropped)`);
  return parts.join(', ');
}
