/** Human output of queues. */
import type { QueueInfo } from '@qk/model';
import { formatCount, orDash, renderFields, renderTable, type Column } from './table.js';

const quota = (kb: number | null): string => (kb === null ? 'unlimited' : `${formatCount(kb)} KB`);
const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

const queueColumns: Column<QueueInfo>[] = [
  { header: 'PATH', value: (q) => q.path },
  { header: 'TYPE', value: (q) => q.type },
  { header: 'TRANSACTIONAL', value: (q) => yesNo(q.transactional) },
  { header: 'MESSAGES', value: (q) => formatCount(q.messageCount), right: true },
  { header: 'BYTES', value: (q) => formatCount(q.bytes), right: true },
  { header: 'JOURNAL MESSAGES', value: (q) => formatCount(q.journalMessageCount), right: true },
  { header: 'QUOTA', value: (q) => quota(q.quotaKB), right: true },
  { header: 'LABEL', value: (q) => q.label },
];

/** The queue list as a table. */
export function formatQueueList(queues: QueueInfo[]): string {
  if (queues.length === 0) return 'No queues.';
  return renderTable(queueColumns, queues);
}

/** One queue as a property sheet. */
export function formatQueue(q: QueueInfo): string {
  return renderFields([
    ['Path', q.path],
    ['Format name', q.formatName],
    ['Type', q.type],
    ...(q.parent ? ([['Subqueue of', q.parent]] as [string, string][]) : []),
    ['Label', orDash(q.label)],
    ['Transactional', yesNo(q.transactional)],
    ['Journal', q.journal ? 'enabled' : 'disabled'],
    ['Retention', q.retention ? 'on' : 'off'],
    ['Quota', quota(q.quotaKB)],
    ['Journal quota', quota(q.journalQuotaKB)],
    ['Messages', `${formatCount(q.messageCount)} (${formatCount(q.bytes)} bytes)`],
    ['Journal messages', `${formatCount(q.journalMessageCount)} (${formatCount(q.journalBytes)} bytes)`],
    ['Created', q.createdTime],
    ['Modified', q.modifiedTime],
  ]);
}
