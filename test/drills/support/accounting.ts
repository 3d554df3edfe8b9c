/**
 * Message accounting for the transport drill: every message is labelled with a unique tag; a confirmed send,
 * a receive whose reply arrived, and what the queue holds at the end must add up — each confirmed message
 * received once or still in its queue. Calls whose reply can never arrive (their connection vanished after
 * messages were there to take) may have taken one message each: they form a budget, as in the crash drill.
 */
import type { ApiSession } from './api.js';

interface Page {
  total: number;
  messages: { label: string }[];
}

export interface Tally {
  sent: number;
  received: number;
  remaining: number;
  /** Confirmed, not received, not in the queue, beyond what calls without a reply may have taken. */
  lost: string[];
  /** Received twice, or received and still in the queue. */
  duplicated: string[];
  /** Missing messages put down to calls without a reply (at most one each). */
  takenInDoubt: number;
}

export class Accounting {
  private readonly sent = new Set<string>();
  private readonly received = new Map<string, number>();
  private inDoubt = 0;
  private seq = 0;

  constructor(
    readonly path: string,
    private readonly prefix: string,
  ) {}

  /** Sends `n` recoverable messages of `bodyBytes` each (in batches); returns the tags confirmed. */
  async fill(api: ApiSession, n: number, bodyBytes: number): Promise<string[]> {
    const confirmed: string[] = [];
    const body = 'm'.repeat(bodyBytes);
    const perBatch = Math.max(1, Math.min(200, Math.floor(8_000_000 / Math.max(1, bodyBytes))));
    for (let done = 0; done < n; done += perBatch) {
      const tags = Array.from({ length: Math.min(perBatch, n - done) }, () => `${this.prefix}-${++this.seq}`);
      const outcome = await api.call('sendBatch', {
        messages: tags.map((label) => ({ path: this.path, message: { label, body, delivery: 'recoverable' } })),
      });
      if (outcome.kind !== 'ok')
        throw new Error(`filling ${this.path} failed: ${JSON.stringify(outcome).slice(0, 300)}`);
      for (const tag of tags) this.sent.add(tag);
      confirmed.push(...tags);
    }
    return confirmed;
  }

  /** A reply carried these messages. */
  took(labels: string[]): void {
    for (const label of labels) this.received.set(label, (this.received.get(label) ?? 0) + 1);
  }

  /** Calls whose reply will never arrive, made while messages were there to take. */
  callsWithoutReply(n: number): void {
    this.inDoubt += n;
  }

  /** What the queue holds now, judged against what was sent and received. */
  async settle(api: ApiSession): Promise<Tally> {
    const found = new Map<string, number>();
    for (let offset = 0; ; offset += 1_000) {
      const page = await api.value<Page>('browse', { path: this.path, offset, limit: 1_000 });
      for (const m of page.messages) found.set(m.label, (found.get(m.label) ?? 0) + 1);
      if (page.messages.length === 0 || offset + page.messages.length >= page.total) break;
    }
    const missing: string[] = [];
    const duplicated: string[] = [];
    for (const tag of this.sent) {
      const copies = (found.get(tag) ?? 0) + (this.received.get(tag) ?? 0);
      if (copies === 0) missing.push(tag);
      if (copies > 1) duplicated.push(tag);
    }
    const takenInDoubt = Math.min(missing.length, this.inDoubt);
    return {
      sent: this.sent.size,
      received: [...this.received.values()].reduce((a, b) => a + b, 0),
      remaining: [...found.values()].reduce((a, b) => a + b, 0),
      lost: missing.slice(takenInDoubt),
      duplicated,
      takenInDoubt,
    };
  }
}

/** Labels of the messages in a result value (one message, or a batch). */
export function labelsOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  const record = value as { label?: unknown; messages?: { label?: unknown }[] };
  if (Array.isArray(record.messages)) return record.messages.map((m) => String(m.label));
  return typeof record.label === 'string' ? [record.label] : [];
}
