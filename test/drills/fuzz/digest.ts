/**
 * A digest of what a service holds, to prove that a refused call changed nothing: every queue with its
 * properties, counts and bytes (journals and system queues included), every setting with its pending value,
 * and — in the full digest — the message IDs and lookup IDs of every non-empty queue and journal, in order.
 */
import type { ApiSession } from '../support/api.js';

interface QueueRow {
  path: string;
  [field: string]: unknown;
}

interface SettingRow {
  name: string;
  value: unknown;
  pending: unknown;
}

interface Page {
  total: number;
  messages: { id: string; lookupId: number }[];
}

/** Lines of text, one per fact, so two digests compare and diff simply. */
export interface Digest {
  lines: string[];
  full: boolean;
  /** Full digests: the messages of each non-empty queue (for fuzz inputs that name a real message). */
  messages: Map<string, { id: string; lookupId: number }[]>;
}

const QUEUE_FIELDS = [
  'type',
  'transactional',
  'journal',
  'label',
  'quotaKB',
  'journalQuotaKB',
  'retention',
  'messageCount',
  'bytes',
  'journalMessageCount',
  'journalBytes',
  'modifiedTime',
];

/**
 * Takes a digest: always every queue; `full` adds every setting and the message IDs of every non-empty
 * queue. Throws if the service does not answer.
 */
export async function takeDigest(api: ApiSession, full: boolean): Promise<Digest> {
  const [queues, settings] = await Promise.all([
    api.value<QueueRow[]>('queueList', {}),
    full ? api.value<SettingRow[]>('settingsList', {}) : Promise.resolve([]),
  ]);
  const lines: string[] = [];
  const messages = new Map<string, { id: string; lookupId: number }[]>();
  for (const q of [...queues].sort((a, b) => a.path.localeCompare(b.path))) {
    // An empty outgoing queue comes with a send to another computer and goes by itself when idle
    // (CleanupInterval): a timer's doing, not a call's. One that holds messages is state like any queue.
    if (q['type'] === 'outgoing' && Number(q['messageCount'] ?? 0) === 0) continue;
    lines.push(`queue ${q.path} ${QUEUE_FIELDS.map((f) => JSON.stringify(q[f] ?? null)).join(' ')}`);
  }
  for (const s of [...settings].sort((a, b) => a.name.localeCompare(b.name))) {
    lines.push(`setting ${s.name} ${JSON.stringify(s.value)} ${JSON.stringify(s.pending)}`);
  }
  if (full) {
    const targets: string[] = [];
    for (const q of queues) {
      if (Number(q['messageCount'] ?? 0) > 0) targets.push(q.path);
      if (Number(q['journalMessageCount'] ?? 0) > 0 && q['type'] !== 'system') targets.push(`${q.path}\\JOURNAL$`);
    }
    const pages = await Promise.all(targets.map((path) => allMessages(api, path)));
    targets.forEach((path, i) => {
      const page = pages[i] ?? [];
      messages.set(path, page);
      lines.push(`messages ${path} ${page.map((m) => `${m.lookupId}:${m.id}`).join(',')}`);
    });
  }
  return { lines, full, messages };
}

async function allMessages(api: ApiSession, path: string): Promise<{ id: string; lookupId: number }[]> {
  const found: { id: string; lookupId: number }[] = [];
  for (let offset = 0; offset < 20_000; offset += 1_000) {
    const page = await api.value<Page>('browse', { path, offset, limit: 1_000 });
    found.push(...page.messages.map((m) => ({ id: m.id, lookupId: m.lookupId })));
    if (page.messages.length === 0 || offset + page.messages.length >= page.total) break;
  }
  return found;
}

/** The lines that differ (at most `limit` of each side), or null when the digests agree. */
export function diffDigests(before: Digest, after: Digest, limit = 6): string | null {
  const compareMessages = before.full && after.full;
  const keep = (line: string): boolean => compareMessages || line.startsWith('queue ');
  const a = before.lines.filter(keep);
  const b = after.lines.filter(keep);
  const inB = new Set(b);
  const inA = new Set(a);
  const gone = a.filter((line) => !inB.has(line));
  const added = b.filter((line) => !inA.has(line));
  if (gone.length === 0 && added.length === 0) return null;
  const clip = (line: string): string => (line.length > 300 ? `${line.slice(0, 300)}…` : line);
  return [...gone.slice(0, limit).map((l) => `- ${clip(l)}`), ...added.slice(0, limit).map((l) => `+ ${clip(l)}`)].join(
    '\n',
  );
}
