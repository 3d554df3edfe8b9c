/** Human output of the queue manager's status and settings. */
import type { ServiceStatus, SettingInfo } from '@qk/model';
import { formatCount, renderFields, renderTable } from './table.js';

function duration(seconds: number): string {
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const parts = [days ? `${days}d` : '', hours ? `${hours}h` : '', minutes ? `${minutes}m` : '', `${s % 60}s`].filter(
    Boolean,
  );
  return parts.join(' ');
}

/** The status as a property sheet. */
export function formatStatus(s: ServiceStatus): string {
  const cache = s.duplicateCache;
  return renderFields([
    ['Computer', s.name],
    ['Computer ID', s.id],
    ['Version', s.version],
    ['Started', s.startedTime],
    ['Uptime', duration(s.uptimeSeconds)],
    ['Messages', `${formatCount(s.messages)} (${formatCount(s.bytes)} bytes)`],
    ['Journal bytes', formatCount(s.journalBytes)],
    [
      'Storage used',
      `${formatCount(Math.ceil(s.machineQuotaUsedKB))} KB (MachineQuota); ${formatCount(Math.ceil(s.machineJournalQuotaUsedKB))} KB (MachineJournalQuota)`,
    ],
    [
      'Duplicate cache',
      `${formatCount(cache.entries)} of ${formatCount(cache.capacity)} entries; ${formatCount(cache.duplicatesRemoved)} duplicate${cache.duplicatesRemoved === 1 ? '' : 's'} removed`,
    ],
    ['Pending restart', s.settingsPendingRestart.length ? s.settingsPendingRestart.join(', ') : 'none'],
    ['Peer address', s.peerAddress ?? 'none (no --peer-listen: this computer only sends)'],
    ['Peer fingerprint', s.peerFingerprint ?? '-'],
    ['Routing server', s.routing ? 'yes' : 'no'],
    ['Mode', s.offline ? 'offline (qk service connect ends it)' : 'online'],
  ]);
}

/** A setting's value; a setting may be absent (XactDelayReceiveNack by default). */
const shown = (value: number | null): string => (value === null ? 'not set' : formatCount(value));

/** Whether a change waits for the restart (`pendingRestart`; older services tell it by `pending` alone). */
const waits = (x: SettingInfo): boolean => x.pendingRestart ?? x.pending !== null;

/** The settings as a table. */
export function formatSettings(settings: SettingInfo[]): string {
  return renderTable(
    [
      { header: 'NAME', value: (x: SettingInfo) => x.name },
      { header: 'VALUE', value: (x) => shown(x.value), right: true },
      { header: 'DEFAULT', value: (x) => shown(x.default), right: true },
      { header: 'UNIT', value: (x) => x.unit },
      { header: 'RESTART', value: (x) => (x.restartRequired ? 'required' : '-') },
      { header: 'PENDING', value: (x) => (waits(x) ? shown(x.pending) : '-'), right: true },
    ],
    settings,
  );
}

/** One setting after a change. */
export function formatSetting(x: SettingInfo): string {
  const pending = waits(x) ? `; ${shown(x.pending)} takes effect at the next restart (qk service restart)` : '';
  return `${x.name} = ${shown(x.value)} ${x.unit}${pending}`;
}
