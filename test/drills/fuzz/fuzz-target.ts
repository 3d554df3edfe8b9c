/**
 * The live service the fuzzers run against, and the rules every fuzz case is judged by:
 * - the service never exits and always answers (within 15 s);
 * - every answer is the contract's envelope; no 5xx except the documented resource states (a full quota, a
 *   service restarting) — an INTERNAL error or a 5xx for bad input is a finding;
 * - a refused call changes nothing: the state digest before and after it agree.
 * It also keeps the fixture small (so digests stay cheap) and supplies live values (open transactions, real
 * lookup and message IDs) for inputs that ask for them.
 */
import type { CallOutcome } from '../support/api.js';
import { DrillService } from '../support/service-process.js';
import { diffDigests, takeDigest, type Digest } from './digest.js';
import { FIXTURE_QUEUES, SENTINEL } from './pools.js';

export interface Finding {
  kind: 'crash' | 'no-reply' | '5xx' | 'malformed' | 'internal' | 'state-changed' | 'bad-exit' | 'threw';
  what: string;
  input: string;
  detail: string;
}

/** 5xx answers that are documented states of the service, not failures: a full quota, a restart in progress. */
export function documented5xx(code: string, message: string): boolean {
  if (code === 'QUOTA_EXCEEDED' || code === 'SERVICE_NOT_AVAILABLE') return true;
  return code === 'INSUFFICIENT_RESOURCES' && /quota/i.test(message);
}

export function preview(value: unknown, max = 400): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  text = text ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

export class FuzzTarget {
  readonly service = new DrillService();
  readonly findings: Finding[] = [];
  readonly stats = {
    cases: 0,
    refused: 0,
    succeeded: 0,
    digests: 0,
    fullDigests: 0,
    digestMs: 0,
    crashes: 0,
    restarts: 0,
  };
  readonly codes: Record<string, number> = {};
  private current: Digest | null = null;
  private latestFull: Digest | null = null;
  private readonly openTransactions = new Set<string>();
  private settingDefaults = new Map<string, number>();

  async start(): Promise<void> {
    await this.service.start();
    const settings = await this.service.api().value<{ name: string; default: number }[]>('settingsList', {});
    this.settingDefaults = new Map(settings.map((s) => [s.name, s.default]));
    await this.tidy();
  }

  /**
   * Proves the digest sees a change as small as one message: a send must change it, in its light and full
   * forms. Returns the two differences (null would mean the digest is blind).
   */
  async calibrate(): Promise<{ light: string | null; full: string | null }> {
    const light = await takeDigest(this.api, false);
    const full = await takeDigest(this.api, true);
    await this.api.value('send', {
      path: FIXTURE_QUEUES[0].path,
      message: { label: 'calibration', delivery: 'recoverable' },
    });
    const result = {
      light: diffDigests(light, await takeDigest(this.api, false)),
      full: diffDigests(full, await takeDigest(this.api, true)),
    };
    this.current = null;
    return result;
  }

  get api() {
    return this.service.api();
  }

  /** The digest to compare a coming call with (taken now if the last call changed the state). */
  async before(full: boolean): Promise<Digest> {
    if (!this.current || (full && !this.current.full)) await this.refreshDigest(full);
    return this.current as Digest;
  }

  private async refreshDigest(full: boolean): Promise<void> {
    const started = Date.now();
    this.current = await takeDigest(this.api, full);
    this.stats.digestMs += Date.now() - started;
    this.stats.digests += 1;
    if (full) {
      this.stats.fullDigests += 1;
      this.latestFull = this.current;
    }
  }

  /**
   * Keeps timers out of the fuzz's state: a LongLiveTime of a few seconds would expire every message waiting in
   * an outgoing queue moments later, under some unrelated call's digest. Applied to every mode of input.
   */
  static withoutShortTimers(op: string, input: unknown): unknown {
    if (op !== 'settingsSet' || input === null || typeof input !== 'object') return input;
    const record = input as { name?: unknown; value?: unknown };
    const short = typeof record.value === 'number' && record.value >= 0 && record.value < 86_400;
    if (typeof record.name === 'string' && record.name.toLowerCase() === 'longlivetime' && short) {
      return { ...record, value: 86_400 };
    }
    return input;
  }

  /** Replaces the sentinels of pools.ts with an open transaction, a real lookup ID, a real message ID. */
  substitute(input: unknown, pick: (n: number) => number): unknown {
    const messages = [...(this.latestFull?.messages.values() ?? [])].flat();
    const transactions = [...this.openTransactions];
    const walk = (value: unknown, depth: number): unknown => {
      if (depth > 50) return value;
      if (value === SENTINEL.lookupId) return messages.length > 0 ? messages[pick(messages.length)]?.lookupId : 1;
      if (value === SENTINEL.transaction)
        return transactions.length > 0 ? transactions[pick(transactions.length)] : 'no-such-transaction';
      if (value === SENTINEL.messageId) return messages.length > 0 ? messages[pick(messages.length)]?.id : '{x}\\1';
      if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
      if (value !== null && typeof value === 'object') {
        const copy: Record<string, unknown> = {};
        for (const key of Object.keys(value)) {
          Object.defineProperty(copy, key, {
            value: walk((value as Record<string, unknown>)[key], depth + 1),
            enumerable: true,
            configurable: true,
            writable: true,
          });
        }
        return copy;
      }
      return value;
    };
    return walk(input, 0);
  }

  /** Judges one API call. `before` is the digest taken before it. */
  async judgeCall(what: string, input: unknown, outcome: CallOutcome, before: Digest): Promise<void> {
    this.stats.cases += 1;
    if (outcome.kind === 'ok') {
      this.stats.succeeded += 1;
      this.current = null;
      this.track(what, outcome.value, input);
      return;
    }
    if (outcome.kind === 'no-reply' || outcome.kind === 'malformed') {
      const alive = this.service.running;
      this.finding(
        alive ? (outcome.kind === 'malformed' ? 'malformed' : 'no-reply') : 'crash',
        what,
        input,
        preview(outcome),
      );
      this.current = null;
      if (!alive) await this.restartAfterCrash();
      return;
    }
    this.stats.refused += 1;
    this.codes[outcome.code] = (this.codes[outcome.code] ?? 0) + 1;
    if (outcome.code === 'INTERNAL') this.finding('internal', what, input, `${outcome.status} ${outcome.message}`);
    else if (outcome.status >= 500 && !documented5xx(outcome.code, outcome.message)) {
      this.finding('5xx', what, input, `${outcome.status} ${outcome.code}: ${outcome.message}`);
    }
    await this.checkUnchanged(what, input, before);
  }

  /**
   * A request over the service's body limit may be answered early and the connection closed while the client
   * is still writing it (fetch then reports EPIPE or a reset, not the 413): a refusal, judged as one.
   */
  async judgeCutOff(what: string, input: unknown, before: Digest): Promise<void> {
    this.stats.cases += 1;
    this.stats.refused += 1;
    const key = '(oversized request cut off)';
    this.codes[key] = (this.codes[key] ?? 0) + 1;
    await this.checkUnchanged(what, input, before);
  }

  /** After a refusal: the state must be what it was before the call. */
  async checkUnchanged(what: string, input: unknown, before: Digest): Promise<void> {
    await this.refreshDigest(before.full);
    const diff = diffDigests(before, this.current as Digest);
    if (diff) {
      this.finding('state-changed', what, input, diff);
      this.current = null;
    }
  }

  /** A call that may have changed the state: the next digest is taken fresh. */
  stateMayHaveChanged(): void {
    this.current = null;
  }

  finding(kind: Finding['kind'], what: string, input: unknown, detail: string): void {
    if (kind === 'crash') this.stats.crashes += 1;
    this.findings.push({ kind, what, input: preview(input), detail: preview(detail, 1_500) });
  }

  private track(op: string, value: unknown, input: unknown): void {
    if (op === 'transactionBegin') {
      const id = (value as { transaction?: string } | null)?.transaction;
      if (id) this.openTransactions.add(id);
    }
    if (op === 'transactionCommit' || op === 'transactionAbort') {
      this.openTransactions.delete(String((input as { transaction?: unknown })?.transaction));
    }
  }

  private async restartAfterCrash(): Promise<void> {
    this.stats.restarts += 1;
    this.openTransactions.clear();
    await this.service.start();
    await this.tidy();
  }

  /**
   * Brings the fixture back: no open transactions (an abandoned one would be aborted by the service's idle
   * sweep minutes later, changing the state under a digest), fixture queues present and nearly empty, no
   * other queues, settings at their defaults.
   */
  async tidy(): Promise<void> {
    const api = this.api;
    await Promise.all([...this.openTransactions].map((transaction) => api.call('transactionAbort', { transaction })));
    this.openTransactions.clear();
    // Settings first: a generated MachineQuota of 1 KB would refuse the seed messages of a fixture queue rebuilt below.
    const settings = await api.value<{ name: string; value: number | null; pending: number | null }[]>(
      'settingsList',
      {},
    );
    for (const s of settings) {
      const fallback = this.settingDefaults.get(s.name);
      if (fallback === undefined || fallback === null) continue;
      if (s.value !== fallback || (s.pending !== null && s.pending !== fallback)) {
        await api.call('settingsSet', { name: s.name, value: fallback });
      }
    }
    const queues = await api.value<{ path: string; type: string; messageCount: number; journalMessageCount: number }[]>(
      'queueList',
      {},
    );
    const fixture = new Set(FIXTURE_QUEUES.map((q) => q.path.toLowerCase()));
    for (const q of queues) {
      if ((q.type === 'private' || q.type === 'public') && !fixture.has(q.path.toLowerCase())) {
        await api.call('queueDelete', { path: q.path });
      } else if (q.messageCount > 20 || q.type === 'system' || q.type === 'outgoing') {
        if (q.messageCount > 0) await api.call('queuePurge', { path: q.path });
      }
      if (q.journalMessageCount > 20 && q.type !== 'system')
        await api.call('queuePurge', { path: `${q.path}\\JOURNAL$` });
    }
    for (const q of FIXTURE_QUEUES) {
      if (!queues.some((existing) => existing.path.toLowerCase() === q.path.toLowerCase())) {
        await api.value('queueCreate', q);
        for (let i = 0; i < 3; i++) {
          await api.value('send', {
            path: q.path,
            message: { label: `seed-${i}`, body: `seed ${i}`, delivery: 'recoverable' },
            ...('transactional' in q ? { transactional: true } : {}),
          });
        }
      } else {
        await api.call('queueSet', {
          path: q.path,
          label: '',
          journal: 'journal' in q,
          retention: 'retention' in q,
          quotaKB: 'quotaKB' in q ? q.quotaKB : null,
          journalQuotaKB: null,
        });
      }
    }
    this.current = null;
  }

  async dispose(): Promise<void> {
    await this.service.dispose();
  }
}
